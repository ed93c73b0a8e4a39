import * as assert from 'node:assert/strict';
import type { AgentJob, ExportJob } from '../../src/core/api/apiTypes';
import { noticeFor } from '../../src/core/jobs/notices';
import { compareJobs, presentTracked } from '../../src/core/jobs/rows';
import { statusText } from '../../src/core/jobs/statusBarText';
import type { TrackedJob } from '../../src/core/jobs/trackedJob';

const agent = (id: string, over: Partial<AgentJob> = {}): TrackedJob => ({
  kind: 'agent',
  id,
  addedAt: 0,
  snapshot: { id, status: 'active', rawStatus: 'active', source: { repository: 'https://github.com/acme/docs', ref: 'main' }, model: 'm', prLink: null, createdAt: '2026-11-22T10:00:00Z', archivedAt: null, ...over },
});
const exp = (id: string, over: Partial<ExportJob> = {}): TrackedJob => ({
  kind: 'export',
  id,
  addedAt: 0,
  domain: 'docs.acme.dev',
  snapshot: { jobId: id, status: 'running', rawStatus: 'running', progress: 42, pageCount: 10, createdAt: '2026-11-22T10:00:00Z', ...over },
});

describe('status bar summary', () => {
  it('says what runs: one export with its percent, agent jobs counted', () => {
    assert.equal(statusText([exp('e'), agent('a')])?.text, 'Export 42% · 1 agent job');
    assert.equal(statusText([exp('e'), exp('f'), agent('a'), agent('b')])?.text, '2 exports · 2 agent jobs');
    assert.deepEqual(statusText([exp('e')])?.lines, ['Export docs.acme.dev: running 42%']);
  });

  it('is undefined when nothing runs', () => {
    assert.equal(statusText([agent('a', { status: 'completed', rawStatus: 'completed' }), exp('e', { status: 'failed', rawStatus: 'failed' })]), undefined);
    assert.equal(statusText([]), undefined);
  });
});

describe('rows', () => {
  it('puts running jobs first, then the newest', () => {
    const done = agent('done', { status: 'completed', rawStatus: 'completed', createdAt: '2026-11-22T12:00:00Z' });
    const old = agent('old', { createdAt: '2026-11-20T12:00:00Z' });
    const recent = agent('recent', { createdAt: '2026-11-22T11:00:00Z' });
    assert.deepEqual([done, old, recent].sort(compareJobs).map((j) => j.id), ['recent', 'old', 'done']);
  });

  it('shows a job not read yet as loading, and a job with an error as a warning', () => {
    const loading = presentTracked({ kind: 'agent', id: 'j', addedAt: 0 }, undefined, 0);
    assert.deepEqual([loading.label, loading.description, loading.icon], ['j', 'loading…', 'loading~spin']);
    const failed = presentTracked({ kind: 'agent', id: 'j', addedAt: 0 }, 'Agent job "j" was not found (404: Agent job not found). Check the id.', 0);
    assert.equal(failed.icon, 'warning');
    assert.equal(failed.description, 'Agent job "j" was not found (404: Agent job not found)');
    assert.ok(failed.details.some((d) => d.includes('Check the id')));
  });

  it('adds the bundle link\'s expiry to a completed export', () => {
    const row = presentTracked(exp('e', { status: 'completed', rawStatus: 'completed', progress: 100 }), undefined, Date.parse('2026-11-22T10:05:00Z'), 'link expires in 59m');
    assert.match(row.description, /^completed · 10 pages · 5m · link expires in 59m$/);
  });
});

describe('notifications', () => {
  const t = (job: TrackedJob, to: string) => ({ key: `${job.kind}:${job.id}` as const, job, from: 'active', to });

  it('offers Open Pull Request when the agent opened one, none when there were no changes', () => {
    const pr = agent('a', { status: 'completed', rawStatus: 'completed', prLink: 'https://github.com/acme/docs/pull/1' });
    assert.deepEqual(noticeFor(t(pr, 'completed'), 'all'), { severity: 'info', message: 'Agent job on acme/docs @ main opened a pull request.', actions: [{ title: 'Open Pull Request', command: 'docsAdmin.agentJob.openPullRequest' }] });
    const none = agent('b', { status: 'completed', rawStatus: 'completed' });
    assert.equal(noticeFor(t(none, 'completed'), 'all')?.message, 'Agent job on acme/docs @ main completed with no changes.');
  });

  it('offers Retry and Show Logs for a failed export, with its error', () => {
    const failed = exp('e', { status: 'failed', rawStatus: 'failed', error: 'render timeout' });
    const notice = noticeFor(t(failed, 'failed'), 'failures');
    assert.equal(notice?.severity, 'error');
    assert.equal(notice?.message, 'Static export of docs.acme.dev failed: render timeout');
    assert.deepEqual(notice?.actions.map((a) => a.title), ['Retry', 'Show Logs']);
  });

  it('follows the setting: failures only, or none', () => {
    const done = exp('e', { status: 'completed', rawStatus: 'completed' });
    assert.ok(noticeFor(t(done, 'completed'), 'all'));
    assert.equal(noticeFor(t(done, 'completed'), 'failures'), undefined);
    assert.equal(noticeFor(t(exp('f', { status: 'failed', rawStatus: 'failed' }), 'failed'), 'none'), undefined);
    assert.equal(noticeFor(t(exp('r'), 'running'), 'all'), undefined, 'no notice before a terminal status');
  });
});
