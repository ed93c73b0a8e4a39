/**
 * The facts of files already parsed, keyed by their content (a SHA-1 of the text, with the
 * format of the facts), kept in one JSON file between runs: a run where nothing changed parses
 * nothing. Only entries of the files the last run saw are kept, so it does not grow. Written to
 * a temporary file first and renamed, so a run stopped half-way leaves the old cache whole.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { FileFacts } from './siteTypes';

/** Changes whenever what facts.ts, anchors.ts or slug.ts produce for a text changes. */
export const FACTS_FORMAT = 'docs-admin-site-facts-2';

export function contentKey(text: string): string {
  return createHash('sha1').update(FACTS_FORMAT).update('\0').update(text).digest('hex');
}

/** The per-user cache file of a docs root: `$XDG_CACHE_HOME/docs-admin/site/<hash of the root>.json` (~/.cache by default). */
export function defaultCacheFile(root: string, env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== '' ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return join(base, 'docs-admin', 'site', `${createHash('sha1').update(resolve(root)).digest('hex').slice(0, 16)}.json`);
}

export class FactsCache {
  private readonly entries: Map<string, FileFacts>;
  private readonly used = new Map<string, FileFacts>();
  private dirty = false;

  private constructor(
    private readonly file: string | undefined,
    entries: Map<string, FileFacts>,
  ) {
    this.entries = entries;
  }

  /** The cache in `file` (empty when it is missing or unreadable: it is only a cache); no file: in memory only. */
  static open(file: string | undefined): FactsCache {
    let entries = new Map<string, FileFacts>();
    if (file !== undefined) {
      try {
        const data = JSON.parse(readFileSync(file, 'utf8')) as { format?: string; entries?: Record<string, FileFacts> };
        if (data.format === FACTS_FORMAT && typeof data.entries === 'object' && data.entries !== null) entries = new Map(Object.entries(data.entries));
      } catch {
        // No cache yet, or not one of ours.
      }
    }
    return new FactsCache(file, entries);
  }

  get(key: string): FileFacts | undefined {
    const facts = this.entries.get(key);
    if (facts !== undefined) this.used.set(key, facts);
    return facts;
  }

  set(key: string, facts: FileFacts): void {
    this.dirty = true;
    this.entries.set(key, facts);
    this.used.set(key, facts);
  }

  /** Writes the entries this run used, when it parsed anything or some were not used (a no-op in memory). */
  save(): void {
    if (this.file === undefined || (!this.dirty && this.used.size === this.entries.size)) return;
    mkdirSync(dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify({ format: FACTS_FORMAT, entries: Object.fromEntries(this.used) }));
    renameSync(temporary, this.file);
  }
}
