import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { AgentRateLimitError, AgentRequestMayHaveArrivedError, askAgent } from '../../src/core/agent/ask';
import { composerHeader, contextBlock, newDraft, promptFromDraft, repositoryPath } from '../../src/core/agent/prompt';
import { AdminApiClient } from '../../src/core/api/client';
import { NotFoundError, RequestRejectedError } from '../../src/core/api/apiErrors';
import type { AgentJob } from '../../src/core/api/apiTypes';
import { systemClock } from '../../src/core/jobs/clock';
import { JobRegistry } from '../../src/core/jobs/registry';
import { JobsService, type Transition } from '../../src/core/jobs/service';
import { Simulator } from '../simulator';
import { recordingLogger } from './support/logger';
import { MemoryStore } from './support/memoryStore';

const KEY = 'da_test_ask_key_5b7e';

async function waitFor(what: string, condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('asking the agent (core/agent/ask) against the simulator', () => {
  let sim: Simulator;
  let client: AdminApiClient;
  let log: ReturnType<typeof recordingLogger>;
  const slept: number[] = [];
  const sleep = (ms: number) => {
    slept.push(ms);
    return Promise.resolve();
  };

  beforeEach(async () => {
    slept.length = 0;
    sim = await Simulator.start({ keys: [{ key: KEY }], agentDefaults: { durationMs: 60_000 } });
    log = recordingLogger('ask');
    client = new AdminApiClient({ baseUrl: sim.baseUrl, projectId: sim.projectId, getKey: () => KEY, log, requestTimeoutMs: 400, connectTimeoutMs: 400, baseDelayMs: 1, maxDelayMs: 2, sleep: () => Promise.resolve() });
  });
  afterEach(async () => {
    await client.close();
    await sim.stop();
  });

  const posts = () => sim.requests.filter((r) => r.route === 'agent.create' || r.route === 'agent.message');

  it('a 429 asking for at most a minute is waited out, then sent once more', async () => {
    sim.injectFault({ route: 'agent.create', kind: 'status', status: 429, body: { error: 'rate limited' }, headers: { 'retry-after': '30' } });
    const job = await askAgent(client, { kind: 'create' }, 'Fix the typo', { sleep });
    assert.equal(job.status, 'active');
    assert.deepEqual(slept, [30_000]);
    assert.equal(posts().length, 2);
    assert.deepEqual(sim.agentPrompts(job.id), ['Fix the typo']);
    assert.ok(log.lines.length > 0 && !log.lines.some((l) => l.includes('Fix the typo')), 'the prompt (the person\'s own text) is in no log line');
  });

  it('a second 429, a longer one, or one that does not say when: no more sends, and the error says when to try again', async () => {
    sim.injectFault({ route: 'agent.create', kind: 'status', status: 429, body: { error: 'rate limited' }, headers: { 'retry-after': '5' }, times: 2 });
    await assert.rejects(askAgent(client, { kind: 'create' }, 'x', { sleep }), (e: unknown) => e instanceof AgentRateLimitError && e.retried && /Try again after \d\d:\d\d \(in 5 s\)/.test(e.message));
    assert.equal(posts().length, 2, 'retried once only');
    sim.clearRequests();
    sim.injectFault({ route: 'agent.create', kind: 'status', status: 429, body: { error: 'rate limited' }, headers: { 'retry-after': '61' } });
    await assert.rejects(askAgent(client, { kind: 'create' }, 'x', { sleep }), (e: unknown) => e instanceof AgentRateLimitError && e.retryAt !== undefined && !e.retried);
    assert.equal(posts().length, 1, 'a wait over a minute is not waited out');
    const job = await client.createAgentJob('first');
    sim.clearRequests();
    sim.setAgentDefaults({ hourlyLimit: 0, retryAfter: false });
    await assert.rejects(askAgent(client, { kind: 'message', jobId: job.id }, 'x', { sleep }), (e: unknown) => e instanceof AgentRateLimitError && e.retryAt === undefined && /did not say when/.test(e.message));
    assert.equal(posts().length, 1);
    assert.deepEqual(slept, [5_000], 'only the first short wait was waited out');
  });

  it('with no wait allowed (the editor), a 429 ends at once', async () => {
    sim.injectFault({ route: 'agent.create', kind: 'status', status: 429, body: { error: 'rate limited' }, headers: { 'retry-after': '3' } });
    await assert.rejects(askAgent(client, { kind: 'create' }, 'x', { sleep, maxRateLimitWaitMs: 0 }), AgentRateLimitError);
    assert.equal(posts().length, 1);
  });

  it('never resends a create or a follow-up after a 5xx, a timeout or a dropped connection: the job may exist', async () => {
    for (const fault of [{ kind: 'status', status: 500 }, { kind: 'status', status: 503, headers: { 'retry-after': '1' } }, { kind: 'delay', ms: 1_000 }, { kind: 'reset' }] as const) {
      sim.clearRequests();
      sim.injectFault({ route: 'agent.create', ...fault });
      await assert.rejects(askAgent(client, { kind: 'create' }, 'x', { sleep }), (e: unknown) => e instanceof AgentRequestMayHaveArrivedError && /may have been created/.test(e.message));
      assert.equal(posts().length, 1, `${fault.kind}: sent once`);
    }
    const job = await client.createAgentJob('first');
    sim.clearRequests();
    sim.injectFault({ route: 'agent.message', kind: 'status', status: 502 });
    await assert.rejects(askAgent(client, { kind: 'message', jobId: job.id }, 'again', { sleep }), (e: unknown) => e instanceof AgentRequestMayHaveArrivedError && e.message.includes(job.id));
    assert.equal(posts().length, 1);
    assert.deepEqual(slept, []);
  });

  it("a refusal is the client's own error (nothing can exist): 400 with the server's words, 404", async () => {
    sim.injectFault({ route: 'agent.create', kind: 'status', status: 400, body: { error: 'prompt too long' } });
    await assert.rejects(askAgent(client, { kind: 'create' }, 'x'), (e: unknown) => e instanceof RequestRejectedError && /prompt too long/.test(e.message));
    await assert.rejects(askAgent(client, { kind: 'message', jobId: 'missing' }, 'x'), NotFoundError);
  });
});

describe('a follow-up reopens a finished job in the service (registry and scheduler)', () => {
  it('a completed job that takes a follow-up is shown active, polled again, and completes again with a notification', async () => {
    const sim = await Simulator.start({ timeScale: 1_000, agentDefaults: { durationMs: 200_000 } });
    const log = recordingLogger('reopen');
    const client = new AdminApiClient({ baseUrl: sim.baseUrl, projectId: sim.projectId, getKey: () => sim.key, log, baseDelayMs: 1, maxDelayMs: 5 });
    const store = new MemoryStore();
    const service = new JobsService({ client, registry: new JobRegistry(store, 'jobs', log), clock: systemClock, isFocused: () => true, log, floorMs: 20, ceilingMs: 50 });
    const transitions: Transition[] = [];
    service.onDidTransition((t) => transitions.push(t));
    try {
      const created = await askAgent(client, { kind: 'create' }, 'Rewrite the intro');
      await service.addCreatedAgentJob(created);
      const key = `agent:${created.id}` as const;
      assert.equal(service.activeCount, 1, 'tracked and polled at once');
      await waitFor('completion', () => service.get(key)?.snapshot?.status === 'completed');
      assert.equal(service.activeCount, 0, 'no longer polled');
      assert.deepEqual(transitions.map((t) => t.to), ['completed']);
      const again = await askAgent(client, { kind: 'message', jobId: created.id }, 'Also the title');
      await service.reopenAgentJob(again);
      assert.equal(service.get(key)?.snapshot?.status, 'active', 'the row is active again at once');
      assert.equal(service.activeCount, 1, 'polled again');
      await waitFor('the second completion', () => service.get(key)?.snapshot?.status === 'completed');
      assert.deepEqual(transitions.map((t) => t.to), ['completed', 'completed']);
      assert.match((transitions[1]?.job.snapshot as AgentJob | undefined)?.prLink ?? '', /\/pull\/\d+$/);
      // A reload (a new registry on the same store) keeps the reopening: an older finished copy does not end it.
      const reloaded = new JobRegistry(store, 'jobs', log);
      assert.ok((reloaded.get(key) as { reopenedAt?: number } | undefined)?.reopenedAt !== undefined);
    } finally {
      service.dispose();
      await client.close();
      await sim.stop();
    }
  });

  it("another window's older finished copy does not end a job reopened here; this window's reopening reaches the other", async () => {
    const store = new MemoryStore();
    const log = recordingLogger('reopen-windows');
    const a = new JobRegistry(store, 'jobs', log);
    const b = new JobRegistry(store, 'jobs', log);
    const job = { id: 'j', status: 'completed', rawStatus: 'completed', source: { repository: 'https://github.com/acme/docs', ref: null }, model: 'm', prLink: 'https://github.com/acme/docs/pull/1', createdAt: '2026-01-01T00:00:00Z', archivedAt: null } as const;
    await a.add({ kind: 'agent', id: 'j', addedAt: 1, snapshot: job });
    b.reload();
    const reopened: string[] = [];
    b.onDidChange((_keys, elsewhere) => reopened.push(...elsewhere.reopened));
    await a.reopen('agent:j', { ...job, status: 'active', rawStatus: 'active' }, 100);
    // b still holds the finished copy, and writes something of its own.
    await b.updateSnapshot('agent:j', job);
    assert.equal(a.get('agent:j')?.snapshot?.status, 'active');
    a.reload();
    assert.equal(a.get('agent:j')?.snapshot?.status, 'active', 'not ended by the older copy');
    assert.equal(b.get('agent:j')?.snapshot?.status, 'active', 'the other window took the reopening');
    assert.deepEqual(reopened, ['agent:j']);
    // A reading after the reopening that finds it finished again is taken.
    await a.updateSnapshot('agent:j', job);
    assert.equal(a.get('agent:j')?.snapshot?.status, 'completed');
  });
});

describe('the prompt composer text (core/agent/prompt)', () => {
  it('builds the context from the page path and the numbered selected lines; the header is never sent', () => {
    const header = composerHeader('Ctrl+Enter sends. --> not an end');
    const context = contextBlock(
      { path: 'docs/guide/intro.mdx', selection: { startLine: 9, lines: ['Old text', '', '<Note>x</Note>'] } },
      { page: (p) => `Page: ${p}`, lines: (a, b) => `Lines ${a}-${b}:` },
    );
    assert.equal(context, 'Page: docs/guide/intro.mdx\nLines 9-11:\n 9 | Old text\n10 | \n11 | <Note>x</Note>');
    const draft = newDraft(header, context);
    assert.equal(promptFromDraft(draft), `${context}\n\n`);
    assert.equal(promptFromDraft(`${draft}Make it shorter.\r\nKeep the note.`), `${context}\n\nMake it shorter.\r\nKeep the note.`);
    assert.equal(promptFromDraft('<!-- a comment of my own -->\nText'), '<!-- a comment of my own -->\nText', "the person's own comment stays");
    assert.equal(promptFromDraft(header).trim(), '', 'a draft with only the header is blank');
  });

  it('the page path is relative to the nearest repository root, else the workspace folder', () => {
    const p = path.posix;
    const roots = new Set(['/w/site', '/w/site/vendor/sub']);
    assert.equal(repositoryPath('/w/site/docs/a.mdx', ['/w'], (d) => roots.has(d), p), 'docs/a.mdx');
    assert.equal(repositoryPath('/w/site/vendor/sub/x/b.md', ['/w'], (d) => roots.has(d), p), 'x/b.md');
    assert.equal(repositoryPath('/w/other/c.md', ['/w', '/w/other'], (d) => roots.has(d), p), 'c.md');
    assert.equal(repositoryPath('/elsewhere/d.md', ['/w'], () => false, p), 'd.md');
    assert.equal(repositoryPath('C:\\w\\site\\docs\\e.mdx', [], (d) => d === 'C:\\w\\site', path.win32), 'docs/e.mdx');
  });
});
