import type { Clock } from '../../../src/core/jobs/clock';

/** Lets queued promise callbacks run (a few turns of the event loop). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** A clock that moves only when told, firing due timers in order. */
export class ManualClock implements Clock {
  protected readonly timers = new Map<number, { at: number; fn: () => void }>();
  private seq = 0;

  constructor(protected current = 1_700_000_000_000) {}

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.timers.set(id, { at: this.current + Math.max(0, ms), fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** Timers still armed. */
  get pending(): number {
    return this.timers.size;
  }

  /** Moves time forward by `ms`, firing each timer at its due time and settling after each. */
  async advance(ms: number): Promise<void> {
    const end = this.current + ms;
    await settle();
    for (;;) {
      let nextId: number | undefined;
      let nextAt = Infinity;
      for (const [id, timer] of this.timers) {
        if (timer.at <= end && timer.at < nextAt) {
          nextAt = timer.at;
          nextId = id;
        }
      }
      if (nextId === undefined) break;
      const timer = this.timers.get(nextId);
      this.timers.delete(nextId);
      this.current = nextAt;
      timer?.fn();
      await settle();
    }
    this.current = end;
    await settle();
  }
}
