/**
 * Pagination as far as needed and no further: cursors (`nextCursor`, `hasMore`) and offsets
 * (`offset` += rows, while `hasMore`), each page asking for no more rows than still wanted,
 * stopping at a cap (the result then says it was cut). A 429 is waited out: the transport
 * already waits a short `Retry-After` (up to a minute); a longer one, or one that outlasts the
 * transport's attempts, is waited here, up to `maxRateLimitWaitMs` in all, then the error goes
 * to the caller. Requests of one list go one after another, never at once.
 */
import { abortableSleep } from '../abort';
import { RateLimitedError } from '../api/apiErrors';
import type { CursorPage, OffsetPage, TrafficTotals } from './analyticsTypes';

export interface PagingOptions {
  /** At most this many rows in all; more are left on the server, and the result says so. */
  maxItems: number;
  /** Rows per request, at most (the route's own maximum). */
  pageSize: number;
  /** How long 429s may hold the whole list up, in all; past it the RateLimitedError is thrown. */
  maxRateLimitWaitMs?: number;
  /** Told before each wait for a 429 (the editor shows it). */
  onRateLimitWait?: (ms: number) => void;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
}

export interface Collected<T> {
  items: T[];
  /** Rows were left on the server: the cap was reached. */
  truncated: boolean;
  /** Requests that reached the server (a 429 retried counts too). */
  requests: number;
}

/** When the server gives no `Retry-After`: 5 s, then 10, 20, … (at most a minute). */
function fallbackWait(attempt: number): number {
  return Math.min(60_000, 5_000 * 2 ** attempt);
}

/** `call`, again after each 429 until it answers or the waits would pass `budget.left`. */
export async function waitingOutRateLimits<T>(call: () => Promise<T>, options: PagingOptions, budget: { left: number; requests: number }): Promise<T> {
  const sleep = options.sleep ?? abortableSleep;
  for (let attempt = 0; ; attempt++) {
    try {
      budget.requests++;
      return await call();
    } catch (error) {
      if (!(error instanceof RateLimitedError)) throw error;
      const wait = error.retryAfterMs ?? fallbackWait(attempt);
      if (wait > budget.left) throw error;
      budget.left -= wait;
      options.onRateLimitWait?.(wait);
      await sleep(wait, options.signal);
    }
  }
}

export async function collectCursor<T>(fetchPage: (cursor: string | undefined, limit: number) => Promise<CursorPage<T>>, options: PagingOptions): Promise<Collected<T>> {
  const items: T[] = [];
  const budget = { left: options.maxRateLimitWaitMs ?? 0, requests: 0 };
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    const want = Math.min(options.pageSize, options.maxItems - items.length);
    const page = await waitingOutRateLimits(() => fetchPage(cursor, want), options, budget);
    items.push(...page.items.slice(0, options.maxItems - items.length));
    const more = page.nextCursor !== null && page.hasMore !== false;
    if (!more) return { items, truncated: false, requests: budget.requests };
    // A cursor seen before would go round for ever; an empty page with a cursor would too.
    if (items.length >= options.maxItems || seen.has(page.nextCursor ?? '') || page.items.length === 0) return { items, truncated: true, requests: budget.requests };
    seen.add(page.nextCursor ?? '');
    cursor = page.nextCursor ?? undefined;
  }
}

export async function collectOffset<T>(fetchPage: (offset: number, limit: number) => Promise<OffsetPage<T>>, options: PagingOptions): Promise<Collected<T> & { totals: TrafficTotals }> {
  const items: T[] = [];
  const budget = { left: options.maxRateLimitWaitMs ?? 0, requests: 0 };
  for (;;) {
    const want = Math.min(options.pageSize, options.maxItems - items.length);
    const page = await waitingOutRateLimits(() => fetchPage(items.length, want), options, budget);
    const totals: TrafficTotals = page.totals;
    items.push(...page.items.slice(0, options.maxItems - items.length));
    if (!page.hasMore) return { items, totals, truncated: false, requests: budget.requests };
    if (items.length >= options.maxItems || page.items.length === 0) return { items, totals, truncated: true, requests: budget.requests };
  }
}
