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

/**
 * Named gates a `gate` fault holds an answer at until the test opens them: an answer that comes
 * exactly when the test is ready for it (after it typed, say), not after a fixed delay that a
 * slow machine can outrun.
 */
export class Gates {
  private readonly gates = new Map<string, { open: Promise<void>; resolve: () => void }>();

  private gate(name: string): { open: Promise<void>; resolve: () => void } {
    let gate = this.gates.get(name);
    if (gate === undefined) {
      let resolve: () => void = () => undefined;
      const open = new Promise<void>((r) => (resolve = r));
      gate = { open, resolve };
      this.gates.set(name, gate);
    }
    return gate;
  }

  /** Resolves when the gate is opened (at once when it already is). */
  wait(name: string): Promise<void> {
    return this.gate(name).open;
  }

  /** Lets every answer held at the gate go, and every later one pass. */
  open(name: string): void {
    this.gate(name).resolve();
  }

  openAll(): void {
    for (const gate of this.gates.values()) gate.resolve();
  }
}
