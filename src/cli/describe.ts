/** Jobs as the CLI prints them for a person (`--json` prints them whole instead). */
import * as l10n from '@vscode/l10n';
import type { AgentJob, ExportJob } from '../core/api/apiTypes';
import type { Deployment } from '../core/deployments/deploymentTypes';
import { agentStatusText } from '../core/jobs/jobLabels';

/**
 * `unknown status "x"` for a status the API does not list, `status not given` for none; the
 * API's own word (a value scripts match) otherwise.
 */
function statusOf(job: AgentJob | ExportJob): string {
  if (job.status !== 'unknown') return job.status;
  return job.rawStatus === undefined ? agentStatusText(job) : l10n.t('unknown status "{0}"', job.rawStatus);
}


/** Every field the server gave, one a line; one it did not give has no line. */
export function describeAgent(job: AgentJob): string {
  const { repository, ref } = job.source;
  const status = job.status === 'completed' && job.prLink === null ? l10n.t('completed, no changes') : statusOf(job);
  const fields: [string, string | null][] = [
    repository === undefined
      ? [l10n.t({ message: 'branch', comment: ['A field of an agent job, in a table.'] }), ref]
      : [l10n.t({ message: 'repository', comment: ['A field of an agent job, in a table.'] }), `${repository}${ref === null ? '' : ` @ ${ref}`}`],
    [l10n.t({ message: 'model', comment: ['A field of an agent job, in a table.'] }), job.model ?? null],
    [l10n.t({ message: 'created', comment: ['A field of an agent job, in a table.'] }), job.createdAt ?? null],
    [l10n.t({ message: 'pull request', comment: ['A field of an agent job, in a table.'] }), job.prLink],
    [l10n.t({ message: 'archived', comment: ['A field of an agent job, in a table.'] }), job.archivedAt],
  ];
  const width = Math.max(...fields.map(([name]) => name.length)) + 2;
  return [`${job.id}  ${status}`, ...fields.filter(([, value]) => value !== null).map(([name, value]) => `  ${name.padEnd(width)}${value ?? ''}`)].join('\n');
}


export function describeExport(job: ExportJob): string {
  const parts = [statusOf(job)];
  if (job.progress !== undefined && job.status !== 'completed') parts.push(`${Math.round(job.progress)}%`);
  if (job.pageCount !== undefined) parts.push(l10n.t('{0} pages', job.pageCount));
  if (job.domain !== undefined) parts.push(job.domain);
  const error = job.error === undefined ? '' : `\n  ${l10n.t({ message: 'error', comment: ['The field of a failed export job that holds its error, in a table.'] })}  ${job.error}`;
  return `${job.jobId}  ${parts.join(' · ')}${error}`;
}


/** A deployment: its status (the API's word), then its fields; `previewUrl` when it is a preview. */
export function describeDeployment(d: Deployment, previewUrl?: string): string {
  const status = d.status === 'unknown' ? l10n.t('unknown status "{0}"', d.rawStatus) : d.status;
  const commit = d.commit === undefined ? null : [d.commit.sha?.slice(0, 12), d.commit.ref === undefined ? undefined : `(${d.commit.ref})`, (d.commit.message ?? '').split(/\r?\n/)[0]].filter((p) => p !== undefined && p !== '').join(' ');
  const files = d.commit?.filesChanged;
  const fields: [string, string | null | undefined][] = [
    [l10n.t({ message: 'preview', comment: ['A field of a deployment, in a table.'] }), previewUrl],
    [l10n.t({ message: 'summary', comment: ['A field of a deployment, in a table.'] }), d.summary],
    [l10n.t({ message: 'commit', comment: ['A field of a deployment, in a table.'] }), commit],
    [l10n.t({ message: 'files', comment: ['A field of a deployment, in a table.'] }), files === undefined ? undefined : l10n.t('{0} added, {1} modified, {2} removed', files.added.length, files.modified.length, files.removed.length)],
    [l10n.t({ message: 'author', comment: ['A field of a deployment, in a table.'] }), d.author?.name],
    [l10n.t({ message: 'source', comment: ['A field of a deployment, in a table.'] }), d.source],
    [l10n.t({ message: 'created', comment: ['A field of a deployment, in a table.'] }), d.createdAt],
    [l10n.t({ message: 'ended', comment: ['A field of a deployment, in a table.'] }), d.endedAt],
  ];
  const shown = fields.filter((f): f is [string, string] => f[1] !== undefined && f[1] !== null && f[1] !== '');
  const width = Math.max(...shown.map(([name]) => name.length), 0) + 2;
  return [`${d.id}  ${status}`, ...shown.map(([name, value]) => `  ${name.padEnd(width)}${value}`)].join('\n');
}
