/** What Review Changes shows: its editor's title and how each changed file reads. Pure. */
import * as l10n from '@vscode/l10n';
import type { AgentJob } from '../api/types';
import { repositoryName } from '../jobs/present';

/** The multi-file diff editor's title: the job's repository, branch and id. */
export function reviewTitle(job: Pick<AgentJob, 'id' | 'source'>): string {
  return l10n.t({ message: 'Agent job {0} @ {1} ({2})', args: [repositoryName(job.source.repository), job.source.ref ?? '', job.id], comment: ['The title of the editor that shows what an agent job changed: repository, branch, job id.'] });
}

export type ChangeKind = 'modified' | 'added' | 'deleted' | 'renamed';

/** Which sides a changed file has in the diff: an added file has no original, a deleted one no modified. */
export function sides(kind: ChangeKind): { original: boolean; modified: boolean } {
  return { original: kind !== 'added', modified: kind !== 'deleted' };
}

/**
 * An agent row's context value with the review tokens: `.noRef` after its status when the job
 * names no branch (`agentJob.completed.noRef.noPr`), so the review commands' menus leave it out.
 * Rows with a branch keep their value as it was.
 */
export function withReviewTokens(contextValue: string, ref: string | null | undefined): string {
  if (ref !== null && ref !== undefined && ref !== '') return contextValue;
  const [kind, status, ...rest] = contextValue.split('.');
  return [kind, status, 'noRef', ...rest].join('.');
}
