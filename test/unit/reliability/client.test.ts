/**
 * The API fault matrix at the client: each fault gives the typed error whose message names the
 * cause and says what to do, is retried only when that is safe, leaks nothing, and the same
 * client works again once the fault is gone.
 */
import * as assert from 'node:assert/strict';
import { createHook } from 'node:async_hooks';
import { abortableSleep } from '../../../src/core/abort';
import { Simulator, type RouteName } from '../../simulator';
import { collector } from '../support/collector';
import { recordingLogger } from '../support/logger';
import { AGENT_ID, EXPORT_ID, FAULTS, keyOf, timeoutsFor, type Call, type FaultCase } from './cases';
import { KEY, seedJobs, startWorld, type World } from './world';
import { AdminApiClient, type ApiClientOptions } from '../../../src/core/api/client';
import { ApiError, RateLimitedError } from '../../../src/core/api/apiErrors';

const ROUTE: Record<Call, RouteName> = { 'agent.get': 'agent.get', 'export.status': 'export.status', 'export.start': 'export.start', 'export.bundle': 'export.bundle' };

function callOf(client: AdminApiClient, call: Call): Promise<unknown> {
  switch (call) {
    case 'agent.get':
      return client.getAgentJob(AGENT_ID);
    case 'export.status':
      return client.getExportJob(EXPORT_ID);
    case 'export.start':
      return client.startExport({ domain: 'docs.acme.dev' });
    case 'export.bundle':
      return client.generateBundle(EXPORT_ID);
  }
}

/** The answer a healed call must give: the job asked for, a new export, a link. */
function assertAnswer(call: Call, answer: unknown): void {
  const value = answer as Record<string, unknown>;
  switch (call) {
    case 'agent.get':
      return assert.equal(value.id, AGENT_ID);
    case 'export.status':
      return assert.equal(value.jobId, EXPORT_ID);
    case 'export.start':
      assert.equal(value.domain, 'docs.acme.dev');
      return assert.equal(typeof value.jobId, 'string');
    case 'export.bundle':
      return assert.match(String(value.bundleUrl), /^https?:\/\//);
  }
}

/** Attempts the client is expected to make: GETs are retried on what a retry can fix. */
function expectedAttempts(c: FaultCase): number | undefined {
  if (c.target !== undefined) return undefined; // refused, DNS: nothing reaches the simulator
  const get = c.call === 'agent.get' || c.call === 'export.status';
  if (get && (c.kind === 'server' || c.kind === 'timeout' || c.kind === 'network')) return 3;
  if (c.kind === 'redirect') return undefined; // counted on both origins below
  return 1;
}

describe('reliability: API faults at the client @api-faults', () => {
  let w: World;
  let sleeps: number[];
  const clients: AdminApiClient[] = [];

  function client(c: FaultCase | undefined, over: Partial<ApiClientOptions> = {}): AdminApiClient {
    const target = c?.target?.(w, 'client') ?? { baseUrl: w.sim.baseUrl };
    const made = new AdminApiClient({
      baseUrl: target.baseUrl,
      projectId: w.sim.projectId,
      getKey: () => (c === undefined ? KEY : keyOf(c)),
      log: recordingLogger('client'),
      ...timeoutsFor(c),
      connectTimeoutMs: 1_000,
      sleep: (ms, signal) => {
        sleeps.push(ms);
        return abortableSleep(Math.min(ms, 2), signal);
      },
      ...(target.dispatcher === undefined ? {} : { dispatcher: target.dispatcher }),
      ...over,
    });
    clients.push(made);
    return made;
  }

  beforeEach(async () => {
    w = await startWorld();
    seedJobs(w);
    sleeps = [];
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await w.close();
  });

  for (const c of FAULTS) {
    it(c.name, async () => {
      const route = ROUTE[c.call];
      await c.arrange(w, route);
      const api = client(c);
      const before = process.memoryUsage();
      const error = await callOf(api, c.call).then(
        () => assert.fail('the call succeeded'),
        (e: unknown) => e,
      );
      const after = process.memoryUsage();
      collector.recordError(`client: ${c.name}`, error);
      assert.ok(error instanceof ApiError, String(error));
      assert.equal(error.kind, c.kind, error.message);
      assert.match(error.message, c.cause, 'names the cause');
      assert.match(error.message, c.action, 'says what to do');

      const attempts = expectedAttempts(c);
      const sent = w.sim.requests.filter((r) => r.route === route);
      if (attempts !== undefined) assert.equal(sent.length, attempts, `attempts: ${sent.map((r) => r.status).join(', ')}`);
      if (c.kind === 'rateLimited') assert.deepEqual(sleeps, [], 'a wait over a minute is not waited out');
      if (c.cause.source.includes('too large')) {
        const streamed = sent[0]?.sentBytes ?? Infinity;
        assert.ok(streamed < 8 * 1024 * 1024, `the server got to send ${streamed} bytes: the client read on`);
        const grown = after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers);
        assert.ok(grown < 24 * 1024 * 1024, `memory grew by ${Math.round(grown / 1024 / 1024)} MiB`);
      }
      if (c.kind === 'redirect' && c.name.includes('another origin')) {
        assert.equal(w.sim.requests.filter((r) => r.origin === 'storage').length, 0, 'nothing was sent to another origin');
      }

      // Once the fault is gone, the same client works again (no poisoned connection or state):
      // the very instance that met the fault, as the jobs service keeps one for the session.
      await c.heal(w);
      if (c.kind !== 'conflict' && c.key === undefined) {
        w.sim.clearRequests();
        const healed = await callOf(api, c.call);
        assertAnswer(c.call, healed);
        assert.equal(w.sim.requests.filter((r) => r.route === route).length, 1, 'one request, answered at once');
      }
    });
  }

  it('429: a short Retry-After (seconds or HTTP date) is waited out, then the request succeeds', async () => {
    w.sim.injectFault({ route: 'agent.get', kind: 'status', status: 429, headers: { 'retry-after': '3' } });
    w.sim.injectFault({ route: 'agent.get', kind: 'status', status: 429, retryAfterDateSeconds: 20 });
    assert.equal(((await client(undefined).getAgentJob(AGENT_ID)) as { id: string }).id, AGENT_ID);
    assert.equal(sleeps[0], 3_000);
    assert.ok((sleeps[1] ?? 0) >= 19_000 && (sleeps[1] ?? 0) <= 20_000, `waited ${sleeps[1]} ms`);
  });

  it('429 with an HTTP date from a server whose clock is 10 minutes ahead: waits what the server meant', async () => {
    const skewed = await Simulator.start({ keys: [{ key: KEY }], clockSkewMs: 10 * 60_000 });
    try {
      skewed.addAgentJob({ id: AGENT_ID });
      skewed.injectFault({ route: 'agent.get', kind: 'status', status: 429, retryAfterDateSeconds: 30, times: null });
      const error = await client(undefined, { baseUrl: skewed.baseUrl }).getAgentJob(AGENT_ID).then(
        () => assert.fail('succeeded'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof RateLimitedError);
      // Read against the local clock, the date is 10.5 minutes away: more than is ever waited out.
      assert.ok(sleeps.length === 2 && sleeps.every((ms) => ms >= 29_000 && ms <= 30_000), `waits ${sleeps.join(', ')}`);
      assert.match(error.message, /Wait (29|30) s before trying again/);
    } finally {
      await skewed.stop();
    }
  });

  it('a request that is over leaves no timer behind: its whole-request timeout is cleared, not left to fire', async () => {
    const pending = new Map<number, string>();
    const hook = createHook({
      init(id, type) {
        if (type === 'Timeout') pending.set(id, new Error().stack ?? '');
      },
      destroy(id) {
        pending.delete(id);
      },
    }).enable();
    try {
      const c = new AdminApiClient({ baseUrl: w.sim.baseUrl, projectId: w.sim.projectId, getKey: () => KEY, log: recordingLogger('client'), requestTimeoutMs: 30_000 });
      await c.getAgentJob(AGENT_ID);
      w.sim.injectFault({ route: 'agent.get', kind: 'status', status: 404, body: { error: 'Agent job not found' } });
      await assert.rejects(c.getAgentJob(AGENT_ID));
      await c.close();
      // undici's shared clock ticks once more (every 0.5 s) before it stops: give it that long, no more.
      const ours = () => [...pending.values()].filter((stack) => !/node_modules[\\/]mocha[\\/]|waitingHere/.test(stack));
      for (let i = 0; i < 15 && ours().length > 0; i++) await new Promise(function waitingHere(resolve) { setTimeout(resolve, 100); });
    } finally {
      hook.disable();
    }
    const left = [...pending.values()].filter((stack) => !/node_modules[\\/]mocha[\\/]|waitingHere/.test(stack));
    assert.deepEqual(left.map((stack) => stack.split('\n').slice(6, 10).join(' <')), [], 'timers still armed');
  });
});
