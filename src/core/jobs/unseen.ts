/**
 * The jobs that ended while their view was not in sight, per view (job kind): what the view's
 * badge counts. A job counts once however often it is read; it stops counting when its view is
 * seen, or when it is no longer tracked. Pure state, no timers.
 */
import type { JobKey, TrackedJob } from './trackedJob';

type Kind = TrackedJob['kind'];

export class UnseenEnds {
  private readonly unseen = new Map<Kind, Set<JobKey>>();

  /** A job of this kind ended; `inSight`: its view is visible now (then nothing counts). */
  ended(kind: Kind, key: JobKey, inSight: boolean): void {
    if (inSight) return;
    let keys = this.unseen.get(kind);
    if (keys === undefined) this.unseen.set(kind, (keys = new Set()));
    keys.add(key);
  }

  /** The view of this kind was seen: its count starts again from nothing. */
  seen(kind: Kind): void {
    this.unseen.delete(kind);
  }

  /** Keeps only the jobs still tracked (a job no longer tracked cannot be seen in its view). */
  keepOnly(tracked: ReadonlySet<JobKey>): void {
    for (const keys of this.unseen.values()) for (const key of keys) if (!tracked.has(key)) keys.delete(key);
  }

  count(kind: Kind): number {
    return this.unseen.get(kind)?.size ?? 0;
  }
}
