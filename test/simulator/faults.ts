import type { Fault, RouteName } from './types';

/** Faults queued per route, applied in the order injected, each for `times` requests. */
export class FaultQueue {
  private faults: { fault: Fault; left: number }[] = [];

  add(fault: Fault): void {
    const times = fault.times === undefined ? 1 : fault.times === null ? Infinity : fault.times;
    this.faults.push({ fault, left: times });
  }

  clear(): void {
    this.faults = [];
  }

  /** The next fault for this route, consumed once. */
  take(route: RouteName | 'unknown'): Fault | undefined {
    const slot = this.faults.find((f) => f.left > 0 && (f.fault.route === '*' || f.fault.route === route));
    if (slot === undefined) return undefined;
    slot.left--;
    this.faults = this.faults.filter((f) => f.left > 0);
    return slot.fault;
  }
}
