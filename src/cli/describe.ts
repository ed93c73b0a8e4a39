/** Jobs as the CLI prints them for a person (`--json` prints them whole instead). */
import * as l10n from '@vscode/l10n';
import type { AgentJob, ExportJob } from '../core/api/types';
import { agentStatusText } from '../core/jobs/present';

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
