/**
 * The tracked-jobs list as it sits in storage, read and written back without I/O. Readable
 * entries become jobs; the rest are kept as they are, in place. This window's jobs are written
 * onto the stored items, never as a list rebuilt from memory, so whatever this version cannot
 * read, and whatever another window wrote, stays. Stops are marked with their time, so a job
 * stopped in one window is not brought back by another's older copy, while one tracked again
 * after the stop is.
 */
import * as z from 'zod/mini';
import { describeIssue } from '../api/jobSchemas';
import { isTerminal, jobKey, parseJobKey, reopenedAt, type JobKey, type TrackedJob } from './trackedJob';

/**
 * The most jobs one environment shows and polls. A list far longer than anyone tracks by hand
 * (a corrupted or runaway store) would otherwise poll the API thousands of times and redraw
 * thousands of rows; the newest are shown, the rest are kept in the store as they are.
 */
export const MAX_SHOWN_JOBS = 2_000;

/** An agent job as `parseAgentJob` gives it: only id and status are sure (the vendor's API requires no field). */
const agentSnapshot = z.looseObject({
  status: z.string(),
  rawStatus: z.optional(z.string()),
  id: z.string(),
  source: z.looseObject({ repository: z.optional(z.string()), ref: z.nullable(z.string()) }),
  model: z.optional(z.string()),
  prLink: z.nullable(z.string()),
  createdAt: z.optional(z.string()),
  archivedAt: z.nullable(z.string()),
});
const exportSnapshot = z.looseObject({ status: z.string(), rawStatus: z.string(), jobId: z.string() });
const deploymentSnapshot = z.looseObject({ status: z.string(), rawStatus: z.string(), id: z.string(), logLines: z.number() });
const id = z.string().check(z.minLength(1));
const target = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('production') }),
  z.object({ kind: z.literal('preview'), branch: z.string(), previewUrl: z.optional(z.string()), agentJobId: z.optional(z.string()) }),
]);
const entrySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('agent'), id, addedAt: z.number(), reopenedAt: z.optional(z.number()) }),
  z.object({ kind: z.literal('export'), id, addedAt: z.number(), domain: z.optional(z.string()) }),
  z.object({ kind: z.literal('deployment'), id, addedAt: z.number(), target: z.optional(target) }),
]);

export interface StoredJobs {
  /** The stored items as they are, readable or not. */
  items: unknown[];
  /** Each readable item's key, by position. */
  keys: (JobKey | undefined)[];
  /** The jobs shown (at most MAX_SHOWN_JOBS). */
  jobs: Map<JobKey, TrackedJob>;
  unreadable: number;
  /** Log lines: what could not be read, and what was done about it. */
  problems: string[];
}

export function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** One stored item: the job it holds (its snapshot only when readable), or why it cannot be read. */
function readItem(item: unknown): { job: TrackedJob; note?: string } | { problem: string } {
  const parsed = entrySchema.safeParse(item, { reportInput: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { problem: `${issue?.path.join('.') || 'the entry'} ${describeIssue(issue)}` };
  }
  const job = parsed.data as TrackedJob;
  const snapshot = (item as { snapshot?: unknown }).snapshot;
  if (snapshot === undefined) return { job };
  const read = (job.kind === 'agent' ? agentSnapshot : job.kind === 'export' ? exportSnapshot : deploymentSnapshot).safeParse(snapshot, { reportInput: true });
  if (read.success) return { job: { ...job, snapshot: read.data } as TrackedJob };
  // For the log only (the registry writes `problems` there, in English for support).
  // eslint-disable-next-line no-restricted-syntax
  return { job, note: `its last reading cannot be read (${describeIssue(read.error.issues[0])}); it will be asked for again` };
}

export function parseStored(raw: unknown, storageKey: string): StoredJobs {
  const out: StoredJobs = { items: [], keys: [], jobs: new Map(), unreadable: 0, problems: [] };
  if (raw === undefined) return out;
  if (raw === null) {
    out.problems.push(`Tracked jobs in ${storageKey} were null; starting empty.`);
    return out;
  }
  if (!Array.isArray(raw)) {
    out.problems.push(`Tracked jobs in ${storageKey} are not a list (${typeof raw}); keeping the value untouched and starting empty.`);
    return { ...out, items: [raw], keys: [undefined], unreadable: 1 };
  }
  out.items = raw;
  for (const [index, item] of raw.entries()) {
    const read = readItem(item);
    if ('problem' in read) {
      out.problems.push(`Skipped tracked job #${index} in ${storageKey}: it cannot be read (${read.problem}); it is kept as it is.`);
      out.keys.push(undefined);
      out.unreadable++;
      continue;
    }
    const key = jobKey(read.job);
    out.keys.push(key);
    if (read.note !== undefined) out.problems.push(`Tracked job ${key} in ${storageKey}: ${read.note}.`);
    const first = out.jobs.get(key);
    if (first === undefined) out.jobs.set(key, read.job);
    else {
      out.problems.push(`Tracked job ${key} is listed more than once in ${storageKey}; showing it once.`);
      // The copy that has reached its end tells more (unless it was reopened since).
      if (!isTerminal(first) && isTerminal(read.job) && reopenedAt(read.job) >= reopenedAt(first)) out.jobs.set(key, { ...first, snapshot: read.job.snapshot } as TrackedJob);
    }
  }
  if (out.jobs.size > MAX_SHOWN_JOBS) {
    out.problems.push(`${storageKey} tracks ${out.jobs.size} jobs; the newest ${MAX_SHOWN_JOBS} are shown and polled, the others are kept as they are. Stop tracking the jobs you no longer need.`);
    const shown = new Set([...out.jobs.values()].sort((a, b) => b.addedAt - a.addedAt).slice(0, MAX_SHOWN_JOBS).map(jobKey));
    out.jobs = new Map([...out.jobs].filter(([key]) => shown.has(key)));
  }
  return out;
}

/**
 * The stored items brought in line with this window's jobs: an item stopped (by `isStopped`) is
 * left out, an item of a job this window shows takes its fields (the ones it does not know are
 * kept), a job this window shows that the store lacks is appended. Unreadable items stay in
 * place. Gives what is stored then, or `stored` itself when nothing differs.
 */
export function writeBack(stored: StoredJobs, shown: ReadonlyMap<JobKey, TrackedJob>, isStopped: (key: JobKey, addedAt: number) => boolean): StoredJobs {
  let dirty = false;
  const present = new Set<JobKey>();
  const items: unknown[] = [];
  const keys: (JobKey | undefined)[] = [];
  for (const [i, item] of stored.items.entries()) {
    const key = stored.keys[i];
    const job = key === undefined ? undefined : shown.get(key);
    if (key !== undefined && job === undefined && isStopped(key, (item as { addedAt: number }).addedAt)) {
      dirty = true;
      continue;
    }
    if (key !== undefined) present.add(key);
    // Fields this version does not know, and a reading it could not read (until a new one), stay.
    const merged = job === undefined || job === stored.jobs.get(key as JobKey) ? item : { ...(item as object), ...job };
    if (merged !== item && !same(merged, item)) dirty = true;
    items.push(merged);
    keys.push(key);
  }
  for (const [key, job] of shown) {
    if (present.has(key)) continue;
    dirty = true;
    items.push(job);
    keys.push(key);
  }
  return dirty ? { items, keys, jobs: new Map(shown), unreadable: stored.unreadable, problems: [] } : stored;
}

/** When each job was last stopped (in any window, as far as this one knows). */
export type StopMarks = Map<JobKey, number>;

export function parseStopped(raw: unknown): StopMarks {
  const marks: StopMarks = new Map();
  if (!Array.isArray(raw)) return marks;
  for (const item of raw) {
    const { key, at } = (item ?? {}) as { key?: unknown; at?: unknown };
    const parsed = typeof key === 'string' ? parseJobKey(key) : undefined;
    if (parsed === undefined || typeof at !== 'number') continue;
    const stopped = jobKey(parsed);
    marks.set(stopped, Math.max(at, marks.get(stopped) ?? 0));
  }
  return marks;
}

/** Kept short: a stop only has to outlive the other windows' copies of the job. */
export const MAX_STOPPED = 500;

export function serializeStopped(marks: StopMarks): { key: JobKey; at: number }[] {
  return [...marks].sort((a, b) => a[1] - b[1]).slice(-MAX_STOPPED).map(([key, at]) => ({ key, at }));
}
