/**
 * The analytics of each date range, in memory only (nothing is written anywhere), loaded on
 * first need and kept for `ttlMs`: a view or a page that asks again within that time is answered
 * from here, with no request. Not polled: once the time is up, the data stays shown, and the next
 * need loads it again. One load per range at a time (callers share it); the last few ranges are
 * kept. `dispose()` cancels loads under way.
 */
import { AbortedError } from '../abort';
import { rangeKey } from './period';
import type { SiteAnalytics } from './site';
import type { DateRange } from './analyticsTypes';

export interface StoreOptions {
  load(range: DateRange, signal: AbortSignal): Promise<SiteAnalytics>;
  ttlMs: number;
  now?: () => number;
  /** Ranges kept (the least recently used goes first). */
  keep?: number;
}

export type RangeState =
  | { kind: 'empty' }
  | { kind: 'loading'; previous?: SiteAnalytics }
  | { kind: 'ready'; site: SiteAnalytics; fresh: boolean }
  | { kind: 'failed'; error: Error; previous?: SiteAnalytics };

interface Entry {
  site?: SiteAnalytics;
  loading?: Promise<SiteAnalytics>;
  controller?: AbortController;
  error?: Error;
}

export class AnalyticsStore {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<(range: DateRange) => void>();
  private disposed = false;

  constructor(private readonly options: StoreOptions) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private fresh(site: SiteAnalytics): boolean {
    return this.now() - site.fetchedAt < this.options.ttlMs;
  }

  /** What is known of a range now, without asking the server. */
  state(range: DateRange): RangeState {
    const entry = this.entries.get(rangeKey(range));
    if (entry === undefined) return { kind: 'empty' };
    if (entry.loading !== undefined) return { kind: 'loading', ...(entry.site === undefined ? {} : { previous: entry.site }) };
    if (entry.error !== undefined) return { kind: 'failed', error: entry.error, ...(entry.site === undefined ? {} : { previous: entry.site }) };
    if (entry.site !== undefined) return { kind: 'ready', site: entry.site, fresh: this.fresh(entry.site) };
    return { kind: 'empty' };
  }

  /** The data in memory for a range, fresh or not (for showing while a new load runs). */
  peek(range: DateRange): SiteAnalytics | undefined {
    return this.entries.get(rangeKey(range))?.site;
  }

  /** The range's data: from memory while fresh, else loaded (once, whoever else asks meanwhile). `force` loads anyway. */
  get(range: DateRange, force = false): Promise<SiteAnalytics> {
    if (this.disposed) return Promise.reject(new AbortedError());
    const key = rangeKey(range);
    const entry = this.entries.get(key) ?? {};
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (entry.loading !== undefined) return entry.loading;
    if (!force && entry.error === undefined && entry.site !== undefined && this.fresh(entry.site)) return Promise.resolve(entry.site);
    const controller = new AbortController();
    entry.controller = controller;
    delete entry.error;
    entry.loading = this.options.load(range, controller.signal).then(
      (site) => {
        if (this.entries.get(key) === entry) {
          entry.site = site;
          delete entry.loading;
          delete entry.controller;
          this.changed(range);
        }
        return site;
      },
      (error: unknown) => {
        if (this.entries.get(key) === entry) {
          entry.error = error instanceof Error ? error : new Error(String(error));
          delete entry.loading;
          delete entry.controller;
          this.changed(range);
        }
        throw error;
      },
    );
    this.trim();
    this.changed(range);
    return entry.loading;
  }

  /** Forgets every range (the environment or the settings changed); loads under way are cancelled. */
  clear(): void {
    for (const entry of this.entries.values()) entry.controller?.abort();
    const ranges = [...this.entries.keys()];
    this.entries.clear();
    for (const key of ranges) {
      const [from = '', to = ''] = key.split('..');
      this.changed({ from, to });
    }
  }

  onDidChange(listener: (range: DateRange) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private trim(): void {
    const keep = this.options.keep ?? 4;
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= keep) break;
      if (entry.loading !== undefined) continue;
      this.entries.delete(key);
    }
  }

  private changed(range: DateRange): void {
    for (const listener of this.listeners) listener(range);
  }

  dispose(): void {
    this.disposed = true;
    for (const entry of this.entries.values()) entry.controller?.abort();
    this.entries.clear();
    this.listeners.clear();
  }
}
