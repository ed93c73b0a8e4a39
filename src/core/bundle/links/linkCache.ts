/**
 * The presigned links this session was given, per export job, and when each stops working.
 * Every action that needs a link asks `fresh()`: the known link when it has enough time left,
 * else a new one from the API. The job and its files stay reusable after a link expires; only
 * the link is time-limited, so regenerating is always safe.
 */
import * as l10n from '@vscode/l10n';
import type { Bundle, CallOptions } from '../../api/apiTypes';
import { formatDuration } from '../../formatUnits';
import { bundleExpiry, timeLeftMs } from './expiry';

export interface IssuedLink {
  bundle: Bundle;
  /** This machine's clock when the answer arrived (for skew correction). */
  receivedAt: number;
}

/** A link whose expiry nothing states is trusted for this long after it was issued. */
const UNKNOWN_EXPIRY_TRUST_MS = 5 * 60_000;

/** A new link with less than this left has expired for any use (a download treats it so too). */
export const EXPIRED_MARGIN_MS = 5_000;

/** New links asked for, in all, when each came already expired (as many as a download asks). */
export const NEW_LINK_TRIES = 3;

/**
 * Every new link the server gave had already expired (or had seconds left): usually a clock far
 * off, on this computer (when the answer has no `Date`) or on the server's side.
 */
export class LinkExpiredOnArrivalError extends Error {
  constructor(
    readonly jobId: string,
    /** When the last link expired, on this computer's clock (ISO 8601). */
    readonly expiredAt: string,
    leftMs: number,
    readonly tries: number,
  ) {
    super(
      leftMs <= 0
        ? l10n.t('The bundle link the server gave for export {0} had already expired ({1} ago, at {2}), and so had each new one it gave ({3} asked for in all). Check that this computer\'s clock is right; if it is, the service is giving out expired links: try again later.', jobId, formatDuration(-leftMs), expiredAt, tries)
        : l10n.t('The bundle link the server gave for export {0} expires within seconds (at {1}), and so did each new one it gave ({2} asked for in all): too soon to use. Check that this computer\'s clock is right; if it is, try again later.', jobId, expiredAt, tries),
    );
    this.name = 'LinkExpiredOnArrivalError';
  }
}

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

  /**
   * The known link when it has at least `minLeftMs` left, else a new one taken as it comes (a
   * download, which handles an expired link itself).
   */
  async fresh(jobId: string, minLeftMs: number, options?: CallOptions): Promise<IssuedLink> {
    return this.known(jobId, minLeftMs) ?? this.regenerate(jobId, options);
  }

  /**
   * For a command that hands the link on (copies it, opens it, writes it into values): the known
   * link when it has at least `minLeftMs` left, else a new one that has not expired (`issue`).
   */
  async freshToHandOn(jobId: string, minLeftMs: number, options?: CallOptions): Promise<IssuedLink> {
    return this.known(jobId, minLeftMs) ?? this.issue(jobId, options);
  }

  private known(jobId: string, minLeftMs: number): IssuedLink | undefined {
    const known = this.links.get(jobId);
    if (known === undefined) return undefined;
    const left = this.timeLeft(known);
    const usable = left === undefined ? this.now() - known.receivedAt < UNKNOWN_EXPIRY_TRUST_MS : left >= minLeftMs;
    return usable ? known : undefined;
  }

  /**
   * A new link that has not expired, for a command that hands the link on (prints it, writes it
   * into values): one that came already expired, or with less than EXPIRED_MARGIN_MS left, is
   * asked for again, NEW_LINK_TRIES in all, as a download does; then LinkExpiredOnArrivalError.
   * A link whose expiry nothing states is taken.
   */
  async issue(jobId: string, options?: CallOptions): Promise<IssuedLink> {
    for (let tries = 1; ; tries++) {
      const issued = await this.regenerate(jobId, options);
      const left = this.timeLeft(issued);
      if (left === undefined || left >= EXPIRED_MARGIN_MS) return issued;
      if (tries >= NEW_LINK_TRIES) throw new LinkExpiredOnArrivalError(jobId, new Date(this.now() + left).toISOString(), left, tries);
    }
  }

  /**
   * A new link, whatever the known one says, taken as it comes (a download, which handles an
   * expired link itself). A command that hands a link on takes `issue`.
   */
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
