/** Show Deployment Logs: a deployment's logs in a read-only editor, at their end, filling in while it runs. */
import * as vscode from 'vscode';
import { command, isJobNode, type Deps } from '../commandToolkit';
import { deploymentOf, pickDeployment } from '../deployments';

export function register(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.deployment.showLogs', deps, async (node?: unknown) => {
      const job = isJobNode(node) ? deploymentOf(deps, node) : await pickDeployment(deps, vscode.l10n.t('Docs Admin: show the logs of a deployment'));
      if (job === undefined) return undefined;
      const editor = await deps.logs.open(job.id, { atEnd: true });
      return editor.document.uri.toString();
    }),
  ];
}
