import * as vscode from 'vscode';
import { command, isJobNode, type Deps } from '../commandToolkit';
import { describeExpiry, exportJobOf } from '../bundleLinks';
import { pickCompletedExport } from '../pickExport';

/** Generate Bundle: always a new link (the old one keeps working until it expires). */
export function register(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.export.generateBundle', deps, async (node?: unknown) => {
      const key = isJobNode(node) ? node.key : await pickCompletedExport(deps, vscode.l10n.t('Docs Admin: generate a bundle link'));
      if (key === undefined) return undefined;
      const job = exportJobOf(deps, key);
      if (!job.completed) throw new Error(vscode.l10n.t('This export has not completed yet; its bundle can be generated once it has.'));
      const link = await deps.ui.progress(
        { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Generating the bundle link…') },
        () => job.links.regenerate(job.id),
      );
      const left = job.links.timeLeft(link);
      const download = vscode.l10n.t('Download…');
      const copyLink = vscode.l10n.t('Copy Link');
      void deps.messages.info(vscode.l10n.t('Bundle ready for {0} ({1}).', job.domain ?? job.id, describeExpiry(left)), download, copyLink).then((choice) => {
        if (choice === download) void vscode.commands.executeCommand('docsAdmin.export.downloadBundle', node ?? { key, kind: 'export' });
        if (choice === copyLink) void vscode.commands.executeCommand('docsAdmin.export.copyBundleLink', node ?? { key, kind: 'export' });
      });
      return { expiresInMs: left, sizeBytes: link.bundle.sizeBytes };
    }),
  ];
}
