/**
 * What this machine holds of each export job's bundle: the downloaded archive, the folder it
 * was extracted to, and a summary of what is in it. Persisted per environment through an
 * injected key-value store, so the tree still shows it after a reload. An unreadable entry is
 * skipped with a log line and kept as it was.
 */
import { z } from 'zod';
import type { KeyValueStore } from '../jobs/registry';
import type { Logger } from '../log';

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

const summarySchema = z.object({
  pages: z.number().int().nonnegative(),
  files: z.number().int().nonnegative(),
  bytes: z.number().nonnegative(),
  types: z.record(z.string(), z.number()),
});
const entrySchema = z.object({
  archive: z.string().optional(),
  archiveBytes: z.number().optional(),
  downloadedAt: z.number().optional(),
  folder: z.string().optional(),
  extractedAt: z.number().optional(),
  summary: summarySchema.optional(),
});

export class BundleShelf {
  private readonly listeners = new Set<(jobId: string) => void>();

  constructor(
    private readonly store: KeyValueStore,
    private readonly storageKey: string,
    private readonly log: Logger,
  ) {}

  private raw(): Record<string, unknown> {
    const value = this.store.get(this.storageKey);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  }

  get(jobId: string): ShelfEntry | undefined {
    const value = this.raw()[jobId];
    if (value === undefined) return undefined;
    const parsed = entrySchema.safeParse(value);
    if (!parsed.success) {
      this.log.warn(`Skipped an unreadable bundle record for export job ${jobId}.`);
      return undefined;
    }
    const entry: ShelfEntry = {};
    for (const [k, v] of Object.entries(parsed.data)) if (v !== undefined) (entry as Record<string, unknown>)[k] = v;
    return entry;
  }

  /** Merges `change` into the job's entry (`undefined` values remove a field). */
  async update(jobId: string, change: { [K in keyof ShelfEntry]?: ShelfEntry[K] | undefined }): Promise<void> {
    const all = { ...this.raw() };
    const merged: Record<string, unknown> = { ...(this.get(jobId) ?? {}) };
    for (const [k, v] of Object.entries(change)) {
      if (v === undefined) delete merged[k];
      else merged[k] = v;
    }
    all[jobId] = merged;
    await this.store.update(this.storageKey, all);
    for (const listener of this.listeners) listener(jobId);
  }

  async forget(jobId: string): Promise<void> {
    const all = { ...this.raw() };
    if (!(jobId in all)) return;
    delete all[jobId];
    await this.store.update(this.storageKey, all);
    for (const listener of this.listeners) listener(jobId);
  }

  onDidChange(listener: (jobId: string) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
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
