/**
 * The jobs a person tracks, per environment. The contract has no list endpoint, so the
 * extension remembers job ids itself; this registry persists them (with the last snapshot
 * seen, so rows show at once after a reload) through an injected key-value store
 * (VS Code's globalState in the extension, a plain object in tests).
 *
 * Every window of VS Code shares that store: another window's writes reach this one's copy a
 * moment later, and nothing says so (microsoft/vscode#131182); this window's own copy can even
 * briefly show an older state while its writes travel. So this window's list is its own truth
 * for what it did, and the store is merged in: a job another window tracks is added, one it
 * stopped is dropped (a stop is marked with its time under `<key>.stopped`, so an older copy
 * of the job never brings it back, and tracking it again later does), a finished reading wins
 * over a running one. Every write puts this window's jobs onto the stored items as they are now,
 * so nothing another window wrote, nor anything this version cannot read, is lost. `reload()`
 * (when the window regains focus) merges without a change of its own.
 *
 * A stored entry that cannot be read is skipped with a log line (once per window) and kept as
 * it was, in place: it never wipes the list, and a newer version's entries and fields survive
 * an older version's save.
 */
import type { AgentJob } from '../api/apiTypes';
import type { Logger } from '../log';
import type { KeyValueStore } from '../keyValueStore';
import { isTerminal, jobKey, reopenedAt, type JobKey, type JobSnapshot, type TrackedJob } from './trackedJob';
import { parseStopped, parseStored, same, serializeStopped, writeBack, type StopMarks, type StoredJobs } from './storedJobs';

/** Where this window's rows changed because of other windows. */
export interface Elsewhere {
  added: JobKey[];
  removed: JobKey[];
  /** Jobs another window made active again (a follow-up). */
  reopened: JobKey[];
}

type Change =
  | { kind: 'add'; job: TrackedJob }
  | { kind: 'remove'; key: JobKey }
  | { kind: 'snapshot'; key: JobKey; snapshot: JobSnapshot }
  | { kind: 'reopen'; key: JobKey; snapshot: AgentJob; at: number };

export class JobRegistry {
  private jobs = new Map<JobKey, TrackedJob>();
  /** Every stop this window has seen or made, with its time. */
  private readonly stops: StopMarks = new Map();
  private unreadable = 0;
  private readonly logged = new Set<string>();
  private readonly listeners = new Set<(keys: JobKey[], elsewhere: Elsewhere) => void>();
  /** The store's value last read, and what it holds: parsed again only when it is another value. */
  private cache: { raw: unknown; parsed: StoredJobs } | undefined;

  constructor(
    private readonly store: KeyValueStore,
    private readonly storageKey: string,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.reload();
  }

  /** Merges what other windows did into this window's list; tells listeners what changed. */
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
  async updateSnapshot(key: JobKey, snapshot: JobSnapshot): Promise<boolean> {
    const job = this.jobs.get(key);
    if (job === undefined || same(job.snapshot, snapshot)) return false;
    await this.sync({ kind: 'snapshot', key, snapshot });
    return !same(this.jobs.get(key), job);
  }

  /**
   * An agent job that took a follow-up: active again, whatever it was (the one way a finished
   * job goes back to running). Marked with the time, so the other windows' older, finished
   * copies do not end it again.
   */
  async reopen(key: JobKey, snapshot: AgentJob, at: number = this.now()): Promise<void> {
    if (this.jobs.get(key)?.kind !== 'agent') return;
    await this.sync({ kind: 'reopen', key, snapshot, at });
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

  /** Whether the job was stopped (anywhere) after it was added. */
  private stopped(key: JobKey, addedAt: number): boolean {
    const at = this.stops.get(key);
    return at !== undefined && at >= addedAt;
  }

  /**
   * Applies `change` to this window's list, merges the store in, and writes back what differs.
   * Read, decide and write with no await in between.
   */
  private sync(change: Change | undefined): PromiseLike<unknown> | undefined {
    const stored = this.read();
    const stopsBefore = serializeStopped(this.stops);
    for (const [key, at] of parseStopped(this.store.get(this.stoppedKey))) if (at > (this.stops.get(key) ?? -Infinity)) this.stops.set(key, at);
    const before = this.jobs;
    const jobs = new Map(before);
    let own: JobKey | undefined;
    switch (change?.kind) {
      case 'add': {
        own = jobKey(change.job);
        // Tracked again after a stop: added after it, whatever the clocks say.
        const stop = this.stops.get(own);
        jobs.set(own, stop === undefined || change.job.addedAt > stop ? change.job : { ...change.job, addedAt: stop + 1 });
        break;
      }
      case 'remove':
        own = change.key;
        jobs.delete(own);
        this.stops.set(own, Math.max(this.now(), (before.get(own)?.addedAt ?? -Infinity) + 1));
        break;
      case 'snapshot': {
        const job = jobs.get(change.key);
        const updated = job === undefined ? undefined : ({ ...job, snapshot: change.snapshot } as TrackedJob);
        // A finished job does not go back to running from a late reading.
        if (job !== undefined && updated !== undefined && !(isTerminal(job) && !isTerminal(updated))) jobs.set(change.key, updated);
        break;
      }
      case 'reopen': {
        own = change.key;
        const job = jobs.get(change.key);
        if (job?.kind === 'agent') jobs.set(change.key, { ...job, reopenedAt: Math.max(change.at, (job.reopenedAt ?? 0) + 1, job.addedAt), snapshot: change.snapshot });
        break;
      }
      default:
        break;
    }
    // What other windows did: their jobs come in, their stops take ours out, a finished reading
    // wins, and a later reopening (a follow-up sent there) wins over everything.
    for (const [key, job] of stored.jobs) {
      if (this.stopped(key, job.addedAt)) continue;
      const mine = jobs.get(key);
      if (mine === undefined) {
        if (key !== own) jobs.set(key, job);
      } else if (reopenedAt(job) > reopenedAt(mine)) jobs.set(key, job);
      else if (isTerminal(job) && !isTerminal(mine) && reopenedAt(job) === reopenedAt(mine)) jobs.set(key, { ...mine, snapshot: job.snapshot } as TrackedJob);
    }
    for (const [key, job] of jobs) if (this.stopped(key, job.addedAt)) jobs.delete(key);

    const writes: PromiseLike<void>[] = [];
    const stops = serializeStopped(this.stops);
    // The stop first: a window that sees the shorter list sees why.
    if (!same(stops, stopsBefore) || !same(stops, serializeStopped(parseStopped(this.store.get(this.stoppedKey))))) writes.push(this.store.update(this.stoppedKey, stops));
    const next = writeBack(stored, jobs, (key, addedAt) => this.stopped(key, addedAt));
    if (next !== stored) {
      writes.push(this.store.update(this.storageKey, next.items));
      // The store may keep a copy of its own (ExtHostMemento clones what it is given): that is what the next read gets.
      this.cache = { raw: this.store.get(this.storageKey), parsed: next };
    }
    this.adopt(jobs, stored.unreadable, own);
    return writes.length === 0 ? undefined : Promise.all(writes);
  }

  /** Takes `jobs` as this window's list; tells listeners which rows changed, and which came or went elsewhere. */
  private adopt(jobs: Map<JobKey, TrackedJob>, unreadable: number, own: JobKey | undefined): void {
    const before = this.jobs;
    this.jobs = jobs;
    this.unreadable = unreadable;
    const changed: JobKey[] = [];
    const elsewhere: Elsewhere = { added: [], removed: [], reopened: [] };
    for (const [key, job] of jobs) {
      const old = before.get(key);
      if (old === undefined && key !== own) elsewhere.added.push(key);
      if (old !== undefined && key !== own && reopenedAt(job) > reopenedAt(old)) elsewhere.reopened.push(key);
      if (old === undefined || (old !== job && !same(old, job))) changed.push(key);
    }
    for (const key of before.keys()) {
      if (jobs.has(key)) continue;
      changed.push(key);
      if (key !== own) elsewhere.removed.push(key);
    }
    if (changed.length === 0) return;
    for (const listener of this.listeners) listener(changed, elsewhere);
  }
}
