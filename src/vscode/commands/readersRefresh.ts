/** Refresh in the Readers view: the current period loaded again, whatever its age. */
import * as vscode from 'vscode';
import { command, type Deps } from '../commandKit/commandToolkit';

export function register(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.readers.refresh', deps, async () => {
      const model = deps.readers.model;
      if (!model.settings.enabled) throw new Error(vscode.l10n.t('Reader analytics are turned off (docsAdmin.readers.enabled).'));
      if (!model.usable) throw new Error(vscode.l10n.t('Set the base URL, project id and admin key of the "{0}" environment first.', deps.session.environment.name));
      const site = await deps.ui.progress({ location: { viewId: 'docsAdmin.readersView' } }, () => model.refresh());
      const state = model.state();
      if (state.kind === 'failed') throw state.error;
      return site;
    }),
  ];
}
