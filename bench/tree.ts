/**
 * Tree scale: 1,000 tracked jobs. The time to produce every row (order and presentation, what
 * getChildren/getTreeItem compute), and how many rows one job's update refreshes (the keys the
 * registry reports changed, which the views turn into row refreshes).
 */
import { performance } from 'node:perf_hooks';
import type { AgentJob, ExportJob } from '../src/core/api/apiTypes';
import { silentLogger } from '../src/core/log';
import { compareJobs, presentTracked } from '../src/core/jobs/rows';
import { JobRegistry } from '../src/core/jobs/registry';
import { MemoryStore } from '../test/unit/support/memoryStore';
import { median, type Bench } from './types';
import { jobKey, type JobKey, type TrackedJob } from '../src/core/jobs/trackedJob';

function jobs(count: number, now: number): TrackedJob[] {
  const list: TrackedJob[] = [];
  const agentStatuses = ['active', 'completed', 'failed', 'archived'] as const;
  const exportStatuses = ['queued', 'running', 'completed', 'failed'] as const;
  for (let i = 0; i < count; i++) {
    const createdAt = new Date(now - i * 61_000).toISOString();
    if (i % 3 === 0) {
      const status = exportStatuses[i % 4] ?? 'running';
      const snapshot: ExportJob = { jobId: `exp_${i}`, status, rawStatus: status, progress: (i * 7) % 100, pageCount: i * 3, domain: `docs${i % 10}.example.com`, createdAt };
      list.push({ kind: 'export', id: `exp_${i}`, addedAt: now - i, domain: snapshot.domain ?? '', snapshot });
    } else {
      const status = agentStatuses[i % 4] ?? 'active';
      const snapshot: AgentJob = { id: `job_${i}`, status, rawStatus: status, source: { repository: `https://github.com/acme/docs-${i % 17}`, ref: `agent/task-${i}` }, model: 'docs-agent-1', prLink: status === 'completed' ? `https://github.com/acme/docs/pull/${i}` : null, createdAt, archivedAt: null };
      list.push({ kind: 'agent', id: `job_${i}`, addedAt: now - i, snapshot });
    }
  }
  return list;
}

export const tree: Bench = async (options) => {
  const count = options.quick ? 100 : 1_000;
  const now = Date.now();
  const all = jobs(count, now);
  const times: number[] = [];
  for (let run = 0; run < (options.quick ? 3 : 30); run++) {
    const t0 = performance.now();
    for (const kind of ['agent', 'export'] as const) {
      const rows = all.filter((j) => j.kind === kind).sort(compareJobs);
      for (const job of rows) presentTracked(job, undefined, now);
    }
    times.push(performance.now() - t0);
  }
  const store = new MemoryStore();
  const registry = new JobRegistry(store, 'bench.jobs', silentLogger);
  for (const job of all) await registry.add(job);
  const changes: JobKey[][] = [];
  registry.onDidChange((keys) => changes.push(keys));
  const target = all.find((j) => j.kind === 'export' && j.snapshot?.status === 'running');
  if (target?.kind !== 'export' || target.snapshot === undefined) throw new Error('no running export in the set');
  await registry.updateSnapshot(jobKey(target), { ...target.snapshot, progress: (target.snapshot.progress ?? 0) + 1 });
  const refreshed = changes.reduce((n, keys) => n + keys.length, 0);
  const ms = median(times);
  return {
    name: 'tree scale',
    measures: [
      { metric: `every row of ${count} jobs (median of ${times.length})`, unit: 'ms', ours: ms, goal: '<= 20 ms', pass: ms <= 20 },
      { metric: 'rows refreshed by one job\'s update', unit: 'rows', ours: refreshed, goal: '1', pass: refreshed === 1 },
    ],
    notes: [`${count} jobs (two thirds agent, one third export, every status); rows are sorted and presented as the views do. The integration suite checks in the real host that one change refreshes one row.`],
  };
};
