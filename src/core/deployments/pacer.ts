/**
 * A sliding window of request starts: at most `limit` in any `windowMs`, as the platform counts
 * its rate limits (10 deployment and automation triggers per 10 s, 5 previews per minute, per
 * organisation). `waitMs()` says how long the next request must wait to stay within it; a 429's
 * `Retry-After` blocks the window until then. Pure: the clock is injected.
 */
export class RateWindow {
  private readonly starts: number[] = [];
  private blockedUntil = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** Milliseconds until a request may start (0: now). */
  waitMs(): number {
    const now = this.now();
    while (this.starts.length > 0 && (this.starts[0] ?? 0) <= now - this.windowMs) this.starts.shift();
    const full = this.starts.length >= this.limit ? (this.starts[this.starts.length - this.limit] ?? now) + this.windowMs - now : 0;
    return Math.max(0, full, this.blockedUntil - now);
  }

  /** A request starts now. */
  record(): void {
    this.starts.push(this.now());
  }

  /** The server said to wait (a 429): nothing starts before `ms` from now. */
  block(ms: number): void {
    this.blockedUntil = Math.max(this.blockedUntil, this.now() + ms);
  }
}
