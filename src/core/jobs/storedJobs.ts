/**
 * The tracked-jobs list as it sits in storage, read and changed without I/O. Readable entries
 * become jobs; the rest are kept as they are, in place. A change (an add, a removal, a new
 * snapshot) is applied to the stored items, never to a list rebuilt from memory, so whatever
 * this version cannot read, and whatever another window wrote, stays.
 */
import * as z from 'zod/mini';
import { describeIssue } from '../api/schemas';
import type { AgentJob, ExportJob } from '../api/types';
import { jobKey, type JobKey, type TrackedJob } from './jobKey';
import { isTerminal } from './present';

/**
 * The most jobs one environment shows and polls. A list far longer than anyone tracks by hand
 * (a corrupted or runaway store) would otherwise poll the API thousands of times and redraw
 * thousands of rows; the newest are shown, the rest are kept in the store as they are.
 */
export const MAX_SHOWN_JOBS = 2_000;

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
  z.object({ kind: z.literal('agent'), id, addedAt: z.number() }),
  z.object({ kind: z.literal('export'), id, addedAt: z.number(), domain: z.optional(z.string()) }),
]);

export type Change = { kind: 'add'; job: TrackedJob } | { kind: 'remove'; key: JobKey } | { kind: 'snapshot'; key: JobKey; snapshot: AgentJob | ExportJob };

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
  const read = (job.kind === 'agent' ? agentSnapshot : exportSnapshot).safeParse(snapshot, { reportInput: true });
  if (read.success) return { job: { ...job, snapshot: read.data } as TrackedJob };
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
      // The copy that has reached its end tells more.
      if (!isTerminal(first) && isTerminal(read.job)) out.jobs.set(key, { ...first, snapshot: read.job.snapshot } as TrackedJob);
    }
  }
  if (out.jobs.size > MAX_SHOWN_JOBS) {
    out.problems.push(`${storageKey} tracks ${out.jobs.size} jobs; the newest ${MAX_SHOWN_JOBS} are shown and polled, the others are kept as they are. Stop tracking the jobs you no longer need.`);
    const shown = new Set([...out.jobs.values()].sort((a, b) => b.addedAt - a.addedAt).slice(0, MAX_SHOWN_JOBS).map(jobKey));
    out.jobs = new Map([...out.jobs].filter(([key]) => shown.has(key)));
  }
  return out;
}

/** What is stored, with one change applied; undefined when there is nothing to write. */
export function applyChange(stored: StoredJobs, change: Change): StoredJobs | undefined {
  const { items, keys } = stored;
  const next = (nextItems: unknown[], nextKeys: (JobKey | undefined)[], jobs: Map<JobKey, TrackedJob>): StoredJobs => ({ ...stored, items: nextItems, keys: nextKeys, jobs, problems: [] });
  switch (change.kind) {
    case 'add': {
      const key = jobKey(change.job);
      if (stored.jobs.has(key)) return undefined;
      // Stored already, among those not shown: shown from now on, as stored.
      if (keys.includes(key)) return next(items, keys, new Map(stored.jobs).set(key, change.job));
      return next([...items, change.job], [...keys, key], new Map(stored.jobs).set(key, change.job));
    }
    case 'remove': {
      if (!keys.includes(change.key)) return undefined;
      const jobs = new Map(stored.jobs);
      jobs.delete(change.key);
      const kept = keys.map((k, i) => (k === change.key ? -1 : i)).filter((i) => i >= 0);
      return next(kept.map((i) => items[i]), kept.map((i) => keys[i]), jobs);
    }
    case 'snapshot': {
      const at = keys.indexOf(change.key);
      const current = stored.jobs.get(change.key);
      if (at < 0 || current === undefined) return undefined;
      const updated = { ...current, snapshot: change.snapshot } as TrackedJob;
      // A job another window saw end does not go back to running from an older reading here.
      if ((isTerminal(current) && !isTerminal(updated)) || same(current.snapshot, change.snapshot)) return undefined;
      const nextItems = items.map((item, i) => (i === at ? { ...(item as object), snapshot: change.snapshot } : item));
      return next(nextItems, keys, new Map(stored.jobs).set(change.key, updated));
    }
  }
}

/** The keys of jobs stopped in some window (so another window does not bring them back), newest last. */
export function parseStopped(raw: unknown): JobKey[] {
  return Array.isArray(raw) ? raw.filter((k): k is JobKey => typeof k === 'string' && /^(agent|export):/.test(k)) : [];
}

/** Kept short: a stop only has to outlive the other windows' copies of the job. */
export const MAX_STOPPED = 500;
