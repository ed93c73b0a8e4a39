/**
 * The jobs a person tracks, per environment. The contract has no list endpoint, so the
 * extension remembers job ids itself; this registry persists them (with the last snapshot
 * seen, so rows show at once after a reload) through an injected key-value store
 * (VS Code's globalState in the extension, a plain object in tests).
 *
 * Every window of VS Code shares that store: another window's writes reach this one's copy a
 * moment later, and nothing says so (microsoft/vscode#131182). So a write never puts this
 * window's whole list back: it reads the store again and applies this window's one change (an
 * add, a removal, a snapshot) to what is there (storedJobs.ts); and `reload()`, when the window
 * regains focus, brings in what other windows did. A stop is also marked under
 * `<key>.stopped`, so that two writes crossing each other can be told apart from a stop: a job
 * this window tracks that a crossing write dropped is put back, one stopped elsewhere is not.
 *
 * A stored entry that cannot be read is skipped with a log line (once per window) and kept as
 * it was, in place: it never wipes the list, and a newer version's entries and fields survive
 * an older version's save.
 */
import type { AgentJob, ExportJob } from '../api/types';
import type { Logger } from '../log';
import { applyChange, MAX_STOPPED, parseStopped, parseStored, same, type Change, type StoredJobs } from './storedJobs';

export interface KeyValueStore {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

export { jobKey, type JobKey, type TrackedJob } from './jobKey';
export { MAX_SHOWN_JOBS } from './storedJobs';
import { jobKey, type JobKey, type TrackedJob } from './jobKey';

/** Where this window's rows changed because of other windows. */
export interface Elsewhere {
  added: JobKey[];
  removed: JobKey[];
}

export class JobRegistry {
  private jobs = new Map<JobKey, TrackedJob>();
  private unreadable = 0;
  private readonly logged = new Set<string>();
  private readonly listeners = new Set<(keys: JobKey[], elsewhere: Elsewhere) => void>();
  /** The store's value last read or written, and what it holds: parsed again only when another window replaced it. */
  private cache: { raw: unknown; parsed: StoredJobs } | undefined;

  constructor(
    private readonly store: KeyValueStore,
    private readonly storageKey: string,
    private readonly log: Logger,
  ) {
    this.reload();
  }

  /** Reads the store again (other windows may have written it); tells listeners what changed. */
  reload(): void {
    const written = this.sync(undefined);
    if (written !== undefined) written.then(undefined, (error: unknown) => this.log.warn(`Could not save the tracked jobs of ${this.storageKey}: ${error instanceof Error ? error.message : String(error)}`));
  }

  list(): TrackedJob[] {
    return [...this.jobs.values()];
  }

  get(key: JobKey): TrackedJob | undefined {
    return this.jobs.get(key);
  }

  has(key: JobKey): boolean {
    return this.jobs.has(key);
  }

  /** Entries the store holds that could not be read (kept, never written over). */
  get unreadableCount(): number {
    return this.unreadable;
  }

  async add(job: TrackedJob): Promise<void> {
    if (this.jobs.has(jobKey(job))) return;
    await this.sync({ kind: 'add', job });
  }

  async remove(key: JobKey): Promise<void> {
    await this.sync({ kind: 'remove', key });
  }

  /**
   * Records the latest snapshot; tells listeners only when something they show changed.
   * Returns whether this window's copy of the job changed.
   */
  async updateSnapshot(key: JobKey, snapshot: AgentJob | ExportJob): Promise<boolean> {
    const job = this.jobs.get(key);
    if (job === undefined || same(job.snapshot, snapshot)) return false;
    await this.sync({ kind: 'snapshot', key, snapshot });
    return !same(this.jobs.get(key), job);
  }

  /** `keys`: rows that changed; `elsewhere`: jobs other windows added or stopped tracking. */
  onDidChange(listener: (keys: JobKey[], elsewhere: Elsewhere) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private get stoppedKey(): string {
    return `${this.storageKey}.stopped`;
  }

  private read(): StoredJobs {
    const raw = this.store.get(this.storageKey);
    if (this.cache !== undefined && raw === this.cache.raw && raw !== undefined) return this.cache.parsed;
    const parsed = parseStored(raw, this.storageKey);
    this.cache = { raw, parsed };
    for (const problem of parsed.problems) {
      // Said once per window, not at every reload.
      if (this.logged.has(problem)) continue;
      this.logged.add(problem);
      this.log.warn(problem);
    }
    return parsed;
  }

  /**
   * Brings this window's list in line with the store, applying `change` if any. Read, decide and
   * write with no await in between: a store's own copy is updated at once by `update`.
   */
  private sync(change: Change | undefined): PromiseLike<unknown> | undefined {
    const before = this.read();
    const stoppedBefore = parseStopped(this.store.get(this.stoppedKey));
    const own = change === undefined || change.kind === 'snapshot' ? undefined : change.kind === 'add' ? jobKey(change.job) : change.key;
    let stored = before;
    let stopped = stoppedBefore;
    const stoppedSet = new Set(stopped);
    // Crossing writes: a job stopped elsewhere that another window's write kept is dropped;
    const storedKeys = new Set(stored.keys);
    for (const key of stoppedSet) if (storedKeys.has(key) && !(change?.kind === 'add' && key === own)) stored = applyChange(stored, { kind: 'remove', key }) ?? stored;
    // a job this window tracks that another window's write dropped, with no stop, is put back.
    for (const [key, job] of this.jobs) if (!storedKeys.has(key) && !stoppedSet.has(key) && key !== own) stored = applyChange(stored, { kind: 'add', job }) ?? stored;
    if (change !== undefined) {
      if (own !== undefined) stopped = stopped.filter((k) => k !== own);
      if (change.kind === 'remove') stopped = [...stopped, change.key].slice(-MAX_STOPPED);
      stored = applyChange(stored, change) ?? stored;
    }
    const writes: PromiseLike<void>[] = [];
    // The stop first: a window that sees the shorter list sees why.
    if (!same(stopped, stoppedBefore)) writes.push(this.store.update(this.stoppedKey, stopped));
    if (stored !== before) {
      writes.push(this.store.update(this.storageKey, stored.items));
      this.cache = { raw: stored.items, parsed: stored };
    }
    this.adopt(stored, own);
    return writes.length === 0 ? undefined : Promise.all(writes);
  }

  /** Takes `stored` as this window's list; tells listeners which rows changed, and which came or went elsewhere. */
  private adopt(stored: StoredJobs, own: JobKey | undefined): void {
    const before = this.jobs;
    this.jobs = stored.jobs;
    this.unreadable = stored.unreadable;
    const changed: JobKey[] = [];
    const elsewhere: Elsewhere = { added: [], removed: [] };
    for (const [key, job] of this.jobs) {
      const old = before.get(key);
      if (old === undefined && key !== own) elsewhere.added.push(key);
      if (old === undefined || !same(old, job)) changed.push(key);
    }
    for (const key of before.keys()) {
      if (this.jobs.has(key)) continue;
      changed.push(key);
      if (key !== own) elsewhere.removed.push(key);
    }
    if (changed.length === 0) return;
    for (const listener of this.listeners) listener(changed, elsewhere);
  }
}
