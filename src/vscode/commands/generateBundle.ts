import * as vscode from 'vscode';
import { command, rowOrNone, type Deps } from '../commandKit/commandToolkit';
import { describeExpiry, exportJobOf } from '../links/bundleLinks';
import { pickCompletedExport } from '../commandKit/pickExport';

/** Generate Bundle: always a new link (the old one keeps working until it expires). */
export function register(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.export.generateBundle', deps, async (node?: unknown) => {
      const key = rowOrNone(deps, node, 'docsAdmin.export.generateBundle')?.key ?? (await pickCompletedExport(deps, vscode.l10n.t('Docs Admin: generate a bundle link')));
      if (key === undefined) return undefined;
      const row = deps.nodes.of(key, 'export');
      const job = exportJobOf(deps, key);
      if (!job.completed) throw new Error(vscode.l10n.t('This export has not completed yet; its bundle can be generated once it has.'));
      const link = await deps.ui.progress(
        { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Generating the bundle link…') },
        () => job.links.issue(job.id),
      );
      const left = job.links.timeLeft(link);
      const download = vscode.l10n.t('Download…');
      const copyLink = vscode.l10n.t('Copy Link');
      void deps.messages.info(vscode.l10n.t('Bundle ready for {0} ({1}).', job.domain ?? job.id, describeExpiry(left)), download, copyLink).then((choice) => {
        if (choice === download) void vscode.commands.executeCommand('docsAdmin.export.downloadBundle', row);
        if (choice === copyLink) void vscode.commands.executeCommand('docsAdmin.export.copyBundleLink', row);
      });
      return { expiresInMs: left, sizeBytes: link.bundle.sizeBytes };
    }),
  ];
}
