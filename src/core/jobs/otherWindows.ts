/**
 * The tracked jobs are shared by every window: when the registry changes, because another window
 * stopped tracking a job, started one or reopened one (a follow-up), or because a reading came
 * in, this window's polling, errors and followed jobs follow, and its listeners hear of it.
 */
import type { FollowedJobs } from './followed';
import type { JobEvents } from './jobEvents';
import type { JobRegistry } from './registry';
import type { PollScheduler } from './scheduler';
import { isTerminal, type JobKey } from './trackedJob';

export interface WindowParts {
  registry: JobRegistry;
  scheduler: PollScheduler;
  errors: Map<JobKey, string>;
  followed: FollowedJobs;
  events: JobEvents;
}

export function followRegistry({ registry, scheduler, errors, followed, events }: WindowParts): { dispose(): void } {
  return registry.onDidChange((keys, elsewhere) => {
    // Another window stopped tracking a job, or started one: poll accordingly.
    for (const key of elsewhere.removed) {
      scheduler.untrack(key);
      errors.delete(key);
      followed.forget(key);
    }
    for (const key of elsewhere.added) {
      const job = registry.get(key);
      if (job !== undefined && !isTerminal(job)) scheduler.track({ key, kind: job.kind });
    }
    for (const key of elsewhere.reopened) {
      const job = registry.get(key);
      if (job !== undefined && !isTerminal(job)) scheduler.restart({ key, kind: job.kind });
    }
    events.changed(keys);
    // Rows that changed: each followed job seen ended for the first time notifies.
    events.ended(followed.ends(keys));
  });
}
