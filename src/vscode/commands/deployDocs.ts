/**
 * Deploy Docs: the project's deployment branch to the live site, after a modal that names the
 * environment and the project (it changes what readers see). Paced and sent once (a second
 * click while it is under way joins it); tracked in the Deployments view, followed to its end.
 */
import * as vscode from 'vscode';
import { command, optionsFromCode, requireService, type Deps } from '../commandKit/commandToolkit';
import { trackStarted, triggersOf, triggerWithProgress } from '../deployments/deploymentActions';

const ID = 'docsAdmin.deployment.deploy';

export function register(deps: Deps): vscode.Disposable[] {
  return [
    command(ID, deps, async (given?: { confirmed?: boolean }) => {
      const options = optionsFromCode(deps, given, ID);
      requireService(deps);
      const env = deps.session.environment;
      if (options.confirmed !== true) {
        const deploy = vscode.l10n.t({ message: 'Deploy', comment: ['The button that confirms a deployment to the live site.'] });
        const choice = await deps.messages.ask(
          'warning',
          vscode.l10n.t('Deploy the docs of project "{0}" to production, in the "{1}" environment?', env.projectId, env.name),
          { modal: true, detail: vscode.l10n.t("The project's deployment branch goes live: readers see it once the deployment succeeds.") },
          deploy,
        );
        if (choice !== deploy) return undefined;
      }
      const triggers = triggersOf(deps);
      const started = await triggerWithProgress(deps, vscode.l10n.t('Deploying the docs of "{0}"…', env.name), (o) => triggers.deploy(o));
      if (started === undefined) return undefined;
      deps.log.info(`Deployment of ${env.projectId} (${env.name}) queued: status ${started.statusId}`);
      await trackStarted(deps, started.statusId, { kind: 'production' });
      return started.statusId;
    }),
  ];
}
