/** Jobs as the CLI prints them for a person (`--json` prints them whole instead). */
import * as l10n from '@vscode/l10n';
import type { AgentJob, ExportJob } from '../core/api/types';

/** `unknown status "x"` for a status the API does not list; the API's own word (a value scripts match) otherwise. */
function statusOf(job: AgentJob | ExportJob): string {
  return job.status === 'unknown' ? l10n.t('unknown status "{0}"', job.rawStatus) : job.status;
}


export function describeAgent(job: AgentJob): string {
  const ref = job.source.ref === null ? '' : ` @ ${job.source.ref}`;
  const status = job.status === 'completed' && job.prLink === null ? l10n.t('completed, no changes') : statusOf(job);
  const fields: [string, string | null][] = [
    [l10n.t({ message: 'repository', comment: ['A field of an agent job, in a table.'] }), `${job.source.repository}${ref}`],
    [l10n.t({ message: 'model', comment: ['A field of an agent job, in a table.'] }), job.model],
    [l10n.t({ message: 'created', comment: ['A field of an agent job, in a table.'] }), job.createdAt],
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
