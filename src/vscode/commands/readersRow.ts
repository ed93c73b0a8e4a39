/** The check the Readers view's commands start with: the row must be one the view made. */
import * as vscode from 'vscode';
import type { ReaderNode } from '../readers/nodes';
import type { Deps } from '../commandKit/commandToolkit';

/**
 * `node` when the Readers view made it; a look-alike (a link's JSON arguments, another extension's
 * object) is refused, and the command does nothing.
 */
export function readerRow(deps: Pick<Deps, 'readers'>, node: unknown): ReaderNode {
  if (!deps.readers.view.tree.nodes.owns(node)) throw new Error(vscode.l10n.t('Pick a row in the Readers view.'));
  return node;
}
