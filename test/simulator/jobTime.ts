/**
 * A job's own time on the simulator's clock: the simulated milliseconds since it started, from
 * which its status, progress and log lines are computed. A test can hold a job (it stands where
 * it is, queued or running, however long the machine takes) and release it (it goes on from
 * there at the simulator's time scale), or move a job's time on by a step. A test that must see
 * a job running holds it, instead of giving it a duration long enough for a slow machine.
 */
export class JobTime {
  /** While held: the simulated ms it stands at. */
  private frozen: number | undefined;
  /** Simulated ms taken out of (or added to) the time since the start: holds and steps. */
  private shift = 0;

  constructor(
    private start: number,
    private readonly now: () => number,
    private readonly timeScale: number,
    /** When the job is held from the start: the clock's time it is held at, read once with its creation. */
    heldAt?: number,
  ) {
    // Not this.running(): a second read of the clock, a millisecond later on a busy machine, is a
    // whole simulated second at a time scale of 1,000: a job "held" at its creation would be over.
    if (heldAt !== undefined) this.frozen = Math.max(0, (heldAt - start) * timeScale);
  }

  private running(): number {
    return (this.now() - this.start) * this.timeScale - this.shift;
  }

  /** Simulated ms since the job started, as far as it has got. */
  elapsed(): number {
    return this.frozen ?? this.running();
  }

  get held(): boolean {
    return this.frozen !== undefined;
  }

  /** Stands still where it is now (already held: nothing changes). */
  hold(): void {
    this.frozen ??= this.running();
  }

  /** Goes on from where it was held. */
  release(): void {
    if (this.frozen === undefined) return;
    this.shift = (this.now() - this.start) * this.timeScale - this.frozen;
    this.frozen = undefined;
  }

  /** Moves on by `simulatedMs`, held or not (a held job stays held, further on). */
  step(simulatedMs: number): void {
    if (this.frozen !== undefined) this.frozen += simulatedMs;
    else this.shift -= simulatedMs;
  }

  /** Starts again from now (an agent job's follow-up), held or not. */
  restart(held: boolean): void {
    this.start = this.now();
    this.shift = 0;
    this.frozen = held ? 0 : undefined;
  }

  /** The clock's time when the job's time reached `simulatedMs` (never later than now: a job held or stepped past it reached it by now). */
  clockAt(simulatedMs: number): number {
    return Math.min(this.now(), this.start + (simulatedMs + this.shift) / this.timeScale);
  }
}
