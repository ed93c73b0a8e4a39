/** The page CodeLens's click: the page's row in the Readers view, expanded. */
import * as vscode from 'vscode';
import { command, type Deps } from '../commandToolkit';

export function register(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.readers.showPage', deps, async (key?: unknown) => {
      // The key is only looked up among the pages in memory: anything else shows nothing.
      if (typeof key !== 'string' || !(await deps.readers.view.revealPage(key))) {
        throw new Error(vscode.l10n.t('This page has no reader data for the period shown. Refresh the Readers view to load it again.'));
      }
      return true;
    }),
  ];
}
