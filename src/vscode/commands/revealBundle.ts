import * as vscode from 'vscode';
import { command, isJobNode, requireService, type Deps } from '../commandKit/commandToolkit';

/** Reveal Bundle Files: the downloaded archive or the extracted folder in the OS's file manager. */
export function register(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.export.revealBundle', deps, async (node?: unknown) => {
      if (!isJobNode(deps, node)) throw new Error(vscode.l10n.t('Pick a downloaded or extracted bundle in the Static Exports view.'));
      const job = requireService(deps).get(node.key);
      const entry = job?.kind === 'export' ? deps.session.shelf?.get(job.id) : undefined;
      const path = node.part === 'archive' ? entry?.archive : (entry?.folder ?? entry?.archive);
      if (path === undefined) throw new Error(vscode.l10n.t('Nothing of this bundle is on this machine yet.'));
      await vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(path));
      return path;
    }),
  ];
}
