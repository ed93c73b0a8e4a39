/**
 * Which jobs this window follows to their end, so that each notifies once when a reading first
 * shows it ended, whichever reading that is (a poll, or another window's merged in).
 */
import type { JobRegistry } from './registry';
import { isTerminal, type JobKey, type TrackedJob } from './trackedJob';

export interface Transition {
  key: JobKey;
  job: TrackedJob;
  from: string | undefined;
  to: string;
}

export class FollowedJobs {
  /**
   * The jobs followed, with the status last seen (undefined: not read yet): each one started or
   * tracked here, or seen running in a reading (the reply to a start is one).
   */
  private readonly followed = new Map<JobKey, string | undefined>();
  /** Exports another part polls and reports on (the publish pipeline): no notification of their end. */
  private readonly observed = new Set<JobKey>();

  constructor(private readonly registry: JobRegistry) {}

  /** Follows a job; `status` is the last one seen (undefined: not read yet). */
  follow(key: JobKey, status?: string): void {
    this.followed.set(key, status);
  }

  forget(key: JobKey): void {
    this.followed.delete(key);
  }

  /** Someone else polls and reports on this job: its end does not notify. */
  observe(key: JobKey): void {
    this.observed.add(key);
  }

  release(key: JobKey): void {
    this.observed.delete(key);
  }

  /**
   * Rows that changed: a followed job seen ended for the first time is a transition to notify;
   * one seen running is followed from now on.
   */
  ends(keys: JobKey[]): Transition[] {
    const ended: Transition[] = [];
    for (const key of keys) {
      const job = this.registry.get(key);
      if (job?.snapshot === undefined) continue;
      if (!isTerminal(job)) {
        this.followed.set(key, job.snapshot.status);
        continue;
      }
      if (!this.followed.has(key) || this.observed.has(key)) {
        this.followed.delete(key);
        continue;
      }
      const from = this.followed.get(key);
      this.followed.delete(key);
      // Tracked here, and first read ended before it was tracked (an export or a deployment says when it ended): nothing ended while followed.
      const endedAt = 'updatedAt' in job.snapshot ? job.snapshot.updatedAt : 'endedAt' in job.snapshot ? job.snapshot.endedAt : undefined;
      if (from === undefined && Date.parse(endedAt ?? '') < job.addedAt) continue;
      ended.push({ key, job, from, to: job.snapshot.status });
    }
    return ended;
  }
}
