/** Track Deployment…: follows a deployment or preview started elsewhere (the dashboard, CI) by its status id. */
import * as vscode from 'vscode';
import { parseStatusId } from '../../core/deployments/deploymentInput';
import { command, requireService, valueFromCode, type Deps } from '../commandToolkit';
import { knownKeys } from '../environments';

export function register(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.deployment.track', deps, async (given?: unknown) => {
      // An id from code is tracked; one from a link is shown in the box for the person to confirm.
      const { value: fromCodeValue, suggested } = valueFromCode(given);
      const service = requireService(deps);
      // A key pasted here would be sent in a request's path: it is told apart and refused.
      const keys = await knownKeys(deps.keys);
      const value =
        fromCodeValue ??
        (await deps.ui.inputBox({
          title: vscode.l10n.t('Docs Admin: track a deployment'),
          prompt: vscode.l10n.t('The status id of a deployment or preview (from CI, the CLI, or the dashboard), or a link that holds it'),
          ...(suggested === undefined ? {} : { value: suggested }),
          ignoreFocusOut: true,
          validateInput: (v) => {
            const r = parseStatusId(v, keys);
            return r.ok ? undefined : r.reason;
          },
        }));
      if (value === undefined) return undefined;
      const parsed = parseStatusId(value, keys);
      if (!parsed.ok) throw new Error(parsed.reason);
      await service.trackDeployment(parsed.id);
      deps.reveal(deps.nodes.of(`deployment:${parsed.id}`, 'deployment'));
      await deps.setup.update();
      return parsed.id;
    }),
  ];
}
