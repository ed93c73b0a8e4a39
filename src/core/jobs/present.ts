/**
 * How a job reads in a list: pure mappings from a job to its label, description, icon,
 * colour and context value. The tree adapter turns these into TreeItems; the tests check
 * them without an editor.
 */
import type { AgentJob, ExportJob } from '../api/types';
import type { TrackedJob } from './registry';

export interface Presentation {
  label: string;
  description: string;
  /** A codicon id, `~spin` for motion. */
  icon: string;
  /** A theme colour id, or undefined for the default. */
  color: string | undefined;
  /** Exact tokens for when-clauses, e.g. `agentJob.completed.hasPr`. */
  contextValue: string;
  /** Every field, one `name: value` per line, for the tooltip. */
  details: string[];
}

const COLORS = {
  running: 'charts.blue',
  waiting: 'charts.yellow',
  done: 'testing.iconPassed',
  failed: 'testing.iconFailed',
  muted: 'disabledForeground',
} as const;

/** `owner/repo` from a repository URL; the URL itself when it has no such path. */
export function repositoryName(repository: string): string {
  try {
    const path = new URL(repository).pathname.replace(/\.git$/, '').replace(/^\/+|\/+$/g, '');
    return path === '' ? repository : path;
  } catch {
    return repository;
  }
}

/** `5s`, `3m`, `2h 5m`, `4d`: a compact duration. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 === 0 ? `${h}h` : `${h}h ${m % 60}m`;
  return `${Math.floor(h / 24)}d`;
}

/** `3m ago` from an ISO date; empty when the date cannot be read. */
export function formatAge(iso: string | undefined, now: number): string {
  const at = iso === undefined ? NaN : Date.parse(iso);
  return Number.isNaN(at) ? '' : `${formatDuration(now - at)} ago`;
}

export function presentAgentJob(job: AgentJob, now: number): Presentation {
  const ref = job.source.ref === null ? '' : ` @ ${job.source.ref}`;
  const label = `${repositoryName(job.source.repository)}${ref}`;
  const age = formatAge(job.createdAt, now);
  const details = [
    `Job: ${job.id}`,
    `Status: ${job.rawStatus}`,
    `Repository: ${job.source.repository}`,
    `Ref: ${job.source.ref ?? '(none)'}`,
    `Model: ${job.model}`,
    `Created: ${job.createdAt}`,
    `Archived: ${job.archivedAt ?? 'no'}`,
    `Pull request: ${job.prLink ?? 'none'}`,
  ];
  const base = { label, details };
  const withAge = (status: string) => (age === '' ? status : `${status} · ${age}`);
  switch (job.status) {
    case 'active':
      return { ...base, description: withAge('active'), icon: 'sync~spin', color: COLORS.running, contextValue: 'agentJob.active' };
    case 'completed':
      return job.prLink === null
        ? { ...base, description: withAge('completed, no changes'), icon: 'check', color: COLORS.done, contextValue: 'agentJob.completed.noPr' }
        : { ...base, description: withAge('pull request opened'), icon: 'git-pull-request', color: COLORS.done, contextValue: 'agentJob.completed.hasPr' };
    case 'failed':
      return { ...base, description: withAge('failed'), icon: 'error', color: COLORS.failed, contextValue: 'agentJob.failed' };
    case 'archived':
      return { ...base, description: withAge('archived'), icon: 'archive', color: COLORS.muted, contextValue: job.prLink === null ? 'agentJob.archived' : 'agentJob.archived.hasPr' };
    case 'unknown':
      return { ...base, description: withAge(`unknown status "${job.rawStatus}"`), icon: 'question', color: undefined, contextValue: 'agentJob.unknown' };
  }
}

export function presentExportJob(job: ExportJob, now: number): Presentation {
  const label = job.domain ?? job.jobId;
  const created = job.createdAt === undefined ? NaN : Date.parse(job.createdAt);
  const ended = job.updatedAt === undefined ? NaN : Date.parse(job.updatedAt);
  const terminal = job.status === 'completed' || job.status === 'failed';
  const elapsed = Number.isNaN(created) ? undefined : formatDuration((terminal && !Number.isNaN(ended) ? ended : now) - created);
  const pages = job.pageCount === undefined ? undefined : `${job.pageCount.toLocaleString('en-US')} ${job.pageCount === 1 ? 'page' : 'pages'}`;
  const details = [
    `Job: ${job.jobId}`,
    `Domain: ${job.domain ?? '(unknown)'}`,
    `Status: ${job.rawStatus}`,
    ...(job.progress === undefined ? [] : [`Progress: ${Math.round(job.progress)}%`]),
    ...(pages === undefined ? [] : [`Pages: ${pages}`]),
    ...(job.createdAt === undefined ? [] : [`Created: ${job.createdAt}`]),
    ...(job.updatedAt === undefined ? [] : [`Updated: ${job.updatedAt}`]),
    ...(job.error === undefined ? [] : [`Error: ${job.error}`]),
  ];
  const join = (...parts: (string | undefined)[]) => parts.filter((p) => p !== undefined && p !== '').join(' · ');
  const base = { label, details };
  switch (job.status) {
    case 'queued':
      return { ...base, description: join('queued', elapsed), icon: 'clock', color: COLORS.waiting, contextValue: 'exportJob.queued' };
    case 'running': {
      const percent = job.progress === undefined ? undefined : `${Math.round(job.progress)}%`;
      return { ...base, description: join('running', percent, pages, elapsed), icon: 'sync~spin', color: COLORS.running, contextValue: 'exportJob.running' };
    }
    case 'completed':
      return { ...base, description: join('completed', pages, elapsed), icon: 'package', color: COLORS.done, contextValue: 'exportJob.completed' };
    case 'failed':
      return { ...base, description: join('failed', job.error), icon: 'error', color: COLORS.failed, contextValue: 'exportJob.failed' };
    case 'unknown':
      return { ...base, description: join(`unknown status "${job.rawStatus}"`, elapsed), icon: 'question', color: undefined, contextValue: 'exportJob.unknown' };
  }
}

export function isAgentTerminal(job: Pick<AgentJob, 'status'>): boolean {
  return job.status === 'completed' || job.status === 'failed' || job.status === 'archived';
}

export function isExportTerminal(job: Pick<ExportJob, 'status'>): boolean {
  return job.status === 'completed' || job.status === 'failed';
}

/** Whether a tracked job has reached a status it never leaves (unknown statuses are not). */
export function isTerminal(job: TrackedJob): boolean {
  if (job.snapshot === undefined) return false;
  return job.kind === 'agent' ? isAgentTerminal(job.snapshot) : isExportTerminal(job.snapshot);
}
