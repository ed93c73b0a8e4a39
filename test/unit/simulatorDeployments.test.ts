/**
 * The simulator's deployment routes, read raw (no client): the answers the vendor's document
 * describes, statuses that move with the simulator's clock, logs that grow line by line, the
 * rate limits in simulated time, the plan toggle, and the demo's deployments.
 */
import * as assert from 'node:assert/strict';
import { seedDemo } from '../simulator/demo';
import { Simulator } from '../simulator';

describe('the simulator: deployments, previews and automations', () => {
  let sim: Simulator;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${sim.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${sim.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown>, retryAfter: res.headers.get('retry-after') };
  };

  beforeEach(async () => {
    // Time moves only when the test advances it (timeScale 1, and each step far longer than the test).
    sim = await Simulator.start({ timeScale: 1 });
  });
  afterEach(() => sim.stop());

  it('POST update answers 202 {statusId}; the status moves queued -> in_progress -> success, the logs growing a line at a time', async () => {
    const started = await call('POST', `/v1/project/update/${sim.projectId}`);
    assert.equal(started.status, 202);
    assert.deepEqual(Object.keys(started.body), ['statusId']);
    const id = String(started.body.statusId);
    const read = async () => (await call('GET', `/v1/project/update-status/${id}`)).body;
    const queued = await read();
    assert.equal(queued.status, 'queued');
    assert.deepEqual(queued.logs, []);
    assert.equal(queued.endedAt, undefined);
    const lines: number[] = [];
    sim.advance(3_000);
    for (let i = 0; i < 12; i++) {
      const now = await read();
      if (now.status !== 'in_progress') break;
      lines.push((now.logs as string[]).length);
      sim.advance(6_000);
    }
    assert.ok(lines.length >= 8, `read while running: ${lines.join(',')}`);
    assert.ok(lines.every((n, i) => i === 0 || n - (lines[i - 1] ?? 0) <= 1), `a line at a time: ${lines.join(',')}`);
    const done = await read();
    assert.equal(done.status, 'success');
    assert.equal((done.logs as string[]).length, 10);
    assert.ok(typeof done.endedAt === 'string');
    for (const field of ['_id', 'projectId', 'createdAt', 'summary', 'subdomain', 'screenshot', 'screenshotLight', 'screenshotDark', 'author', 'commit', 'source']) assert.ok(field in done, field);
    const commit = done.commit as { sha: string; ref: string; message: string; filesChanged: Record<string, string[]> };
    assert.match(commit.sha, /^[0-9a-f]{40}$/);
    assert.deepEqual(Object.keys(commit.filesChanged), ['added', 'modified', 'removed']);
  });

  it('a failing deployment stops at its failure line; a preview of the same branch again keeps its URL; 400, 403 and 404 as documented', async () => {
    sim.setDeploymentDefaults({ outcome: 'failure' });
    const id = String((await call('POST', `/v1/project/update/${sim.projectId}`)).body.statusId);
    sim.advance(100_000);
    const failed = (await call('GET', `/v1/project/update-status/${id}`)).body;
    assert.equal(failed.status, 'failure');
    assert.match((failed.logs as string[]).at(-2) ?? '', /^Error: guides\/install\.mdx/);
    const a = await call('POST', `/v1/project/preview/${sim.projectId}`, { branch: 'feature/x' });
    const b = await call('POST', `/v1/project/preview/${sim.projectId}`, { branch: 'feature/x' });
    assert.equal(a.status, 202);
    assert.deepEqual(Object.keys(a.body).sort(), ['previewUrl', 'statusId']);
    assert.equal(a.body.previewUrl, b.body.previewUrl);
    assert.notEqual(a.body.statusId, b.body.statusId);
    const page = await fetch(String(a.body.previewUrl));
    assert.match(await page.text(), /Preview of feature\/x/);
    assert.equal((await call('POST', `/v1/project/preview/${sim.projectId}`, {})).status, 400);
    assert.deepEqual((await call('POST', `/v1/project/preview/${sim.projectId}`, { branch: '' })).body, { error: 'The `branch` field is required.' });
    sim.setPreviewsEnabled(false);
    assert.deepEqual(await call('POST', `/v1/project/preview/${sim.projectId}`, { branch: 'x' }).then((r) => [r.status, r.body]), [403, { error: 'Preview deployments are not available on your current plan.' }]);
    assert.equal((await call('GET', '/v1/project/update-status/does-not-exist')).status, 404);
    const automation = sim.addAutomation({ customSchedule: false });
    assert.deepEqual((await call('POST', `/v1/workflow/${sim.projectId}/${automation}/trigger`)).body, { error: 'Only automations with a custom schedule can be triggered' });
    assert.equal((await call('POST', `/v1/workflow/${sim.projectId}/not-an-id/trigger`)).status, 400);
    assert.equal((await call('POST', `/v1/workflow/other_project/${automation}/trigger`)).status, 404);
    const ok = sim.addAutomation();
    const run = await call('POST', `/v1/workflow/${sim.projectId}/${ok}/trigger`);
    assert.equal(run.status, 202);
    assert.deepEqual(Object.keys(run.body), ['schemaId', 'instanceId', 'jobId']);
  });

  it('rate limits in simulated time: 10 triggers per 10 s shared with automations, 5 previews a minute, with Retry-After', async () => {
    for (let i = 0; i < 9; i++) assert.equal((await call('POST', `/v1/project/update/${sim.projectId}`)).status, 202);
    assert.equal((await call('POST', `/v1/workflow/${sim.projectId}/${sim.addAutomation()}/trigger`)).status, 202);
    const limited = await call('POST', `/v1/project/update/${sim.projectId}`);
    assert.equal(limited.status, 429);
    assert.equal(limited.retryAfter, '10');
    sim.advance(10_000);
    assert.equal((await call('POST', `/v1/project/update/${sim.projectId}`)).status, 202);
    for (let i = 0; i < 5; i++) assert.equal((await call('POST', `/v1/project/preview/${sim.projectId}`, { branch: `b${i}` })).status, 202);
    const preview = await call('POST', `/v1/project/preview/${sim.projectId}`, { branch: 'b5' });
    assert.equal(preview.status, 429);
    assert.equal(preview.retryAfter, '60');
    sim.advance(59_000);
    assert.equal((await call('POST', `/v1/project/preview/${sim.projectId}`, { branch: 'b5' })).status, 429);
    sim.advance(1_000);
    assert.equal((await call('POST', `/v1/project/preview/${sim.projectId}`, { branch: 'b5' })).status, 202);
  });

  it('the demo has one deployment of each status', () => {
    seedDemo(sim);
    assert.deepEqual(sim.deploymentList().map((d) => d.status).sort(), ['failure', 'in_progress', 'queued', 'success']);
  });

  it('the demo held (the UI check\'s) keeps its jobs as they start, a day of the clock later', () => {
    seedDemo(sim, { hold: true });
    sim.advance(86_400_000);
    assert.deepEqual(sim.deploymentList().map((d) => d.status).sort(), ['failure', 'in_progress', 'queued', 'success']);
    assert.deepEqual(['agent-rewrite-quickstart', 'agent-fix-broken-links'].map((id) => sim.agentJob(id)?.status), ['active', 'active']);
    assert.equal(sim.exportJob('exp-demo-running')?.status, 'queued');
  });
});
