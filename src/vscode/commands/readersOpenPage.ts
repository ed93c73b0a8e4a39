/** Open Page on a page's row of the Readers view. */
import * as vscode from 'vscode';
import { command, type Deps } from '../commandKit/commandToolkit';
import { readerRow } from './readersRow';

export function register(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.readers.openPage', deps, async (node?: unknown) => {
      const row = readerRow(deps, node);
      const key = row.type === 'page' || row.type === 'feedback' ? row.key : row.type === 'question' ? row.parent : undefined;
      const uri = key === undefined ? undefined : deps.readers.view.tree.page(key)?.uri;
      if (uri === undefined) throw new Error(vscode.l10n.t('No file of this workspace serves this page.'));
      await vscode.window.showTextDocument(uri, { preview: true });
      return uri;
    }),
  ];
}
