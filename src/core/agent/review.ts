/** What Review Changes shows: its editor's title and how each changed file reads. Pure. */
import * as l10n from '@vscode/l10n';
import type { AgentJob } from '../api/apiTypes';
import { repositoryName } from '../jobs/jobLabels';

/** The multi-file diff editor's title: the job's repository (when the server named it), branch and id. */
export function reviewTitle(job: Pick<AgentJob, 'id' | 'source'>): string {
  if (job.source.repository === undefined) return l10n.t({ message: 'Agent job {0} @ {1}', args: [job.id, job.source.ref ?? ''], comment: ['The title of the editor that shows what an agent job changed: job id, branch.'] });
  return l10n.t({ message: 'Agent job {0} @ {1} ({2})', args: [repositoryName(job.source.repository), job.source.ref ?? '', job.id], comment: ['The title of the editor that shows what an agent job changed: repository, branch, job id.'] });
}

export type ChangeKind = 'modified' | 'added' | 'deleted' | 'renamed';

/** Which sides a changed file has in the diff: an added file has no original, a deleted one no modified. */
export function sides(kind: ChangeKind): { original: boolean; modified: boolean } {
  return { original: kind !== 'added', modified: kind !== 'deleted' };
}

/**
 * An agent row's context value with the review tokens, after its status: `.noRef` when the job
 * names no branch (`agentJob.completed.noRef.noPr`), `.noRepo` when the server named no
 * repository (`agentJob.active.noRepo`), so the menus of the commands that need them leave the
 * row out. Rows with both keep their value as it was.
 */
export function withReviewTokens(contextValue: string, source: { ref: string | null | undefined; repository?: string | undefined }): string {
  const { ref, repository } = source;
  const tokens = [...(ref !== null && ref !== undefined && ref !== '' ? [] : ['noRef']), ...(repository !== undefined && repository !== '' ? [] : ['noRepo'])];
  if (tokens.length === 0) return contextValue;
  const [kind, status, ...rest] = contextValue.split('.');
  return [kind, status, ...tokens, ...rest].join('.');
}
