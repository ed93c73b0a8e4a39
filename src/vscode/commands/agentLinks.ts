import * as vscode from 'vscode';
import { command, isJobNode, requireService, type Deps } from '../commandKit/commandToolkit';
import { openSafely } from '../links/openLink';

/** Open Pull Request and Open Repository, on an agent job's row (and from its notification). */
export function register(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.agentJob.openPullRequest', deps, async (node: unknown) => {
      if (!isJobNode(deps, node)) throw new Error(vscode.l10n.t('Pick an agent job in the Docs Admin view.'));
      const job = requireService(deps).get(node.key);
      if (job?.kind !== 'agent' || job.snapshot === undefined) throw new Error(vscode.l10n.t('That job has not been read yet.'));
      if (job.snapshot.prLink === null) throw new Error(vscode.l10n.t('This job opened no pull request (it completed with no changes, or is still running).'));
      return openSafely(deps, job.snapshot.prLink, 'pullRequest');
    }),
    command('docsAdmin.agentJob.openRepository', deps, async (node: unknown) => {
      if (!isJobNode(deps, node)) throw new Error(vscode.l10n.t('Pick an agent job in the Docs Admin view.'));
      const job = requireService(deps).get(node.key);
      if (job?.kind !== 'agent' || job.snapshot === undefined) throw new Error(vscode.l10n.t('That job has not been read yet.'));
      const repository = job.snapshot.source.repository;
      if (repository === undefined) throw new Error(vscode.l10n.t('The server has not said which repository agent job {0} works on. Refresh the job, or look it up on the dashboard.', job.id));
      return openSafely(deps, repository, 'repository');
    }),
  ];
}
