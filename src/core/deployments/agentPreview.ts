/**
 * An agent job's preview: the latest tracked preview of its branch (started from its row, or
 * from Preview Branch… with the same branch), and what its row says about it: "preview ready"
 * with Open Preview beside Review Changes, "preview deploying", or "preview failed". Pure.
 */
import * as l10n from '@vscode/l10n';
import type { TrackedJob } from '../jobs/trackedJob';

type DeploymentJob = Extract<TrackedJob, { kind: 'deployment' }>;

/** The newest preview of `branch` among the tracked jobs (one started for this agent job first). */
export function previewOfBranch(jobs: readonly TrackedJob[], branch: string | null | undefined, agentJobId?: string): DeploymentJob | undefined {
  if (branch === null || branch === undefined || branch === '') return undefined;
  const previews = jobs.filter((j): j is DeploymentJob => j.kind === 'deployment' && j.target?.kind === 'preview' && j.target.branch === branch);
  const newest = (list: DeploymentJob[]) => list.sort((a, b) => b.addedAt - a.addedAt)[0];
  return newest(previews.filter((p) => p.target?.kind === 'preview' && p.target.agentJobId === agentJobId)) ?? newest(previews);
}

export type PreviewState = 'ready' | 'deploying' | 'failed';

export function previewState(preview: DeploymentJob | undefined): PreviewState | undefined {
  const status = preview?.snapshot?.status;
  if (preview === undefined) return undefined;
  if (status === 'success') return 'ready';
  if (status === 'failure') return 'failed';
  return status === 'unknown' ? undefined : 'deploying';
}

/** What an agent row adds to its description, and the token its context value gets (`.previewReady`). */
export function agentPreviewNote(state: PreviewState | undefined): { note: string; token?: string } | undefined {
  switch (state) {
    case 'ready':
      return { note: l10n.t({ message: 'preview ready', comment: ["On an agent job's row: the preview of its branch is deployed."] }), token: 'previewReady' };
    case 'deploying':
      return { note: l10n.t({ message: 'preview deploying', comment: ["On an agent job's row: the preview of its branch is being deployed."] }) };
    case 'failed':
      return { note: l10n.t({ message: 'preview failed', comment: ["On an agent job's row: the preview of its branch failed."] }) };
    case undefined:
      return undefined;
  }
}

/** An agent row's context value with a preview token after its status (`agentJob.completed.previewReady.hasPr`). */
export function withPreviewToken(contextValue: string, token: string | undefined): string {
  if (token === undefined) return contextValue;
  const [kind, status, ...rest] = contextValue.split('.');
  return [kind, status, token, ...rest].join('.');
}
