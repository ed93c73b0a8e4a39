import { ManualClock } from './manualClock';

/**
 * The manual clock, run to a time while real requests are answered: after the timers due at
 * one instant have fired, it waits for `quiesce` (the requests they started, and whatever
 * handling them started) before time moves on, so a request takes no virtual time and half an
 * hour of polling passes in seconds. (bench/polling.ts drives its runs the same way.)
 */
export class VirtualClock extends ManualClock {
  /** Fires every timer due up to `end`, in order; stops early when `done()` says so. */
  async runUntil(end: number, quiesce: () => Promise<void>, done: () => boolean = () => false): Promise<void> {
    await quiesce();
    while (!done()) {
      let next: { id: number; at: number; fn: () => void } | undefined;
      for (const [id, timer] of this.timers) if (timer.at <= end && (next === undefined || timer.at < next.at)) next = { id, ...timer };
      if (next === undefined) break;
      this.current = Math.max(this.current, next.at);
      this.timers.delete(next.id);
      next.fn();
      if (![...this.timers.values()].some((timer) => timer.at <= this.current)) await quiesce();
    }
    if (!done()) this.current = Math.max(this.current, end);
  }
}

/** Promises in flight, to wait for: `hold(p)` adds one, `quiesce()` waits until none is left. */
export class InFlight {
  private readonly busy = new Set<Promise<unknown>>();

  hold<T>(promise: Promise<T>): Promise<T> {
    this.busy.add(promise);
    const drop = () => this.busy.delete(promise);
    promise.then(drop, drop);
    return promise;
  }

  get size(): number {
    return this.busy.size;
  }

  async quiesce(): Promise<void> {
    do {
      while (this.busy.size > 0) await Promise.allSettled([...this.busy]);
      for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
    } while (this.busy.size > 0);
  }
}
