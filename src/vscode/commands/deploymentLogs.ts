/** Show Deployment Logs: a deployment's logs in a read-only editor, at their end, filling in while it runs. */
import * as vscode from 'vscode';
import { command, rowOrNone, type Deps } from '../commandKit/commandToolkit';
import { deploymentOf, pickDeployment } from '../deployments/deploymentActions';

export function register(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.deployment.showLogs', deps, async (given?: unknown) => {
      // A row handed out, or none (the palette): a link's look-alike is refused.
      const node = rowOrNone(deps, given, 'docsAdmin.deployment.showLogs');
      const job = node !== undefined ? deploymentOf(deps, node) : await pickDeployment(deps, vscode.l10n.t('Docs Admin: show the logs of a deployment'));
      if (job === undefined) return undefined;
      const editor = await deps.logs.open(job.id, { atEnd: true });
      return editor.document.uri.toString();
    }),
  ];
}
