/**
 * The vendor's admin API 2.0.0 requires no field of an AgentJob. An answer with only some of
 * them (served by the simulator, over a socket) is read, tracked, stored, shown and told: a row
 * shows what is known, and `id` plus `status` are enough to follow a job.
 */
import * as assert from 'node:assert/strict';
import { summaryMarkdown } from '../../src/action/jobSummary';
import { describeAgent } from '../../src/cli/describe';
import { AdminApiClient } from '../../src/core/api/client';
import { InvalidResponseError } from '../../src/core/api/apiErrors';
import type { AgentJob } from '../../src/core/api/apiTypes';
import { AgentRequestMayHaveArrivedError, askAgent } from '../../src/core/agent/ask';
import { reviewTitle } from '../../src/core/agent/review';
import { noticeFor } from '../../src/core/jobs/notices';
import { presentAgentJob } from '../../src/core/jobs/jobLabels';
import { systemClock } from '../../src/core/jobs/clock';
import { JobRegistry } from '../../src/core/jobs/registry';
import { presentTracked } from '../../src/core/jobs/rows';
import { JobsService } from '../../src/core/jobs/service';
import { waitForAgentJob } from '../../src/core/jobs/wait';
import { Simulator } from '../simulator';
import { recordingLogger } from './support/logger';
import { MemoryStore } from './support/memoryStore';

const KEY = 'da_vendor_shapes_key_2c4d';
const NOW = Date.parse('2026-11-22T12:00:00Z');

describe('agent jobs in every shape the vendor documents allow (no field required)', () => {
  let sim: Simulator;
  let client: AdminApiClient;
  const log = recordingLogger('vendor-shapes');

  beforeEach(async () => {
    sim = await Simulator.start({ keys: [{ key: KEY }] });
    client = new AdminApiClient({ baseUrl: sim.baseUrl, projectId: sim.projectId, getKey: () => KEY, log, maxAttempts: 1, sleep: () => Promise.resolve() });
  });
  afterEach(async () => {
    await client.close();
    await sim.stop();
  });

  const answer = (route: 'agent.get' | 'agent.create' | 'agent.message', body: unknown, status = route === 'agent.create' ? 201 : 200, times = 1) =>
    sim.injectFault({ route, kind: 'status', status, body, times });

  it('reads an answer with only an id and a status, or nothing at all: the id asked about, and the status a create or follow-up gives', async () => {
    answer('agent.get', { id: 'job-min', status: 'completed' });
    assert.deepEqual(await client.getAgentJob('job-min'), { id: 'job-min', status: 'completed', rawStatus: 'completed', source: { ref: null }, prLink: null, archivedAt: null });
    answer('agent.get', {});
    assert.deepEqual(await client.getAgentJob('job-asked'), { id: 'job-asked', status: 'unknown', source: { ref: null }, prLink: null, archivedAt: null });
    answer('agent.create', { id: 'job-new' });
    assert.deepEqual(await client.createAgentJob('Fix it.'), { id: 'job-new', status: 'active', rawStatus: 'active', source: { ref: null }, prLink: null, archivedAt: null });
    answer('agent.message', { source: { ref: 'docs/fix' } });
    assert.deepEqual(await client.sendAgentMessage('job-new', 'And this.'), { id: 'job-new', status: 'active', rawStatus: 'active', source: { ref: 'docs/fix' }, prLink: null, archivedAt: null });
  });

  it('a create answered 201 keeps the new id even when another field has the wrong type (logged), and says so when there is no id', async () => {
    answer('agent.create', { id: 'job-odd', status: 'active', createdAt: 1_764_000_000 });
    const job = await askAgent(client, { kind: 'create' }, 'Fix it.');
    assert.equal(job.id, 'job-odd');
    assert.equal(job.status, 'active');
    assert.ok(log.lines.some((l) => /Agent job job-odd was created \(201\), but its answer could not be read whole: .*field "createdAt" is not a string/.test(l)), log.lines.join('\n'));
    answer('agent.create', {});
    const error = await askAgent(client, { kind: 'create' }, 'Fix it.').then(
      () => assert.fail('a create without an id cannot be followed'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof AgentRequestMayHaveArrivedError);
    assert.equal(error.taken, true);
    assert.ok(error.failure instanceof InvalidResponseError);
    assert.match(error.message, /^The agent took the prompt and created a job \(201\), but the answer does not say its id, so it cannot be followed from here\. Find the new job on the dashboard; sending the prompt again would make a second job\. The request was not sent again\. Check the project's agent jobs on the dashboard before you send this prompt again\.$/);
    assert.doesNotMatch(error.message, /may have been created/);
    assert.equal(sim.requests.filter((r) => r.route === 'agent.create').length, 2, 'never sent again');
  });

  it('is followed to its end by id and status alone (wait, the jobs service)', async () => {
    answer('agent.get', { id: 'job-w', status: 'active' });
    answer('agent.get', { status: 'completed', prLink: 'https://github.com/acme/docs/pull/9' });
    const done = await waitForAgentJob(client, 'job-w', { sleep: () => Promise.resolve() });
    assert.equal(done.status, 'completed');
    assert.equal(done.prLink, 'https://github.com/acme/docs/pull/9');

    const registry = new JobRegistry(new MemoryStore(), 'jobs', log);
    const service = new JobsService({ client, registry, clock: systemClock, isFocused: () => true, log, floorMs: 20, ceilingMs: 50 });
    const ended: string[] = [];
    service.onDidTransition((t) => ended.push(`${t.key} ${t.to}`));
    try {
      answer('agent.get', { id: 'job-s', status: 'active' });
      answer('agent.get', { status: 'failed' });
      await service.trackAgentJob('job-s');
      const until = Date.now() + 5_000;
      while (ended.length === 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.deepEqual(ended, ['agent:job-s failed']);
      assert.deepEqual(service.get('agent:job-s')?.snapshot, { id: 'job-s', status: 'failed', rawStatus: 'failed', source: { ref: null }, prLink: null, archivedAt: null });
      assert.equal(service.errorOf('agent:job-s'), undefined);
    } finally {
      service.dispose();
    }
  });

  it('is stored and read back without the fields the server left out (another window sees the same reading)', async () => {
    const store = new MemoryStore();
    const a = new JobRegistry(store, 'jobs', log);
    answer('agent.get', { id: 'job-p', status: 'completed' });
    const snapshot = await client.getAgentJob('job-p');
    await a.add({ kind: 'agent', id: 'job-p', addedAt: 1, snapshot });
    const b = new JobRegistry(store, 'jobs', log);
    assert.deepEqual(b.get('agent:job-p')?.snapshot, snapshot, 'read back whole, not "cannot be read"');
    assert.ok(!log.lines.some((l) => /cannot be read/.test(l)), log.lines.join('\n'));
  });
});

describe('a row, a notification, the CLI and the Action show what is known of an agent job', () => {
  const bare: AgentJob = { id: 'job_7', status: 'completed', rawStatus: 'completed', source: { ref: null }, prLink: 'https://github.com/acme/docs/pull/7', archivedAt: null };
  const noStatus: AgentJob = { id: 'job_8', status: 'unknown', source: { ref: 'docs/fix' }, prLink: null, archivedAt: null };

  it('a row: named by its id (and branch), its tooltip only the fields given', () => {
    const p = presentAgentJob(bare, NOW);
    assert.equal(p.label, 'job_7');
    assert.equal(p.description, 'pull request opened');
    assert.equal(p.contextValue, 'agentJob.completed.hasPr');
    assert.deepEqual(p.details, ['Job: job_7', 'Status: completed', 'Ref: (none)', 'Archived: no', 'Pull request: https://github.com/acme/docs/pull/7']);
    const q = presentTracked({ kind: 'agent', id: 'job_8', addedAt: 0, snapshot: noStatus }, undefined, NOW);
    assert.equal(q.label, 'job_8 @ docs/fix');
    assert.equal(q.description, 'status not given');
    assert.equal(q.icon, 'question');
    assert.deepEqual(q.details, ['Job: job_8', 'Status: status not given', 'Ref: docs/fix', 'Archived: no', 'Pull request: none']);
    assert.equal(reviewTitle(noStatus), 'Agent job job_8 @ docs/fix');
  });

  it('a notification names the job by its id', () => {
    const job = { kind: 'agent' as const, id: 'job_7', addedAt: 0, snapshot: bare };
    assert.equal(noticeFor({ key: 'agent:job_7', job, from: 'active', to: 'completed' }, 'all')?.message, 'Agent job job_7 opened a pull request.');
    const failed = { kind: 'agent' as const, id: 'job_9', addedAt: 0, snapshot: { ...bare, id: 'job_9', status: 'failed' as const, rawStatus: 'failed', prLink: null } };
    assert.equal(noticeFor({ key: 'agent:job_9', job: failed, from: 'active', to: 'failed' }, 'all')?.message, 'Agent job job_9 failed.');
  });

  it('the CLI table and the Action summary leave out what the server did not give', () => {
    assert.equal(describeAgent(bare), 'job_7  completed\n  pull request  https://github.com/acme/docs/pull/7');
    assert.equal(describeAgent(noStatus), 'job_8  status not given\n  branch        docs/fix');
    const summary = summaryMarkdown({ operation: 'agent', jobId: 'job_8', agent: noStatus });
    assert.match(summary, /- \*\*Status:\*\* status not given/);
    assert.match(summary, /- \*\*Branch:\*\* docs\/fix/);
    assert.doesNotMatch(summary, /Repository|undefined/);
  });
});
