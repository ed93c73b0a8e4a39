/**
 * How a job reads in a list: pure mappings from a job to its label, description, icon,
 * colour and context value. The tree adapter turns these into TreeItems; the tests check
 * them without an editor.
 */
import * as l10n from '@vscode/l10n';
import type { AgentJob, ExportJob } from '../api/apiTypes';
import { formatDuration } from '../formatUnits';

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

/** `3m ago` from an ISO date; empty when the date cannot be read. */
export function formatAge(iso: string | undefined, now: number): string {
  const at = iso === undefined ? NaN : Date.parse(iso);
  return Number.isNaN(at) ? '' : l10n.t({ message: '{0} ago', args: [formatDuration(now - at)], comment: ['How long ago a job was created; {0} is a short duration such as 3m.'] });
}

/** The server's word for an agent job's status, or that it gave none. */
export function agentStatusText(job: Pick<AgentJob, 'rawStatus'>): string {
  return job.rawStatus ?? l10n.t({ message: 'status not given', comment: ['An agent job whose answer from the server had no status.'] });
}

/**
 * What an agent job is, as far as the server said: `owner/repo @ branch`, `owner/repo`, or the
 * job's id (with the branch when known) when the answer named no repository.
 */
export function agentJobName(job: Pick<AgentJob, 'id' | 'source'>): string {
  const ref = job.source.ref === null ? '' : ` @ ${job.source.ref}`;
  return `${job.source.repository === undefined ? job.id : repositoryName(job.source.repository)}${ref}`;
}

export function presentAgentJob(job: AgentJob, now: number): Presentation {
  const label = agentJobName(job);
  const age = formatAge(job.createdAt, now);
  // A row shows what is known: a field the server did not give has no line.
  const details = [
    l10n.t('Job: {0}', job.id),
    l10n.t('Status: {0}', agentStatusText(job)),
    ...(job.source.repository === undefined ? [] : [l10n.t('Repository: {0}', job.source.repository)]),
    l10n.t('Ref: {0}', job.source.ref ?? l10n.t('(none)')),
    ...(job.model === undefined ? [] : [l10n.t('Model: {0}', job.model)]),
    ...(job.createdAt === undefined ? [] : [l10n.t('Created: {0}', job.createdAt)]),
    job.archivedAt === null ? l10n.t('Archived: no') : l10n.t('Archived: {0}', job.archivedAt),
    job.prLink === null ? l10n.t('Pull request: none') : l10n.t('Pull request: {0}', job.prLink),
  ];
  const base = { label, details };
  const withAge = (status: string) => (age === '' ? status : `${status} · ${age}`);
  switch (job.status) {
    case 'active':
      return { ...base, description: withAge(l10n.t({ message: 'active', comment: ['The status of a job, as its row in a list shows it.'] })), icon: 'sync~spin', color: COLORS.running, contextValue: 'agentJob.active' };
    case 'completed':
      return job.prLink === null
        ? { ...base, description: withAge(l10n.t({ message: 'completed, no changes', comment: ['The status of a job, as its row in a list shows it.'] })), icon: 'check', color: COLORS.done, contextValue: 'agentJob.completed.noPr' }
        : { ...base, description: withAge(l10n.t({ message: 'pull request opened', comment: ['The status of a job, as its row in a list shows it.'] })), icon: 'git-pull-request', color: COLORS.done, contextValue: 'agentJob.completed.hasPr' };
    case 'failed':
      return { ...base, description: withAge(l10n.t({ message: 'failed', comment: ['The status of a job, as its row in a list shows it.'] })), icon: 'error', color: COLORS.failed, contextValue: 'agentJob.failed' };
    case 'archived':
      return { ...base, description: withAge(l10n.t({ message: 'archived', comment: ['The status of a job, as its row in a list shows it.'] })), icon: 'archive', color: COLORS.muted, contextValue: job.prLink === null ? 'agentJob.archived' : 'agentJob.archived.hasPr' };
    case 'unknown': {
      const status =
        job.rawStatus === undefined
          ? agentStatusText(job)
          : l10n.t({ message: 'unknown status "{0}"', args: [job.rawStatus], comment: ['The status of a job, as its row in a list shows it.'] });
      return { ...base, description: withAge(status), icon: 'question', color: undefined, contextValue: 'agentJob.unknown' };
    }
  }
}

export function presentExportJob(job: ExportJob, now: number): Presentation {
  const label = job.domain ?? job.jobId;
  const created = job.createdAt === undefined ? NaN : Date.parse(job.createdAt);
  const ended = job.updatedAt === undefined ? NaN : Date.parse(job.updatedAt);
  const terminal = job.status === 'completed' || job.status === 'failed';
  const elapsed = Number.isNaN(created) ? undefined : formatDuration((terminal && !Number.isNaN(ended) ? ended : now) - created);
  const count = job.pageCount?.toLocaleString('en-US');
  const pages = count === undefined ? undefined : job.pageCount === 1 ? l10n.t('{0} page', count) : l10n.t('{0} pages', count);
  const details = [
    l10n.t('Job: {0}', job.jobId),
    l10n.t('Domain: {0}', job.domain ?? l10n.t('(unknown)')),
    l10n.t('Status: {0}', job.rawStatus),
    ...(job.progress === undefined ? [] : [l10n.t('Progress: {0}%', Math.round(job.progress))]),
    ...(pages === undefined ? [] : [l10n.t('Pages: {0}', pages)]),
    ...(job.createdAt === undefined ? [] : [l10n.t('Created: {0}', job.createdAt)]),
    ...(job.updatedAt === undefined ? [] : [l10n.t('Updated: {0}', job.updatedAt)]),
    ...(job.error === undefined ? [] : [l10n.t('Error: {0}', job.error)]),
  ];
  const join = (...parts: (string | undefined)[]) => parts.filter((p) => p !== undefined && p !== '').join(' · ');
  const base = { label, details };
  switch (job.status) {
    case 'queued':
      return { ...base, description: join(l10n.t({ message: 'queued', comment: ['The status of a job, as its row in a list shows it.'] }), elapsed), icon: 'clock', color: COLORS.waiting, contextValue: 'exportJob.queued' };
    case 'running': {
      const percent = job.progress === undefined ? undefined : `${Math.round(job.progress)}%`;
      return { ...base, description: join(l10n.t({ message: 'running', comment: ['The status of a job, as its row in a list shows it.'] }), percent, pages, elapsed), icon: 'sync~spin', color: COLORS.running, contextValue: 'exportJob.running' };
    }
    case 'completed':
      return { ...base, description: join(l10n.t({ message: 'completed', comment: ['The status of a job, as its row in a list shows it.'] }), pages, elapsed), icon: 'package', color: COLORS.done, contextValue: 'exportJob.completed' };
    case 'failed':
      return { ...base, description: join(l10n.t({ message: 'failed', comment: ['The status of a job, as its row in a list shows it.'] }), job.error), icon: 'error', color: COLORS.failed, contextValue: 'exportJob.failed' };
    case 'unknown':
      return { ...base, description: join(l10n.t({ message: 'unknown status "{0}"', args: [job.rawStatus], comment: ['The status of a job, as its row in a list shows it.'] }), elapsed), icon: 'question', color: undefined, contextValue: 'exportJob.unknown' };
  }
}
