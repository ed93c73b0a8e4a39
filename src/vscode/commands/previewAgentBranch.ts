/**
 * Preview Agent Branch, on an agent job's row: a preview of the branch the agent works on
 * (`source.ref`, checked as git would before it is sent). Once it succeeds the row says
 * "preview ready" and offers Open Preview beside Review Changes.
 */
import * as vscode from 'vscode';
import { checkBranchRef } from '../../core/agent/ref';
import { forMessage } from '../../core/untrusted';
import { command, type Deps } from '../commandKit/commandToolkit';
import { startPreview } from '../deployments/deploymentActions';
import { agentJobOf } from '../git/agentBranch';

export function register(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.agentJob.previewBranch', deps, async (node: unknown) => {
      const job = agentJobOf(deps, node);
      const check = checkBranchRef(job.source.ref);
      if (!check.ok) {
        deps.log.warn(`Agent job ${job.id}: refused to preview its branch ${JSON.stringify(job.source.ref)}: ${check.reason}`);
        throw new Error(vscode.l10n.t('The branch of agent job {0} was not previewed: {1}.', forMessage(job.id), check.reason));
      }
      return (await startPreview(deps, check.ref, job.id))?.id;
    }),
  ];
}
