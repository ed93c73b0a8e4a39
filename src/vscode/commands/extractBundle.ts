import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtractSummary } from '../../core/bundle/extract/extract';
import { describeSummary, type BundleSummary } from '../../core/bundle/shelf/shelfRows';
import { readConfig } from '../session/extensionConfig';
import { withCancellableProgress } from '../ui/cancellableProgress';
import { command, type Deps, optionsFromCode, requireService, rowOrNone } from '../commandKit/commandToolkit';
import { fromCode } from '../commandKit/fromCode';
import { formatBytes } from '../../core/formatUnits';

/** `docs-x-2026-11-23.tar.gz` -> `docs-x-2026-11-23`. */
export function folderNameFor(archive: string): string {
  return basename(archive).replace(/\.(tar\.gz|tgz|zip|gz)$/i, '') || 'bundle';
}

export function toSummary(s: ExtractSummary): BundleSummary {
  const types: Record<string, number> = {};
  for (const [ext, n] of Object.entries(s.types)) types[ext.replace(/^\./, '')] = n;
  return { pages: s.pages, files: s.files, bytes: s.bytes, types };
}

async function isNonEmptyFolder(path: string): Promise<boolean> {
  try {
    if (!(await stat(path)).isDirectory()) return true;
    return (await readdir(path)).length > 0;
  } catch {
    return false;
  }
}

export interface ExtractArgs {
  archive?: string;
  /** The folder the bundle's files go in (skips the dialog). */
  folder?: string;
  /** With `folder`: replace what it holds. */
  replace?: boolean;
}

/**
 * Extract Bundle: a tar.gz or zip (by its magic bytes) into a folder, refusing anything that
 * would land outside it, with caps against archive bombs; then a summary under the job.
 */
export function register(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.export.extractBundle', deps, async (node?: unknown, given?: ExtractArgs): Promise<ExtractSummary | undefined> => {
      const args = optionsFromCode(deps, given, 'docsAdmin.export.extractBundle');
      const row = rowOrNone(deps, node, 'docsAdmin.export.extractBundle');
      const job = row === undefined ? undefined : requireService(deps).get(row.key);
      const jobId = job?.kind === 'export' ? job.id : undefined;
      let archive = args.archive ?? (jobId === undefined ? undefined : deps.session.shelf?.get(jobId)?.archive);
      if (archive === undefined) {
        if (jobId !== undefined) {
          const download = vscode.l10n.t('Download…');
          const chooseFile = vscode.l10n.t('Choose a File…');
          const choice = await deps.messages.info(vscode.l10n.t('This export\'s bundle has not been downloaded yet.'), download, chooseFile);
          if (choice === download) {
            // Extract is offered again when the download is done.
            await vscode.commands.executeCommand('docsAdmin.export.downloadBundle', row);
            return undefined;
          }
          if (choice !== chooseFile) return undefined;
        }
        const picked = await deps.ui.openDialog({
          title: vscode.l10n.t('Docs Admin: extract a bundle'),
          canSelectFiles: true,
          canSelectMany: false,
          filters: { [vscode.l10n.t('Docs bundle')]: ['gz', 'tgz', 'zip'], [vscode.l10n.t('All files')]: ['*'] },
          openLabel: vscode.l10n.t('Extract'),
        });
        if (picked?.[0] === undefined) return undefined;
        archive = picked[0].fsPath;
      }
      const source = archive;
      if (!(await stat(source).then((s) => s.isFile(), () => false))) {
        throw new Error(vscode.l10n.t('The bundle {0} is no longer there. Download it again (Download Bundle…), or pick another file.', source));
      }
      let folder = args.folder;
      let replace = args.replace === true;
      if (folder === undefined) {
        const parent = await deps.ui.openDialog({
          title: vscode.l10n.t('Extract {0} into a new folder "{1}" in…', basename(source), folderNameFor(source)),
          defaultUri: vscode.Uri.file(dirname(source)),
          canSelectFiles: false,
          canSelectFolders: true,
          canSelectMany: false,
          openLabel: vscode.l10n.t('Extract Here'),
        });
        if (parent?.[0] === undefined) return undefined;
        folder = join(parent[0].fsPath, folderNameFor(source));
        if (await isNonEmptyFolder(folder)) {
          const replaceFiles = vscode.l10n.t('Replace');
          const answer = await deps.messages.ask(
            'warning',
            vscode.l10n.t('{0} already holds files. Replace them with the bundle\'s? The old files are removed only once the new ones are all in place.', folder),
            { modal: true },
            replaceFiles,
          );
          if (answer !== replaceFiles) return undefined;
          replace = true;
        }
      }
      const target = folder;
      const config = readConfig();
      const { extractBundle } = await import('../../core/bundle/extract/extract.js');
      const summary = await withCancellableProgress(deps.ui, vscode.l10n.t('Extracting {0}', basename(source)), (progress, signal) => {
        let last = 0;
        return extractBundle(source, target, {
          ...config.extract,
          replace,
          l10n: vscode.l10n.bundle,
          signal,
          onProgress: (p) => {
            const now = Date.now();
            if (now - last < 100) return;
            last = now;
            progress.report({ message: vscode.l10n.t('{0} files · {1}', p.entries, formatBytes(p.bytes)) });
          },
        });
      });
      if (summary === undefined) {
        void deps.messages.info(vscode.l10n.t('Extraction cancelled; the folder was left as it was.'));
        return undefined;
      }
      const described = describeSummary(toSummary(summary));
      deps.log.info(`Extracted ${source} into ${target}: ${summary.files} files, ${described.headline} (${described.types}).`);
      if (summary.duplicates.length > 0) deps.log.warn(`The bundle named ${summary.duplicates.length} file(s) more than once; the last copy of each was kept: ${summary.duplicates.slice(0, 10).join(', ')}`);
      if (jobId !== undefined) await deps.session.shelf?.update(jobId, { archive: source, folder: target, summary: toSummary(summary), extractedAt: Date.now() });
      const preview = vscode.l10n.t('Serve Locally');
      const reveal = vscode.l10n.t('Reveal');
      void deps.messages.info(vscode.l10n.t('Extracted {0} to {1}.', described.headline, target), preview, reveal).then((choice) => {
        if (choice === preview) void vscode.commands.executeCommand('docsAdmin.export.previewBundle', row ?? fromCode({ folder: target }));
        if (choice === reveal) void vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(target));
      });
      return summary;
    }),
  ];
}
