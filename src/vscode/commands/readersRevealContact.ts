/**
 * Reveal Reader's Email (and Hide it again) on one feedback entry: its contact address shows on
 * that row only, for this window's life, and is never logged or written anywhere.
 */
import * as vscode from 'vscode';
import { command, type Deps } from '../commandKit/commandToolkit';
import { readerRow } from './readersRow';

export function register(deps: Deps): vscode.Disposable[] {
  const toggle = (id: string, show: boolean) =>
    command(id, deps, (node?: unknown) => {
      const row = readerRow(deps, node);
      const tree = deps.readers.view.tree;
      const entry = row.type === 'feedback' ? tree.feedback(row.key, row.id) : undefined;
      if (entry?.shape !== 'contextual' || entry.contact === undefined) throw new Error(vscode.l10n.t('This reader left no contact address.'));
      if (show) deps.readers.model.revealed.add(entry.id);
      else deps.readers.model.revealed.delete(entry.id);
      tree.refresh(row);
      return show;
    });
  return [toggle('docsAdmin.readers.revealContact', true), toggle('docsAdmin.readers.hideContact', false)];
}
