import * as assert from 'node:assert/strict';
import { waitForAgentJob, waitForExportJob, WaitTimeoutError } from '../../src/core/jobs/wait';
import { Simulator } from '../simulator';
import { recordingLogger } from './support/logger';
import { AdminApiClient } from '../../src/core/api/client';
import { NotFoundError } from '../../src/core/api/apiErrors';

describe('waiting for one job', () => {
  let sim: Simulator;
  let client: AdminApiClient;

  beforeEach(async () => {
    sim = await Simulator.start({ timeScale: 1_000 });
    client = new AdminApiClient({ baseUrl: sim.baseUrl, projectId: sim.projectId, getKey: () => sim.key, log: recordingLogger('wait'), baseDelayMs: 1, maxDelayMs: 1 });
  });

  afterEach(async () => {
    await client.close();
    await sim.stop();
  });

  it('follows an export to completion, reporting each reading', async () => {
    const { jobId } = sim.addExportJob({ queuedMs: 5_000, durationMs: 120_000 }) as { jobId: string };
    const seen: string[] = [];
    const job = await waitForExportJob(client, jobId, { floorMs: 10, ceilingMs: 50, onUpdate: (j) => seen.push(j.status) });
    assert.equal(job.status, 'completed');
    assert.equal(seen.at(-1), 'completed');
    assert.ok(seen.includes('running'), seen.join(','));
  });

  it('follows an agent job to its end', async () => {
    sim.addAgentJob({ id: 'agent-w', durationMs: 30_000, outcome: 'failed' });
    assert.equal((await waitForAgentJob(client, 'agent-w', { floorMs: 10, ceilingMs: 50 })).status, 'failed');
  });

  it('gives up at the timeout with the last status it saw', async () => {
    const { jobId } = sim.addExportJob({ queuedMs: 0, durationMs: 100_000_000 }) as { jobId: string };
    const started = Date.now();
    await assert.rejects(waitForExportJob(client, jobId, { timeoutMs: 300, floorMs: 20, ceilingMs: 50 }), (error: unknown) => error instanceof WaitTimeoutError && /last status: running/.test(error.message));
    assert.ok(Date.now() - started < 2_000);
  });

  it('stops at once on a 404, and rides out a few server errors', async () => {
    await assert.rejects(waitForExportJob(client, 'nope', { floorMs: 10 }), NotFoundError);
    assert.equal(sim.requests.filter((r) => r.route === 'export.status').length, 1, 'a 404 is not asked again');
    const { jobId } = sim.addExportJob({ queuedMs: 0, durationMs: 10_000 }) as { jobId: string };
    sim.injectFault({ route: 'export.status', kind: 'status', status: 503, times: 6 });
    assert.equal((await waitForExportJob(client, jobId, { floorMs: 10, ceilingMs: 20 })).status, 'completed');
  });
});
