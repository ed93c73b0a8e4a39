/** What the views show of a bundle on this machine: light (no validation library), pure. */
import * as l10n from '@vscode/l10n';
import { formatBytes } from '../../formatUnits';

export interface BundleSummary {
  pages: number;
  files: number;
  bytes: number;
  /** File extension (lower case, without the dot; '' for none) -> how many files. */
  types: Record<string, number>;
}

export interface ShelfEntry {
  archive?: string;
  archiveBytes?: number;
  downloadedAt?: number;
  folder?: string;
  extractedAt?: number;
  summary?: BundleSummary;
}

/** "9 pages · 14.2 KB" and "html 7 · css 1 · js 1" (most common first). */
export function describeSummary(summary: BundleSummary): { headline: string; types: string } {
  const types = Object.entries(summary.types)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 6)
    .map(([ext, n]) => `${ext === '' ? l10n.t('(none)') : ext} ${n}`)
    .join(' · ');
  const pages = summary.pages === 1 ? l10n.t('{0} page', summary.pages) : l10n.t('{0} pages', summary.pages);
  return { headline: `${pages} · ${formatBytes(summary.bytes)}`, types };
}

export interface ShelfRow {
  part: 'archive' | 'folder';
  label: string;
  description: string;
  icon: string;
  contextValue: 'exportJob.bundle.archive' | 'exportJob.bundle.folder';
  details: string[];
}

/** The rows under an export job: its downloaded archive and its extracted folder. */
export function shelfRows(entry: ShelfEntry | undefined): ShelfRow[] {
  const rows: ShelfRow[] = [];
  if (entry?.archive !== undefined) {
    const name = entry.archive.split(/[\\/]/).pop() ?? entry.archive;
    rows.push({
      part: 'archive',
      label: l10n.t({ message: 'Downloaded', comment: ['The row of a bundle archive downloaded to this computer.'] }),
      description: entry.archiveBytes === undefined ? name : `${name} · ${formatBytes(entry.archiveBytes)}`,
      icon: 'file-zip',
      contextValue: 'exportJob.bundle.archive',
      details: [l10n.t('Archive: {0}', entry.archive), ...(entry.downloadedAt === undefined ? [] : [l10n.t('Downloaded: {0}', new Date(entry.downloadedAt).toLocaleString())])],
    });
  }
  if (entry?.folder !== undefined) {
    const summary = entry.summary === undefined ? undefined : describeSummary(entry.summary);
    rows.push({
      part: 'folder',
      label:
        summary === undefined
          ? l10n.t({ message: 'Extracted', comment: ['The row of the folder a bundle was extracted into.'] })
          : l10n.t({ message: 'Extracted: {0}', args: [summary.headline], comment: ['The row of the folder a bundle was extracted into; {0} is its page count and size, such as "9 pages · 14.2 KB".'] }),
      description: summary?.types ?? '',
      icon: 'folder',
      contextValue: 'exportJob.bundle.folder',
      details: [
        l10n.t('Folder: {0}', entry.folder),
        ...(entry.summary === undefined ? [] : [l10n.t('{0} files, {1}', entry.summary.files, summary?.headline ?? ''), l10n.t('Types: {0}', summary?.types ?? '')]),
        ...(entry.extractedAt === undefined ? [] : [l10n.t({ message: 'Extracted: {0}', args: [new Date(entry.extractedAt).toLocaleString()], comment: ['When the bundle was extracted; {0} is a date and time.'] })]),
      ],
    });
  }
  return rows;
}
