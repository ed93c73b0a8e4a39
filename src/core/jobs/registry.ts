/**
 * The jobs a person tracks, per environment. The contract has no list endpoint, so the
 * extension remembers job ids itself; this registry persists them (with the last snapshot
 * seen, so rows show at once after a reload) through an injected key-value store
 * (VS Code's globalState in the extension, a plain object in tests).
 *
 * A stored entry that cannot be read is skipped with a log line and kept as it was: it never
 * wipes the list, and a newer version's entries survive an older version's save.
 */
import * as z from 'zod/mini';
import { describeIssue } from '../api/schemas';
import type { Logger } from '../log';
import type { AgentJob, ExportJob } from '../api/types';

export interface KeyValueStore {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

export { jobKey, type JobKey, type TrackedJob } from './jobKey';
import { jobKey, type JobKey, type TrackedJob } from './jobKey';

const snapshotBase = { status: z.string(), rawStatus: z.string() };
const agentSnapshot = z.looseObject({
  ...snapshotBase,
  id: z.string(),
  source: z.object({ repository: z.string(), ref: z.nullable(z.string()) }),
  model: z.string(),
  prLink: z.nullable(z.string()),
  createdAt: z.string(),
  archivedAt: z.nullable(z.string()),
});
const exportSnapshot = z.looseObject({ ...snapshotBase, jobId: z.string() });
const id = z.string().check(z.minLength(1));
const entrySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('agent'), id, addedAt: z.number(), snapshot: z.optional(agentSnapshot) }),
  z.object({ kind: z.literal('export'), id, addedAt: z.number(), domain: z.optional(z.string()), snapshot: z.optional(exportSnapshot) }),
]);

export class JobRegistry {
  private readonly jobs = new Map<JobKey, TrackedJob>();
  private unreadable: unknown[] = [];
  private readonly listeners = new Set<(keys: JobKey[]) => void>();

  constructor(
    private readonly store: KeyValueStore,
    private readonly storageKey: string,
    private readonly log: Logger,
  ) {
    this.reload();
  }

  /** Reads the store again (another window may have written it). */
  reload(): void {
    const raw = this.store.get(this.storageKey);
    this.jobs.clear();
    this.unreadable = [];
    if (raw === undefined) return;
    if (!Array.isArray(raw)) {
      this.log.warn(`Tracked jobs in ${this.storageKey} are not a list; keeping them untouched and starting empty.`);
      this.unreadable = [raw];
      return;
    }
    for (const [index, item] of raw.entries()) {
      const parsed = entrySchema.safeParse(item);
      if (parsed.success) {
        const job = parsed.data as TrackedJob;
        this.jobs.set(jobKey(job), job);
      } else {
        this.log.warn(`Skipped tracked job #${index} in ${this.storageKey}: it cannot be read (${parsed.error.issues[0]?.path.join('.') || 'the entry'} ${describeIssue(parsed.error.issues[0])}).`);
        this.unreadable.push(item);
      }
    }
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
    return this.unreadable.length;
  }

  async add(job: TrackedJob): Promise<void> {
    const key = jobKey(job);
    if (this.jobs.has(key)) return;
    this.jobs.set(key, job);
    await this.save([key]);
  }

  async remove(key: JobKey): Promise<void> {
    if (this.jobs.delete(key)) await this.save([key]);
  }

  /** Records the latest snapshot; tells listeners only when something they show changed. */
  async updateSnapshot(key: JobKey, snapshot: AgentJob | ExportJob): Promise<boolean> {
    const job = this.jobs.get(key);
    if (job === undefined) return false;
    if (JSON.stringify(job.snapshot) === JSON.stringify(snapshot)) return false;
    this.jobs.set(key, { ...job, snapshot } as TrackedJob);
    await this.save([key]);
    return true;
  }

  onDidChange(listener: (keys: JobKey[]) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private async save(changed: JobKey[]): Promise<void> {
    for (const listener of this.listeners) listener(changed);
    await this.store.update(this.storageKey, [...this.jobs.values(), ...this.unreadable]);
  }
}
