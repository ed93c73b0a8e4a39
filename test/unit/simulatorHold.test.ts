import * as assert from 'node:assert/strict';
import { request } from 'undici';
import { Simulator } from '../simulator';
import { JobStore } from '../simulator/jobs';

/**
 * A job a test holds stands where it is, whatever the time scale and the clock do, until the
 * test releases it (test/simulator/jobTime.ts): host tests that must see a job running hold it
 * rather than giving it a duration long enough for a slow machine.
 */
describe('API simulator: jobs held running until released', () => {
  let sim: Simulator;
  beforeEach(async () => {
    sim = await Simulator.start({ timeScale: 1_000 });
  });
  afterEach(() => sim.stop());

  const get = async (path: string): Promise<Record<string, unknown>> => {
    const res = await request(`${sim.baseUrl}${path}`, { headers: { authorization: `Bearer ${sim.key}` } });
    return (await res.body.json()) as Record<string, unknown>;
  };
  const post = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const res = await request(`${sim.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${sim.key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return (await res.body.json()) as Record<string, unknown>;
  };

  it('a job held at its creation is held at its start, however slow the clock reads (a clock that moves 1 ms a read, x1,000)', () => {
    // On a busy machine the clock moved between the creation time and the hold: at a time scale of
    // 1,000 one millisecond is the whole second a test job runs, so it was "held" already over
    // (seen: "pull request opened · 1s ago" where the Ask Agent test expected active at once).
    let t = 1_000_000;
    const store = new JobStore(() => t++, 1_000, 'p');
    const agent = store.addAgent({ durationMs: 1_000, held: true });
    assert.equal(store.agentJson(agent).status, 'active');
    const exported = store.addExport({ held: true, queuedMs: 0, durationMs: 1_000 }, { queuedMs: 0, durationMs: 1_000, outcome: 'completed', pages: 10 });
    assert.equal(exported.time.elapsed(), 0);
  });

  it('an agent job held stays active through a day of the clock; released after its duration, it ends at once with its pull request', async () => {
    sim.addAgentJob({ id: 'held', durationMs: 1_000, held: true });
    sim.advance(86_400_000);
    const during = await get(`/v2/agent/${sim.projectId}/job/held`);
    assert.equal(during.status, 'active');
    assert.equal(during.prLink, null);
    sim.release('held');
    const after = await get(`/v2/agent/${sim.projectId}/job/held`);
    assert.equal(after.status, 'completed');
    assert.match(String(after.prLink), /\/pull\/\d+$/);
  });

  it('agentDefaults.held holds every run the API starts, a follow-up too, and the pull request stays', async () => {
    sim.setAgentDefaults({ held: true, durationMs: 1 });
    const created = await post(`/v2/agent/${sim.projectId}/job`, { prompt: 'Fix the links' });
    const id = String(created.id);
    sim.advance(3_600_000);
    assert.equal((await get(`/v2/agent/${sim.projectId}/job/${id}`)).status, 'active');
    sim.release(id);
    // Held at its start, it goes on from there: its 1 simulated ms is over after 1 real ms.
    sim.advance(1);
    assert.equal((await get(`/v2/agent/${sim.projectId}/job/${id}`)).status, 'completed');
    const followUp = await post(`/v2/agent/${sim.projectId}/job/${id}/message`, { prompt: 'And the title' });
    assert.equal(followUp.status, 'active');
    assert.match(String(followUp.prLink), /\/pull\/\d+$/, 'the pull request stays through the follow-up');
    sim.advance(3_600_000);
    assert.equal((await get(`/v2/agent/${sim.projectId}/job/${id}`)).status, 'active', 'the follow-up is held too');
    sim.release(id);
    sim.advance(1);
    assert.equal((await get(`/v2/agent/${sim.projectId}/job/${id}`)).status, 'completed');
  });

  it('an export held stands at its progress; a step moves it on, still running; released, it goes on from there', async () => {
    sim.addExportJob({ jobId: 'exp-held', queuedMs: 0, durationMs: 100_000, pages: 200, held: true });
    sim.advance(60_000);
    assert.deepEqual([(await get('/v1/static-export/jobs/exp-held')).status, (await get('/v1/static-export/jobs/exp-held')).progress], ['running', 0]);
    sim.stepJob('exp-held', 40_000);
    const stepped = await get('/v1/static-export/jobs/exp-held');
    assert.deepEqual([stepped.status, stepped.progress, stepped.pageCount], ['running', 40, 80]);
    sim.release('exp-held');
    // 60 simulated seconds were left: 60 real ms at this time scale.
    sim.advance(60);
    const done = await get('/v1/static-export/jobs/exp-held');
    assert.deepEqual([done.status, done.pageCount], ['completed', 200]);
  });

  it('exportDefaults.held holds an export the API starts where it starts: queued while it has a queue time', async () => {
    sim.setExportDefaults({ held: true, queuedMs: 5_000, durationMs: 1_000 });
    const started = await post('/v1/static-export/jobs', { domain: 'docs.acme.dev' });
    sim.advance(600_000);
    assert.equal((await get(`/v1/static-export/jobs/${String(started.jobId)}`)).status, 'queued');
    sim.stepJob(String(started.jobId), 5_000);
    assert.equal((await get(`/v1/static-export/jobs/${String(started.jobId)}`)).status, 'running');
  });

  it('a deployment held keeps its first log line; steps add lines, never the last; released, it ends', () => {
    const id = String(sim.addDeployment({ queuedMs: 0, durationMs: 100_000, held: true })._id);
    sim.advance(600_000);
    const first = sim.deployment(id);
    assert.deepEqual([first?.status, (first?.logs as string[]).length], ['in_progress', 1]);
    sim.stepJob(id, 50_000);
    const half = sim.deployment(id);
    assert.equal(half?.status, 'in_progress');
    assert.ok((half?.logs as string[]).length > 1 && !(half?.logs as string[]).includes('Deployment complete'), JSON.stringify(half?.logs));
    sim.hold(id);
    sim.release(id);
    sim.advance(50);
    assert.equal(sim.deployment(id)?.status, 'success');
    assert.ok(Date.parse(String(sim.deployment(id)?.endedAt)) <= sim.now(), 'it ended no later than now');
  });

  it('deploymentDefaults.held holds what the API starts; releaseAll lets every held job go; the control interface holds and releases', async () => {
    sim.setDeploymentDefaults({ held: true, queuedMs: 0, durationMs: 1 });
    const res = await request(`${sim.baseUrl}/v1/project/update/${sim.projectId}`, { method: 'POST', headers: { authorization: `Bearer ${sim.key}` } });
    const { statusId } = (await res.body.json()) as { statusId: string };
    sim.addAgentJob({ id: 'a', durationMs: 1, held: true });
    sim.advance(60_000);
    assert.equal(sim.deployment(statusId)?.status, 'in_progress');
    sim.releaseAll();
    sim.advance(1);
    assert.equal(sim.deployment(statusId)?.status, 'success');
    assert.equal(sim.agentJob('a')?.status, 'completed');
    sim.addAgentJob({ id: 'b', durationMs: 1_000_000 });
    assert.equal((await request(`${sim.baseUrl}/_sim/jobs/b/hold`, { method: 'POST' })).statusCode, 204);
    sim.advance(60_000);
    assert.equal(sim.agentJob('b')?.status, 'active');
    assert.equal((await request(`${sim.baseUrl}/_sim/jobs/b/release`, { method: 'POST' })).statusCode, 204);
    sim.advance(1_000);
    assert.equal(sim.agentJob('b')?.status, 'completed');
    assert.equal((await request(`${sim.baseUrl}/_sim/jobs/nope/hold`, { method: 'POST' })).statusCode, 400);
  });

  it('a gate fault holds an answer until the test opens the gate, and lets later ones pass', async () => {
    sim.injectFault({ route: 'agent.create', kind: 'gate', name: 'create', times: 2 });
    let answered = false;
    const first = post(`/v2/agent/${sim.projectId}/job`, { prompt: 'One' }).then((job) => {
      answered = true;
      return job;
    });
    // The request arrived and is held: its answer waits for the gate.
    while (!sim.requests.some((r) => r.route === 'agent.create')) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(sim.requests.filter((r) => r.route === 'agent.create').length, 1);
    assert.equal(answered, false);
    sim.openGate('create');
    assert.equal((await first).status, 'active');
    assert.equal((await post(`/v2/agent/${sim.projectId}/job`, { prompt: 'Two' })).status, 'active', 'an open gate holds nothing');
  });
});
