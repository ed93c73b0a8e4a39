import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { readConfig } from '../session/extensionConfig';
import { command, fromOutside, isJobNode, requireService, type Deps } from '../commandKit/commandToolkit';
import { isFromCode } from '../commandKit/fromCode';

async function isFolder(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/** Serve Bundle Locally and Stop Serving Bundle (a local preview of an extracted bundle; Preview Branch… is the platform's). */
export function register(deps: Deps): vscode.Disposable[] {
  const { previews } = deps;
  return [
    command('docsAdmin.export.previewBundle', deps, async (node?: unknown): Promise<string | undefined> => {
      let folder: string | undefined;
      let label: string | undefined;
      if (isJobNode(deps, node)) {
        const job = requireService(deps).get(node.key);
        if (job?.kind !== 'export') throw new Error(vscode.l10n.t('Pick an export job in the Static Exports view.'));
        folder = deps.session.shelf?.get(job.id)?.folder;
        label = job.domain ?? job.snapshot?.domain ?? job.id;
        if (folder === undefined) throw new Error(vscode.l10n.t('Extract the bundle first (Download Bundle, then Extract Bundle).'));
      } else if (isFromCode(node) && typeof (node as { folder?: unknown }).folder === 'string') {
        // A folder named by code (Extract's "Serve Locally"); from a link it would serve any folder on loopback.
        folder = (node as { folder: string }).folder;
      } else if (node !== undefined && node !== null) {
        throw fromOutside('docsAdmin.export.previewBundle');
      } else {
        const picked = await deps.ui.openDialog({
          title: vscode.l10n.t('Docs Admin: serve an extracted bundle locally'),
          canSelectFiles: false,
          canSelectFolders: true,
          canSelectMany: false,
          openLabel: vscode.l10n.t('Serve'),
        });
        folder = picked?.[0]?.fsPath;
        if (folder === undefined) return undefined;
      }
      if (!(await isFolder(folder))) throw new Error(vscode.l10n.t('{0} is no longer there. Extract the bundle again.', folder));
      return previews.open(folder, label ?? basename(folder), readConfig().previewOpenIn);
    }),
    command('docsAdmin.preview.stop', deps, async () => {
      const running = previews.list();
      if (running.length <= 1) return previews.stop();
      const picked = await deps.ui.quickPick(
        [{ label: vscode.l10n.t('Stop all'), folder: undefined as string | undefined }, ...running.map((r) => ({ label: r.label, description: r.url, detail: r.folder, folder: r.folder }))],
        { title: vscode.l10n.t('Docs Admin: stop serving a bundle') },
      );
      if (picked === undefined) return 0;
      return previews.stop(picked.folder);
    }),
  ];
}
