/** Track Deployment…: follows a deployment or preview started elsewhere (the dashboard, CI) by its status id. */
import * as vscode from 'vscode';
import { parseStatusId } from '../../core/deployments/deploymentInput';
import type { Deps } from '../commandKit/commandToolkit';
import { trackByIdCommand } from '../commandKit/trackById';

export function register(deps: Deps): vscode.Disposable[] {
  return [
    trackByIdCommand(deps, {
      id: 'docsAdmin.deployment.track',
      title: vscode.l10n.t('Docs Admin: track a deployment'),
      prompt: vscode.l10n.t('The status id of a deployment or preview (from CI, the CLI, or the dashboard), or a link that holds it'),
      parse: parseStatusId,
      track: async (service, id) => {
        await service.trackDeployment(id);
        deps.reveal(deps.nodes.of(`deployment:${id}`, 'deployment'));
        await deps.setup.update();
      },
    }),
  ];
}
