import { statSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { DownloadProgress, DownloadResult } from '../../core/bundle/download/download';
import { BUNDLE_FILE_TYPES, downloadFolder } from '../../core/bundle/download/saveTarget';
import { readConfig } from '../config';
import { withCancellableProgress } from '../progress';
import { command, type Deps, optionsFromCode, rowOrNone } from '../commandToolkit';
import { exportJobOf } from '../bundleLinks';
import { pickCompletedExport } from '../pickExport';
import type { JobKey } from '../../core/jobs/trackedJob';
import { formatBytes } from '../../core/format';

const LAST_FOLDER = 'docsAdmin.lastDownloadFolder';

/** `docs-<domain>-<yyyy-mm-dd>.tar.gz`, with anything a file name cannot hold replaced. */
export function defaultBundleName(domain: string | undefined, jobId: string, now = new Date()): string {
  const date = now.toISOString().slice(0, 10);
  const base = (domain ?? jobId).replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '') || 'bundle';
  return `docs-${base}-${date}.tar.gz`;
}

/** "12.3 MB of 45.6 MB (27 %) · 4.1 MB/s"; once every byte is on disk, "checking the archive: 30 %". */
export function describeProgress(p: DownloadProgress): string {
  if (p.phase === 'check') return vscode.l10n.t('checking the archive: {0} %', Math.floor((p.checked / Math.max(1, p.received)) * 100));
  const speed = p.bytesPerSecond > 0 ? ` · ${vscode.l10n.t('{0}/s', formatBytes(p.bytesPerSecond))}` : '';
  if (p.total === undefined || p.total === 0) return `${formatBytes(p.received)}${speed}`;
  return `${vscode.l10n.t('{0} of {1} ({2} %)', formatBytes(p.received), formatBytes(p.total), Math.floor((p.received / p.total) * 100))}${speed}`;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** The last folder used while it is there, else Downloads, else home: never the workspace (saveTarget.ts). */
function defaultFolder(deps: Deps): string {
  const isFolder = (path: string) => {
    try {
      return statSync(path).isDirectory();
    } catch {
      return false;
    }
  };
  return downloadFolder({ last: deps.context.globalState.get<string>(LAST_FOLDER), home: homedir(), isFolder });
}

export interface DownloadArgs {
  /** Skips the save dialog (tests, other commands). */
  target?: string;
  /** With `target`: replace an existing file. */
  replace?: boolean;
}

/**
 * Download Bundle: a save dialog, then a resumable download with progress and Cancel in a
 * notification, saved only once the archive is read through to its end (see download.ts). The
 * save dialog is where the user agrees to replace a file.
 */
export function register(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.export.downloadBundle', deps, async (node?: unknown, given?: DownloadArgs): Promise<DownloadResult | undefined> => {
      const args = optionsFromCode(deps, given, 'docsAdmin.export.downloadBundle');
      const key: JobKey | undefined = rowOrNone(deps, node, 'docsAdmin.export.downloadBundle')?.key ?? (await pickCompletedExport(deps, vscode.l10n.t('Docs Admin: download a bundle')));
      if (key === undefined) return undefined;
      const job = exportJobOf(deps, key);
      if (!job.completed) throw new Error(vscode.l10n.t('This export has not completed yet; its bundle can be downloaded once it has.'));
      let target = args.target;
      let replace = args.replace === true;
      if (target === undefined) {
        const uri = await deps.ui.saveDialog({
          title: vscode.l10n.t('Download the bundle of {0}', job.domain ?? job.id),
          defaultUri: vscode.Uri.file(join(defaultFolder(deps), defaultBundleName(job.domain, job.id))),
          // Types a dialog cannot double the suggested name with (saveTarget.ts).
          filters: { [vscode.l10n.t('Docs bundle')]: [...BUNDLE_FILE_TYPES] },
          saveLabel: vscode.l10n.t('Download'),
        });
        if (uri === undefined) return undefined;
        if (uri.scheme !== 'file') throw new Error(vscode.l10n.t('Choose a file on this machine\'s disk.'));
        target = uri.fsPath;
        // The save dialog has asked whether to replace an existing file.
        replace = await exists(target);
      }
      const chosen = target;
      const config = readConfig();
      const network = deps.session.network;
      const { downloadBundle } = await import('../../core/bundle/download/download.js');
      const result = await withCancellableProgress(deps.ui, vscode.l10n.t('Downloading the bundle of {0}', job.domain ?? job.id), (progress, signal) => {
        let shown = 0;
        return downloadBundle({
          target: chosen,
          replace,
          connections: config.downloadConnections,
          link: () => job.links.fresh(job.id, config.linkMinimumMs, { signal }),
          regenerate: () => job.links.regenerate(job.id, { signal }),
          timeLeft: (link) => job.links.timeLeft(link),
          signal,
          log: deps.log,
          ...(network === undefined ? {} : { network }),
          l10n: vscode.l10n.bundle,
          onProgress: (p) => {
            const percent = p.total === undefined || p.total === 0 ? undefined : (p.received / p.total) * 100;
            const increment = percent === undefined ? undefined : Math.max(0, percent - shown);
            if (percent !== undefined) shown = percent;
            progress.report(increment === undefined ? { message: describeProgress(p) } : { message: describeProgress(p), increment });
          },
        });
      });
      if (result === undefined) {
        void deps.messages.info(vscode.l10n.t('Download cancelled; nothing was saved.'));
        return undefined;
      }
      await deps.context.globalState.update(LAST_FOLDER, dirname(chosen));
      await deps.session.shelf?.update(job.id, { archive: chosen, archiveBytes: result.bytes, downloadedAt: Date.now() });
      const extract = vscode.l10n.t('Extract…');
      const reveal = vscode.l10n.t('Reveal');
      void deps.messages.info(vscode.l10n.t('Bundle saved and checked: {0} ({1}).', chosen, formatBytes(result.bytes)), extract, reveal).then((choice) => {
        if (choice === extract) void vscode.commands.executeCommand('docsAdmin.export.extractBundle', deps.nodes.of(key, 'export'));
        if (choice === reveal) void vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(chosen));
      });
      return result;
    }),
  ];
}
