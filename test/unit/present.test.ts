import * as assert from 'node:assert/strict';
import type { AgentJob, ExportJob } from '../../src/core/api/apiTypes';
import { presentAgentJob, presentExportJob, repositoryName } from '../../src/core/jobs/jobLabels';
import { formatDuration } from '../../src/core/formatUnits';

const now = Date.parse('2026-11-22T12:00:00Z');
const agent = (over: Partial<AgentJob>): AgentJob => ({
  id: 'job_1',
  status: 'active',
  rawStatus: 'active',
  source: { repository: 'https://github.com/acme/docs.git', ref: 'main' },
  model: 'model-x',
  prLink: null,
  createdAt: '2026-11-22T11:55:00Z',
  archivedAt: null,
  ...over,
});

describe('job presentation', () => {
  it('names an agent job by repository and ref', () => {
    const p = presentAgentJob(agent({}), now);
    assert.equal(p.label, 'acme/docs @ main');
    assert.equal(p.description, 'active · 5m ago');
    assert.equal(p.icon, 'sync~spin');
    assert.equal(p.contextValue, 'agentJob.active');
    assert.ok(p.details.includes('Model: model-x'));
  });

  it('gives every agent status its own icon and context value', () => {
    const cases: [Partial<AgentJob>, string, string][] = [
      [{ status: 'completed', rawStatus: 'completed', prLink: 'https://github.com/acme/docs/pull/3' }, 'git-pull-request', 'agentJob.completed.hasPr'],
      [{ status: 'completed', rawStatus: 'completed', prLink: null }, 'check', 'agentJob.completed.noPr'],
      [{ status: 'failed', rawStatus: 'failed' }, 'error', 'agentJob.failed'],
      [{ status: 'archived', rawStatus: 'archived', archivedAt: '2026-11-22T11:59:00Z' }, 'archive', 'agentJob.archived'],
      [{ status: 'unknown', rawStatus: 'paused' }, 'question', 'agentJob.unknown'],
    ];
    const icons = new Set<string>();
    for (const [over, icon, context] of cases) {
      const p = presentAgentJob(agent(over), now);
      assert.equal(p.icon, icon);
      assert.equal(p.contextValue, context);
      icons.add(p.icon);
    }
    assert.equal(icons.size, cases.length);
    assert.match(presentAgentJob(agent({ status: 'completed', rawStatus: 'completed' }), now).description, /no changes/);
    assert.match(presentAgentJob(agent({ status: 'unknown', rawStatus: 'paused' }), now).description, /paused/);
  });

  it('shows an export job\'s progress, pages, elapsed time and error', () => {
    const job: ExportJob = { jobId: 'exp_1', status: 'running', rawStatus: 'running', progress: 42.4, pageCount: 1234, domain: 'docs.acme.dev', createdAt: '2026-11-22T11:57:00Z' };
    const p = presentExportJob(job, now);
    assert.equal(p.label, 'docs.acme.dev');
    assert.equal(p.description, 'running · 42% · 1,234 pages · 3m');
    const failed = presentExportJob({ ...job, status: 'failed', rawStatus: 'failed', error: 'render timeout' }, now);
    assert.equal(failed.description, 'failed · render timeout');
    assert.equal(failed.contextValue, 'exportJob.failed');
  });

  it('formats durations and repository names', () => {
    assert.equal(formatDuration(5_000), '5s');
    assert.equal(formatDuration(3_600_000 + 5 * 60_000), '1h 5m');
    assert.equal(formatDuration(3 * 86_400_000), '3d');
    assert.equal(repositoryName('https://gitlab.com/group/sub/repo'), 'group/sub/repo');
    assert.equal(repositoryName('not a url'), 'not a url');
  });
});
