/** The page CodeLens's click: the page's row in the Readers view, expanded. */
import * as vscode from 'vscode';
import { command, type Deps } from '../commandKit/commandToolkit';

export function register(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.readers.showPage', deps, async (token?: unknown) => {
      // Only the token its CodeLens handed out: a link's string or JSON is refused, and nothing moves.
      const key = deps.readers.lens.pageOfToken(token);
      if (key === undefined) throw new Error(vscode.l10n.t('Show Page runs from the reader CodeLens on a docs page: click it there.'));
      if (!(await deps.readers.view.revealPage(key))) {
        throw new Error(vscode.l10n.t('This page has no reader data for the period shown. Refresh the Readers view to load it again.'));
      }
      return true;
    }),
  ];
}
