/**
 * The API fault matrix through the jobs service, as the views meet it: while the fault lasts,
 * what the service shows (its state, or the job's row), that every tracked job stays in the
 * registry with its last snapshot, that the key is kept, how polling behaves (paused, stopped,
 * backing off, or waiting out a 429 for the whole origin); once the fault is gone, that polling
 * recovers (by itself, or on Refresh) and every job reaches its true final state.
 */
import * as assert from 'node:assert/strict';
import { collector } from '../support/collector';
import { AGENT_ID, EXPORT_ID, FAULTS, keyOf, timeoutsFor, type FaultCase, type ServiceExpectation } from './cases';
import { MINUTE, SECOND, ServiceRig } from './rig';
import { startWorld, type World } from './world';
import type { JobKey } from '../../../src/core/jobs/trackedJob';
import { ForbiddenError } from '../../../src/core/api/apiErrors';

const AGENT: JobKey = `agent:${AGENT_ID}`;
const EXPORT: JobKey = `export:${EXPORT_ID}`;
/** How long the fault lasts: long enough for back-off to show, short of the jobs' end (10 min). */
const FAULT_MS = 4 * MINUTE;

function seed(w: World): void {
  w.sim.addAgentJob({ id: AGENT_ID, durationMs: 10 * MINUTE, outcome: 'pr' });
  w.sim.addExportJob({ jobId: EXPORT_ID, queuedMs: 10 * SECOND, durationMs: 10 * MINUTE, outcome: 'completed', pages: 42 });
}

describe('reliability: API faults through the jobs service (what the views show) @api-faults', function () {
  this.timeout(60_000);
  let w: World;
  let rig: ServiceRig;

  beforeEach(async () => {
    w = await startWorld();
    seed(w);
  });
  afterEach(async () => {
    await rig.dispose();
    await w.close();
  });

  function makeRig(c: FaultCase): ServiceRig {
    const target = c.target?.(w, 'service');
    rig = new ServiceRig(w.sim, {
      key: keyOf(c),
      ...(target === undefined ? {} : { baseUrl: target.baseUrl }),
      ...(target?.dispatcher === undefined ? {} : { dispatcher: target.dispatcher }),
      ...timeoutsFor(c, 100),
    });
    return rig;
  }

  /** Both jobs tracked and read once, then half a minute of normal polling. */
  async function trackBoth(): Promise<void> {
    await rig.track('agent', AGENT_ID);
    await rig.track('export', EXPORT_ID);
    await rig.advance(30 * SECOND);
    assert.equal(rig.service.get(AGENT)?.snapshot?.status, 'active');
    assert.equal(rig.service.get(EXPORT)?.snapshot?.status, 'running');
    assert.equal(rig.service.currentState.kind, 'ok');
  }

  /** The jobs are still tracked and stored, each with the snapshot it had before. */
  function assertKept(before: Map<JobKey, string | undefined>): void {
    assert.deepEqual(rig.service.list().map((j) => `${j.kind}:${j.id}`).sort(), [AGENT, EXPORT].sort(), 'no job lost');
    assert.deepEqual(rig.stored().map((j) => `${j.kind}:${j.id}`).sort(), [AGENT, EXPORT].sort(), 'none lost from storage');
    for (const [key, status] of before) assert.equal(rig.service.get(key)?.snapshot?.status, status, `${key} keeps its last status`);
  }

  /** What a person reads: the state's message, or the row's error. */
  function shown(expect: ServiceExpectation, faulted: JobKey): string {
    const state = rig.service.currentState;
    if (expect.shownOn === 'state') return 'message' in state ? state.message : '';
    if (expect.shownOn === 'row') return rig.service.errorOf(faulted) ?? '';
    return rig.log.lines.filter((l) => l.startsWith('[warn]')).join('\n');
  }

  async function recoverAndFinish(expect: ServiceExpectation): Promise<void> {
    if (expect.recovery === 'refresh') rig.service.refresh();
    const done = await rig.until(() => rig.service.activeCount === 0, 30 * MINUTE);
    assert.ok(done, `still polling ${rig.service.activeCount} job(s) after 30 min`);
    assert.equal(rig.service.currentState.kind, 'ok');
    for (const key of [AGENT, EXPORT]) assert.equal(rig.service.errorOf(key), undefined, `${key} still shows an error`);
    const agentTruth = w.sim.agentJob(AGENT_ID);
    const exportTruth = w.sim.exportJob(EXPORT_ID);
    const agent = rig.service.get(AGENT)?.snapshot;
    const exp = rig.service.get(EXPORT)?.snapshot;
    assert.equal(agent?.status, agentTruth?.status);
    assert.equal(agent !== undefined && 'prLink' in agent ? agent.prLink : undefined, agentTruth?.prLink);
    assert.equal(exp?.status, exportTruth?.status);
    assert.equal(exp !== undefined && 'pageCount' in exp ? exp.pageCount : undefined, exportTruth?.pageCount);
    assert.equal(rig.clock.pending, 0, 'no timer left once nothing is polled');
  }

  for (const c of FAULTS) {
    const expect = c.service;
    if (expect === undefined) continue;

    if (expect === 'startExport') {
      it(`${c.name}: Start Static Export fails with the reason, nothing half-tracked, polling goes on`, async () => {
        makeRig(c);
        await trackBoth();
        const error = await rig.inFlight.hold(rig.service.startExport('docs.acme.dev')).then(
          () => assert.fail('started'),
          (e: unknown) => e,
        );
        collector.recordError(`service: ${c.name}`, error);
        assert.ok(error instanceof ForbiddenError);
        assert.match(error.message, c.cause);
        assert.match(error.message, c.action);
        assert.equal(rig.service.list().length, 2, 'nothing added');
        assert.equal(rig.service.currentState.kind, 'ok');
        assert.equal(rig.keyStore.value, keyOf(c), 'the key is kept');
        await recoverAndFinish({ state: 'ok', shownOn: 'row', polling: 'backoff', recovery: 'auto' });
      });
      continue;
    }

    it(`${c.name}: ${expect.state}, shown on the ${expect.shownOn}, polling ${expect.polling}, recovers ${expect.recovery === 'auto' ? 'by itself' : 'on Refresh'}`, async () => {
      makeRig(c);
      await trackBoth();
      const route = expect.route ?? 'agent.get';
      const faulted: JobKey = route === 'export.status' ? EXPORT : AGENT;
      const other: JobKey = faulted === AGENT ? EXPORT : AGENT;
      const idOf = (key: JobKey) => key.slice(key.indexOf(':') + 1);
      const before = new Map<JobKey, string | undefined>([
        [AGENT, rig.service.get(AGENT)?.snapshot?.status],
        [EXPORT, rig.service.get(EXPORT)?.snapshot?.status],
      ]);
      const faultedAt = rig.clock.now();
      const startedWith = { faulted: rig.pollsOf(idOf(faulted)).length, other: rig.pollsOf(idOf(other)).length };

      await c.arrange(w, route);
      await rig.advance(FAULT_MS);

      // What a person sees.
      assert.equal(rig.service.currentState.kind, expect.state, `state: ${JSON.stringify(rig.service.currentState)}`);
      const text = shown(expect, faulted);
      collector.record(`service: ${c.name}`, text);
      assert.match(text, c.cause, `names the cause: ${text}`);
      assert.match(text, c.action, `says what to do: ${text}`);
      // What is kept.
      assertKept(before);
      assert.equal(rig.keyStore.value, keyOf(c), 'the key is kept');
      // How polling behaves meanwhile (counted in polls the service made, virtual times).
      const polls = (key: JobKey) => rig.polls.get(idOf(key))?.filter((t) => t > faultedAt) ?? [];
      const reached = (key: JobKey) => rig.pollsOf(idOf(key)).length - (key === faulted ? startedWith.faulted : startedWith.other);
      switch (expect.polling) {
        case 'paused':
          assert.ok(polls(faulted).length + polls(other).length <= 2, `polled ${polls(faulted).length + polls(other).length} times while the key is rejected`);
          assert.equal(rig.clock.pending, 0, 'no timer while paused');
          break;
        case 'stopped':
          assert.equal(polls(faulted).length, 1, 'asked once, then not again until Refresh');
          assert.ok(polls(other).length >= 2, 'the other job is polled as before');
          break;
        case 'backoff': {
          const times = polls(faulted);
          assert.ok(times.length >= 3, `polled ${times.length} times: it keeps trying, so it can recover`);
          assert.ok(times.length <= 12, `polled ${times.length} times in ${FAULT_MS / MINUTE} min: not backing off`);
          const gaps = times.slice(1).map((t, i) => t - (times[i] ?? 0));
          assert.ok(gaps.every((gap, i) => i === 0 || gap >= (gaps[i - 1] ?? 0)), `gaps grow: ${gaps.join(', ')}`);
          if (c.target === undefined && c.name !== 'connection refused') assert.ok(reached(faulted) >= times.length, 'the polls reached the server');
          break;
        }
        case 'origin': {
          const first429 = Math.min(...polls(faulted));
          const during = [...polls(faulted), ...polls(other)].filter((t) => t > first429 && t < first429 + 119 * SECOND);
          assert.deepEqual(during, [], 'no job of the origin is polled until the Retry-After has passed');
          assert.ok(polls(other).some((t) => t >= first429 + 119 * SECOND), 'polling resumes after it');
          assert.ok(rig.log.lines.some((l) => /\[warn\].*rate limiting/.test(l)), 'the log says why polling waits');
          break;
        }
      }

      await c.heal(w);
      await recoverAndFinish(expect);
      assert.ok(rig.transitions.some((t) => t.key === AGENT && t.to === 'completed'), 'the completion is reported (the notification)');
    });
  }

  it('429 with "Retry-After: 0" again and again: every job backs off, never a loop', async () => {
    rig = new ServiceRig(w.sim, { requestTimeoutMs: 100 });
    await trackBoth();
    const from = rig.clock.now();
    for (const route of ['agent.get', 'export.status'] as const) w.sim.injectFault({ route, kind: 'status', status: 429, headers: { 'retry-after': '0' }, times: null });
    await rig.advance(FAULT_MS);
    for (const id of [AGENT_ID, EXPORT_ID]) {
      const times = rig.polls.get(id)?.filter((t) => t > from) ?? [];
      assert.ok(times.length >= 3 && times.length <= 12, `${id} polled ${times.length} times in ${FAULT_MS / MINUTE} min`);
    }
    w.sim.clearFaults();
    await recoverAndFinish({ state: 'ok', shownOn: 'log', polling: 'origin', recovery: 'auto' });
  });
});
