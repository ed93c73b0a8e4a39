/** What the views show of a bundle on this machine: light (no validation library), pure. */

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
    .map(([ext, n]) => `${ext === '' ? '(none)' : ext} ${n}`)
    .join(' · ');
  return { headline: `${summary.pages} page${summary.pages === 1 ? '' : 's'} · ${formatBytes(summary.bytes)}`, types };
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${units[unit]}`;
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
      label: 'Downloaded',
      description: entry.archiveBytes === undefined ? name : `${name} · ${formatBytes(entry.archiveBytes)}`,
      icon: 'file-zip',
      contextValue: 'exportJob.bundle.archive',
      details: [`Archive: ${entry.archive}`, ...(entry.downloadedAt === undefined ? [] : [`Downloaded: ${new Date(entry.downloadedAt).toLocaleString()}`])],
    });
  }
  if (entry?.folder !== undefined) {
    const summary = entry.summary === undefined ? undefined : describeSummary(entry.summary);
    rows.push({
      part: 'folder',
      label: summary === undefined ? 'Extracted' : `Extracted: ${summary.headline}`,
      description: summary?.types ?? '',
      icon: 'folder',
      contextValue: 'exportJob.bundle.folder',
      details: [
        `Folder: ${entry.folder}`,
        ...(entry.summary === undefined ? [] : [`${entry.summary.files} files, ${summary?.headline ?? ''}`, `Types: ${summary?.types ?? ''}`]),
        ...(entry.extractedAt === undefined ? [] : [`Extracted: ${new Date(entry.extractedAt).toLocaleString()}`]),
      ],
    });
  }
  return rows;
}
