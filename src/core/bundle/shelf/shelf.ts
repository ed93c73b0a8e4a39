/**
 * What this machine holds of each export job's bundle: the downloaded archive, the folder it
 * was extracted to, and a summary of what is in it. Persisted per environment through an
 * injected key-value store, so the tree still shows it after a reload.
 *
 * Every write reads the store first and changes only its job's entry, so another window's
 * records stay. What cannot be read is said once in the log and kept: a field of the wrong type
 * is left in its entry (the rest of the entry shows), an entry or a whole store value that is
 * not an object is set aside under `<key>.unreadable` before anything is written over it.
 */
import * as z from 'zod/mini';
import type { Logger } from '../../log';
import type { ShelfEntry } from './shelfRows';
import type { KeyValueStore } from '../../keyValueStore';


const count = () => z.int().check(z.nonnegative());
const fields = {
  archive: z.string(),
  archiveBytes: z.number(),
  downloadedAt: z.number(),
  folder: z.string(),
  extractedAt: z.number(),
  summary: z.object({
    pages: count(),
    files: count(),
    bytes: z.number().check(z.nonnegative()),
    types: z.record(z.string(), z.number()),
  }),
} as const;

type Fields = typeof fields;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class BundleShelf {
  private readonly listeners = new Set<(jobId: string) => void>();
  private readonly logged = new Set<string>();
  /** Each entry as last seen here, to tell what another window changed. */
  private seen = new Map<string, string>();

  constructor(
    private readonly store: KeyValueStore,
    private readonly storageKey: string,
    private readonly log: Logger,
  ) {
    this.seen = this.fingerprints();
  }

  private warnOnce(line: string): void {
    if (this.logged.has(line)) return;
    this.logged.add(line);
    this.log.warn(line);
  }

  private raw(): Record<string, unknown> {
    const value = this.store.get(this.storageKey);
    if (value === undefined || isRecord(value)) return value ?? {};
    this.warnOnce(`The bundle records in ${this.storageKey} cannot be read (not an object); they are kept as they are, and set aside before a new record is written.`);
    return {};
  }

  get(jobId: string): ShelfEntry | undefined {
    const value = this.raw()[jobId];
    if (value === undefined) return undefined;
    if (!isRecord(value)) {
      this.warnOnce(`Skipped an unreadable bundle record for export job ${jobId} (not an object); it is kept as it is.`);
      return undefined;
    }
    const entry: Record<string, unknown> = {};
    const bad: string[] = [];
    for (const [name, schema] of Object.entries(fields) as [keyof Fields, Fields[keyof Fields]][]) {
      if (value[name] === undefined) continue;
      const parsed = schema.safeParse(value[name]);
      if (parsed.success) entry[name] = parsed.data;
      else bad.push(name);
    }
    if (bad.length > 0 && Object.keys(entry).length === 0) {
      this.warnOnce(`Skipped an unreadable bundle record for export job ${jobId} (${bad.join(', ')}); it is kept as it is.`);
      return undefined;
    }
    if (bad.length > 0) this.warnOnce(`The bundle record for export job ${jobId} has unreadable ${bad.join(', ')}; the rest is shown, and nothing is removed.`);
    return entry;
  }

  /** Merges `change` into the job's entry (`undefined` values remove a field); fields it does not know are kept. */
  async update(jobId: string, change: { [K in keyof ShelfEntry]?: ShelfEntry[K] | undefined }): Promise<void> {
    await this.setAsideUnreadable(jobId);
    // Read and written with no await between: a parallel update in this window is not lost.
    const all = this.records();
    const old = all[jobId];
    const merged: Record<string, unknown> = isRecord(old) ? { ...old } : {};
    for (const [k, v] of Object.entries(change)) {
      if (v === undefined) delete merged[k];
      else merged[k] = v;
    }
    await this.write({ ...all, [jobId]: merged }, jobId);
  }

  async forget(jobId: string): Promise<void> {
    const all = this.records();
    if (!(jobId in all)) return;
    const rest = { ...all };
    delete rest[jobId];
    await this.write(rest, jobId);
  }

  /** Tells listeners of entries another window changed since this one last looked. */
  reload(): void {
    const now = this.fingerprints();
    const changed = [...new Set([...now.keys(), ...this.seen.keys()])].filter((id) => now.get(id) !== this.seen.get(id));
    this.seen = now;
    for (const id of changed) for (const listener of this.listeners) listener(id);
  }

  onDidChange(listener: (jobId: string) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private fingerprints(): Map<string, string> {
    return new Map(Object.entries(this.raw()).map(([id, value]) => [id, JSON.stringify(value)]));
  }

  /** The store's records (none when the value is not an object: it is set aside before a write). */
  private records(): Record<string, unknown> {
    const value = this.store.get(this.storageKey);
    return isRecord(value) ? value : {};
  }

  /** Before a write: a store value, or this job's entry, that is not an object goes under `<key>.unreadable`. */
  private async setAsideUnreadable(jobId: string): Promise<void> {
    const value = this.store.get(this.storageKey);
    if (value !== undefined && !isRecord(value)) {
      await this.setAside(this.storageKey, value);
      await this.store.update(this.storageKey, {});
      return;
    }
    const entry = isRecord(value) ? value[jobId] : undefined;
    if (entry !== undefined && !isRecord(entry)) await this.setAside(`${this.storageKey}[${jobId}]`, entry);
  }

  private async setAside(what: string, value: unknown): Promise<void> {
    const key = `${this.storageKey}.unreadable`;
    const kept: unknown = this.store.get(key);
    const list: unknown[] = Array.isArray(kept) ? (kept as unknown[]) : kept === undefined ? [] : [kept];
    await this.store.update(key, [...list, { from: what, value }]);
    this.log.warn(`Set the unreadable ${what} aside under ${key} before writing a new bundle record; nothing was removed.`);
  }

  private async write(all: Record<string, unknown>, jobId: string): Promise<void> {
    await this.store.update(this.storageKey, all);
    this.seen.set(jobId, JSON.stringify(all[jobId]));
    if (all[jobId] === undefined) this.seen.delete(jobId);
    for (const listener of this.listeners) listener(jobId);
  }
}
