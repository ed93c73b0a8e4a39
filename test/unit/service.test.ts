import * as assert from 'node:assert/strict';
import { systemClock } from '../../src/core/jobs/clock';
import { JobRegistry } from '../../src/core/jobs/registry';
import { JobsService, type ServiceState, type Transition } from '../../src/core/jobs/service';
import { Simulator } from '../simulator';
import { recordingLogger } from './support/logger';
import { MemoryStore } from './support/memoryStore';
import { AdminApiClient } from '../../src/core/api/client';


async function waitFor(what: string, condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('JobsService against the simulator', () => {
  let sim: Simulator;
  let key: string | undefined;
  let store: MemoryStore;
  const disposables: { dispose(): void }[] = [];
  const clients: AdminApiClient[] = [];

  function service(demanded?: boolean): JobsService {
    const log = recordingLogger('service');
    const client = new AdminApiClient({ baseUrl: sim.baseUrl, projectId: sim.projectId, getKey: () => key, log, baseDelayMs: 1, maxDelayMs: 5 });
    clients.push(client);
    const s = new JobsService({
      client,
      registry: new JobRegistry(store, 'jobs.test', log),
      clock: systemClock,
      isFocused: () => true,
      log,
      floorMs: 20,
      ceilingMs: 50,
      ...(demanded === undefined ? {} : { demanded }),
    });
    disposables.push(s);
    return s;
  }

  beforeEach(async () => {
    // 1 real ms = 1 simulated s.
    sim = await Simulator.start({ timeScale: 1_000 });
    key = sim.key;
    store = new MemoryStore();
  });
  afterEach(async () => {
    for (const d of disposables.splice(0)) d.dispose();
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await sim.stop();
  });

  it('follows an agent job to completion, reports the transition, then stops asking', async () => {
    sim.addAgentJob({ id: 'j1', durationMs: 300_000 });
    const s = service();
    const transitions: Transition[] = [];
    s.onDidTransition((t) => transitions.push(t));
    await s.trackAgentJob('j1');
    await waitFor('the completion', () => transitions.length > 0);
    assert.deepEqual(transitions.map((t) => [t.key, t.from, t.to]), [['agent:j1', 'active', 'completed']]);
    const job = s.list()[0];
    assert.ok(job?.kind === 'agent' && job.snapshot?.prLink !== null);
    assert.equal(s.activeCount, 0);
    const count = sim.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(sim.requests.length, count, 'a terminal job is never polled again');
  });

  it('asks nothing, with a key and tracked jobs, until the jobs are demanded; then reads them at once', async () => {
    sim.addAgentJob({ id: 'long', durationMs: 100_000_000 });
    const first = service();
    await first.trackAgentJob('long');
    await waitFor('the first reading', () => first.get('agent:long')?.snapshot !== undefined);
    first.dispose();
    // A new window over the same storage (the editor starting again), nothing showing the jobs yet.
    const s = service(false);
    const before = sim.requests.length;
    s.keyChanged(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(sim.requests.length, before, 'no request before anything shows the jobs');
    assert.equal(s.currentState.kind, 'ok');
    s.setDemand(true);
    await waitFor('a reading once demanded', () => sim.requests.length > before);
    assert.ok(sim.requests.slice(before).every((r) => r.route === 'agent.get'));
  });

  it('shows an export someone else polls without polling it again, and takes over when released', async () => {
    const running = sim.addExportJob({ queuedMs: 0, durationMs: 100_000_000 }) as { jobId: string };
    const s = service();
    const client = clients[clients.length - 1]!;
    const changes: string[][] = [];
    s.onDidChangeJobs((keys) => changes.push(keys));
    const snapshot = await client.getExportJob(running.jobId);
    await s.observeExport(snapshot, 'docs.acme.dev');
    assert.equal(s.get(`export:${running.jobId}`)?.snapshot?.status, 'running');
    assert.ok(changes.some((keys) => keys.includes(`export:${running.jobId}`)), 'its row is shown');
    const polls = () => sim.requests.filter((r) => r.route === 'export.status').length;
    const before = polls();
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(polls(), before, 'the scheduler does not poll an observed export');
    s.releaseExport(running.jobId);
    await waitFor('the scheduler to poll it again', () => polls() > before);
  });

  describe('a job started or tracked here notifies when it ends, even before its first poll', () => {
    it('an export whose start reply was running, and that failed before the first poll', async () => {
      // The first poll is answered only once the export has failed on the server (50 ms here).
      sim.setExportDefaults({ queuedMs: 0, durationMs: 50_000, outcome: 'failed' });
      const s = service();
      const transitions: Transition[] = [];
      s.onDidTransition((t) => transitions.push(t));
      sim.injectFault({ route: 'export.status', kind: 'delay', ms: 200, times: 1 });
      const started = await s.startExport('docs.acme.dev');
      assert.equal(started.status, 'running', 'the reply is the first reading');
      await waitFor('the end', () => transitions.length > 0);
      assert.deepEqual(transitions.map((t) => [t.from, t.to]), [['running', 'failed']]);
      assert.equal(sim.requests.filter((r) => r.route === 'export.status').length, 1, 'one poll, and it said failed');
    });

    it('an agent job tracked while running that ended before the first poll', async () => {
      sim.addAgentJob({ id: 'quick', durationMs: 1_000 });
      await new Promise((resolve) => setTimeout(resolve, 20));
      const s = service();
      const transitions: Transition[] = [];
      s.onDidTransition((t) => transitions.push(t));
      await s.trackAgentJob('quick');
      await waitFor('the end', () => transitions.length > 0);
      assert.deepEqual(transitions.map((t) => [t.key, t.from, t.to]), [['agent:quick', undefined, 'completed']]);
    });

    it('but not an export tracked an hour after it ended (it says when it ended)', async () => {
      const old = sim.addExportJob({ queuedMs: 0, durationMs: 1_000, createdAt: sim.now() - 3_600_000 }) as { jobId: string };
      const s = service();
      const transitions: Transition[] = [];
      s.onDidTransition((t) => transitions.push(t));
      await s.trackExportJob(old.jobId);
      await waitFor('the reading', () => s.get(`export:${old.jobId}`)?.snapshot?.status === 'completed');
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.deepEqual(transitions, []);
    });
  });

  it('shows the server\'s 404 message on the job and stops polling it', async () => {
    const s = service();
    await s.trackAgentJob('nope');
    await waitFor('the error', () => s.errorOf('agent:nope') !== undefined);
    assert.match(s.errorOf('agent:nope') ?? '', /Agent job not found/);
    const count = sim.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(sim.requests.length, count);
    assert.equal(s.list().length, 1, 'the job stays tracked');
    assert.deepEqual(s.running(), [], 'nor is it under way any more (the status bar stops spinning for it)');
  });

  it('pauses on a rejected key and resumes when a good key is set', async () => {
    sim.addAgentJob({ id: 'j', durationMs: 10_000_000 });
    key = 'da_wrong_key_000';
    const s = service();
    const states: ServiceState[] = [];
    s.onDidChangeState((state) => states.push(state));
    await s.trackAgentJob('j');
    await waitFor('the rejection', () => s.currentState.kind === 'unauthorized');
    // Paused, no poll under way nor due: no request can come until the key changes.
    assert.equal(s.isIdle, true, 'no polling while the key is rejected');
    key = sim.key;
    s.keyChanged(true);
    await waitFor('a snapshot', () => s.list()[0]?.snapshot !== undefined);
    assert.equal(s.currentState.kind, 'ok');
    assert.deepEqual(states.map((x) => x.kind), ['unauthorized', 'ok']);
  });

  it('starts an export, tracks its progress to completion', async () => {
    sim.setExportDefaults({ queuedMs: 20_000, durationMs: 200_000, pages: 80 });
    const s = service();
    const progress: number[] = [];
    s.onDidChangeJobs(() => {
      const snapshot = s.list()[0]?.snapshot;
      if (snapshot !== undefined && 'progress' in snapshot && snapshot.progress !== undefined) progress.push(snapshot.progress);
    });
    const started = await s.startExport('docs.acme.dev');
    assert.equal(started.status, 'queued');
    await waitFor('completion', () => s.list()[0]?.snapshot?.status === 'completed');
    assert.ok(progress.some((p) => p > 0 && p < 100), `saw progress ${progress.join(', ')}`);
    assert.equal(s.activeCount, 0);
  });

  it('a reload (a new service on the same storage) keeps every job and resumes the unfinished', async () => {
    sim.addAgentJob({ id: 'long', durationMs: 10_000_000 });
    sim.addAgentJob({ id: 'done', durationMs: 1 });
    const first = service();
    await first.trackAgentJob('long');
    await first.trackAgentJob('done');
    await waitFor('both read', () => first.list().every((j) => j.snapshot !== undefined));
    first.dispose();
    sim.clearRequests();
    const second = service();
    assert.deepEqual(second.list().map((j) => j.id).sort(), ['done', 'long']);
    assert.equal(second.activeCount, 1);
    await waitFor('a poll', () => sim.requests.length > 0);
    assert.ok(sim.requests.every((r) => r.path.endsWith('/long')), 'only the unfinished job is polled');
  });

  it('every reading of a job still running tells its row, changed or not: the row\'s elapsed time moves (issue 35: "5m 2s" for over 100 s)', async () => {
    // Queued for a long simulated while: each reading is the same as the one before.
    const queued = String(sim.addDeployment({ kind: 'production', queuedMs: 10_000_000, durationMs: 60_000 })._id);
    const s = service();
    const told: number[] = [];
    s.onDidChangeJobs((keys) => {
      if (keys.includes(`deployment:${queued}`)) told.push(Date.now());
    });
    await s.trackDeployment(queued, { kind: 'production' });
    const reads = () => sim.requests.filter((r) => r.route === 'deploy.status').length;
    await waitFor('five readings', () => reads() >= 5);
    assert.equal(s.get(`deployment:${queued}`)?.snapshot?.status, 'queued');
    assert.ok(told.length >= 4, `the row was told ${told.length} times in ${reads()} readings`);
  });
});
