/**
 * Soak: 200 tracked jobs (agent and export) followed for half an hour of virtual time by the
 * jobs service as the extension runs it, against the simulator over real HTTP, while a seeded
 * 10 % of the polls meet a random fault (5xx, 429 with Retry-After, resets, stalls, truncated
 * and malformed bodies) and the key is rejected for a minute (then Retry). At the end: no
 * unhandled rejection, no job lost, every job in its true final state (the simulator's),
 * no poll after a job was seen done, one notification per finished job, and no timer or
 * socket left once everything is disposed.
 */
import * as assert from 'node:assert/strict';
import { createHook } from 'node:async_hooks';
import { Simulator, seededRandom } from '../../simulator';
import { MINUTE, SECOND, ServiceRig } from './rig';
import { isTerminal, type JobKey } from '../../../src/core/jobs/trackedJob';

const SEED = 0x50a4;
const AGENTS = 120;
const EXPORTS = 80;
const FAULT_RATE = 0.1;
/** Every kind of fault the simulator draws from (each must happen). */
const FAULT_KINDS = 14;

interface Planned {
  kind: 'agent' | 'export';
  id: string;
  /** When it is created (and tracked), from the start. */
  at: number;
}

/** Timers and TCP handles that keep the process alive (what `getActiveResourcesInfo` lists). */
function liveResources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const name of process.getActiveResourcesInfo()) if (name === 'Timeout' || name.startsWith('TCP')) counts[name] = (counts[name] ?? 0) + 1;
  return counts;
}

/**
 * Every timer and TCP handle created while it runs, unref'd ones included, until destroyed
 * (but mocha's own test timer, and this file's waiting, which are not the soak's).
 */
function trackCreated(): { alive(): string[]; stop(): void } {
  const alive = new Map<number, string>();
  const hook = createHook({
    init(id, type) {
      if (type !== 'Timeout' && !type.startsWith('TCP')) return;
      const where = new Error().stack ?? '';
      if (/node_modules[\\/]mocha[\\/]|settleUntil/.test(where)) return;
      alive.set(id, `${type} ${where.split('\n').slice(5, 9).join(' <')}`);
    },
    destroy(id) {
      alive.delete(id);
    },
  }).enable();
  return { alive: () => [...alive.values()], stop: () => hook.disable() };
}

async function settleUntil(condition: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!condition() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('reliability: soak @soak', function () {
  this.timeout(240_000);

  it(`${AGENTS + EXPORTS} jobs, 30 min of virtual time, ${FAULT_RATE * 100} % random faults of ${FAULT_KINDS} kinds and a minute of rejected key: nothing lost, every job right, nothing left running`, async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    // Once mocha has armed this test's timer.
    await new Promise((resolve) => setImmediate(resolve));
    const baseline = liveResources();
    const created = trackCreated();
    const realStart = Date.now();

    let clientLeft: string[] | undefined;
    const sim = await Simulator.start();
    const rig = new ServiceRig(sim, { requestTimeoutMs: 150 });
    const start = rig.clock.now();
    const random = seededRandom(SEED);
    const between = (lo: number, hi: number) => Math.round(lo + random() * (hi - lo));
    const plan: Planned[] = [];
    for (let i = 0; i < AGENTS; i++) {
      const at = between(0, 8 * MINUTE);
      const roll = random();
      sim.addAgentJob({ id: `soak-agent-${i}`, createdAt: start + at, durationMs: between(1 * MINUTE, 20 * MINUTE), outcome: roll < 0.1 ? 'failed' : roll < 0.25 ? 'no-changes' : 'pr' });
      plan.push({ kind: 'agent', id: `soak-agent-${i}`, at });
    }
    for (let i = 0; i < EXPORTS; i++) {
      const at = between(0, 8 * MINUTE);
      sim.addExportJob({ jobId: `soak-export-${i}`, createdAt: start + at, queuedMs: between(5 * SECOND, 30 * SECOND), durationMs: between(2 * MINUTE, 20 * MINUTE), outcome: random() < 0.1 ? 'failed' : 'completed', pages: between(10, 5_000) });
      plan.push({ kind: 'export', id: `soak-export-${i}`, at });
    }
    sim.setRandomFaults({ rate: FAULT_RATE, seed: SEED });

    // When the service first held each job's final status, and the terminal transitions it reported.
    const doneAt = new Map<string, number>();
    rig.service.onDidChangeJobs((keys: JobKey[]) => {
      for (const key of keys) {
        const job = rig.service.get(key);
        if (job !== undefined && isTerminal(job) && !doneAt.has(job.id)) doneAt.set(job.id, rig.clock.now());
      }
    });
    // A person tracks each job when it is started; at 12 min the key is rejected for a minute, then Retry.
    for (const job of plan) rig.clock.setTimeout(() => void rig.inFlight.hold(job.kind === 'agent' ? rig.service.trackAgentJob(job.id) : rig.service.trackExportJob(job.id)), job.at);
    rig.clock.setTimeout(() => sim.injectFault({ route: '*', kind: 'status', status: 401, body: { error: 'Invalid or missing API key' }, times: null }), 12 * MINUTE);
    let pausedSeen = false;
    rig.clock.setTimeout(() => {
      pausedSeen = rig.service.currentState.kind === 'unauthorized';
      sim.clearFaults();
      rig.service.refresh();
    }, 13 * MINUTE);

    try {
      await rig.advance(30 * MINUTE);
      // Whatever is still running at 30 min is followed to its end (the last jobs end by ~28 min).
      const finished = await rig.until(() => rig.service.activeCount === 0, 10 * MINUTE);
      const virtualMs = rig.clock.now() - start;

      // Nothing lost: every job tracked, in memory and in storage.
      assert.equal(rig.service.list().length, plan.length, 'jobs in the registry');
      assert.equal(rig.stored().length, plan.length, 'jobs in storage');
      assert.ok(finished, `${rig.service.activeCount} job(s) still polled after ${Math.round(virtualMs / MINUTE)} min`);
      // Every job in its true final state.
      const wrong: string[] = [];
      for (const job of plan) {
        const truth = job.kind === 'agent' ? sim.agentJob(job.id) : sim.exportJob(job.id);
        const held = rig.service.get(`${job.kind}:${job.id}`)?.snapshot as Record<string, unknown> | undefined;
        const fields = job.kind === 'agent' ? ['status', 'prLink'] : ['status', 'pageCount', 'error'];
        for (const field of fields) if (held?.[field] !== truth?.[field]) wrong.push(`${job.id}.${field}: ${String(held?.[field])} (true: ${String(truth?.[field])})`);
        if (rig.service.errorOf(`${job.kind}:${job.id}`) !== undefined) wrong.push(`${job.id} still shows an error`);
      }
      assert.deepEqual(wrong, []);
      assert.equal(rig.service.currentState.kind, 'ok');
      assert.equal(rig.clock.pending, 0, 'no timer armed once nothing is polled');
      assert.ok(pausedSeen, 'the rejected key paused polling');
      // No poll after a job was seen done; one notification per job that finished while followed.
      const late = plan.filter((job) => (rig.polls.get(job.id) ?? []).some((t) => t > (doneAt.get(job.id) ?? Infinity)));
      assert.deepEqual(late.map((j) => j.id), [], 'polled after it was seen done');
      const ends = new Map<string, number>();
      for (const t of rig.transitions) if (isTerminal(t.job)) ends.set(t.job.id, (ends.get(t.job.id) ?? 0) + 1);
      assert.ok([...ends.values()].every((n) => n === 1), 'a job finished twice');
      assert.deepEqual(plan.filter((job) => !ends.has(job.id)).map((j) => j.id), [], 'every job notifies once when it ends');
      // The faults did happen, of every kind.
      const counts = sim.randomFaultCounts;
      const faults = Object.values(counts).reduce((a, b) => a + b, 0);
      const polls = sim.requests.filter((r) => r.route === 'agent.get' || r.route === 'export.status').length;
      assert.ok(faults > polls * 0.07 && faults < polls * 0.13, `${faults} faults in ${polls} requests`);
      assert.equal(Object.keys(counts).length, FAULT_KINDS, `every kind of fault: ${JSON.stringify(counts)}`);
      assert.ok(rig.log.lines.some((l) => l.includes('rate limiting')), 'a 429 made the whole origin wait');
      console.log(`      soak: ${plan.length} jobs, ${Math.round(virtualMs / MINUTE)} min virtual in ${((Date.now() - realStart) / 1000).toFixed(1)} s real; ${polls} requests, ${faults} random faults ${JSON.stringify(counts)}`);
    } finally {
      await rig.dispose();
      // Before the simulator goes (closing the client's sockets from its end): the client let go of all of them itself.
      const simulators = (r: string) => r.startsWith('TCPSERVERWRAP') || r.includes('setupConnectionsTracking');
      await settleUntil(() => created.alive().every(simulators), 2_000);
      clientLeft = created.alive().filter((r) => !simulators(r));
      await sim.stop();
    }

    // Nothing left running: back to the timers and sockets there were before.
    await settleUntil(() => JSON.stringify(liveResources()) === JSON.stringify(baseline) && created.alive().length === 0, 2_000);
    created.stop();
    process.off('unhandledRejection', onRejection);
    assert.deepEqual(clientLeft ?? [], [], 'timers or sockets the client kept once disposed');
    assert.deepEqual(liveResources(), baseline, 'timers or sockets left behind');
    assert.deepEqual(created.alive(), [], 'timers or sockets created during the soak and never closed (unref\'d included)');
    assert.deepEqual(rejections.map(String), [], 'unhandled rejections');
  });
});
