/**
 * The presigned links this session was given, per export job, and when each stops working.
 * Every action that needs a link asks `fresh()`: the known link when it has enough time left,
 * else a new one from the API. The job and its files stay reusable after a link expires; only
 * the link is time-limited, so regenerating is always safe.
 */
import type { Bundle, CallOptions } from '../../api/types';
import { bundleExpiry, timeLeftMs } from './expiry';

export interface IssuedLink {
  bundle: Bundle;
  /** This machine's clock when the answer arrived (for skew correction). */
  receivedAt: number;
}

/** A link whose expiry nothing states is trusted for this long after it was issued. */
const UNKNOWN_EXPIRY_TRUST_MS = 5 * 60_000;

export class BundleLinks {
  private readonly links = new Map<string, IssuedLink>();
  private readonly listeners = new Set<(jobId: string) => void>();

  constructor(
    private readonly generate: (jobId: string, options?: CallOptions) => Promise<Bundle>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The jobs with a known link. */
  jobIds(): string[] {
    return [...this.links.keys()];
  }

  peek(jobId: string): IssuedLink | undefined {
    return this.links.get(jobId);
  }

  /** Milliseconds the link has left on this machine's clock; undefined when nothing says. */
  timeLeft(link: IssuedLink): number | undefined {
    const expiry = bundleExpiry(link.bundle);
    return expiry === undefined ? undefined : timeLeftMs(expiry, this.now(), { serverDate: link.bundle.serverDate, receivedAt: link.receivedAt });
  }

  /** The known link when it has at least `minLeftMs` left, else a newly generated one. */
  async fresh(jobId: string, minLeftMs: number, options?: CallOptions): Promise<IssuedLink> {
    const known = this.links.get(jobId);
    if (known !== undefined) {
      const left = this.timeLeft(known);
      const usable = left === undefined ? this.now() - known.receivedAt < UNKNOWN_EXPIRY_TRUST_MS : left >= minLeftMs;
      if (usable) return known;
    }
    return this.regenerate(jobId, options);
  }

  /** A new link, whatever the known one says. */
  async regenerate(jobId: string, options?: CallOptions): Promise<IssuedLink> {
    const bundle = await this.generate(jobId, options);
    const issued = { bundle, receivedAt: this.now() };
    this.links.set(jobId, issued);
    for (const listener of this.listeners) listener(jobId);
    return issued;
  }

  forget(jobId: string): void {
    this.links.delete(jobId);
  }

  /** A new link arrived for a job. */
  onDidChange(listener: (jobId: string) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  clear(): void {
    this.links.clear();
  }
}
