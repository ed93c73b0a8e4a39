/**
 * What this machine holds of each export job's bundle: the downloaded archive, the folder it
 * was extracted to, and a summary of what is in it. Persisted per environment through an
 * injected key-value store, so the tree still shows it after a reload. An unreadable entry is
 * skipped with a log line and kept as it was.
 */
import * as z from 'zod/mini';
import type { KeyValueStore } from '../jobs/registry';
import type { Logger } from '../log';
import type { ShelfEntry } from './shelfRows';

export { describeSummary, formatBytes, shelfRows, type BundleSummary, type ShelfEntry, type ShelfRow } from './shelfRows';


const count = () => z.int().check(z.nonnegative());
const summarySchema = z.object({
  pages: count(),
  files: count(),
  bytes: z.number().check(z.nonnegative()),
  types: z.record(z.string(), z.number()),
});
const entrySchema = z.object({
  archive: z.optional(z.string()),
  archiveBytes: z.optional(z.number()),
  downloadedAt: z.optional(z.number()),
  folder: z.optional(z.string()),
  extractedAt: z.optional(z.number()),
  summary: z.optional(summarySchema),
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
