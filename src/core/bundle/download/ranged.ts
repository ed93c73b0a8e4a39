/**
 * A large bundle in byte ranges over several connections at once: object stores serve ranges
 * in parallel, and one connection is often held well below the link's speed.
 *
 * The file is cut into one range per connection, each written at its place in the same
 * temporary file. A range that drops resumes from where its bytes reached the disk; a link that
 * expires is regenerated once for all the ranges, which then go on; a range that fails without
 * progress too often, or an error that no retry mends, stops the others, waits for their
 * writes, and ends the download (the caller removes the temporary file). A store that answers
 * a range with the whole file (it ignores `Range`), or with another range, or a bundle that
 * changed under way, sends the caller back to one connection from the start.
 */
import * as l10n from '@vscode/l10n';
import { open, close, ftruncate } from 'node:fs';
import { AbortedError } from '../../abort';
import { english } from '../../l10n';
import type { Logger } from '../../log';
import { downloadDiskError } from '../diskSpace';
import type { IssuedLink } from '../links/linkCache';
import type { Network } from '../../net/network';
import { CHANGED, contentRange, describe, OTHER_RANGE, refusalStep, sizeDisagrees, type Step, type Why } from './answers';
import { requestBundle } from './bundleRequest';
import { BundleDownloadError } from './downloadErrors';
import { PAST_RANGE, WriteQueue, writeRange } from './bodyFile';
import type { BlockPool } from './blocks';
import type { StorageResponse } from './response';
import { discard, firstHeader, readSmall, type StorageClient } from './objectStore';

/** What the ranges need of the download they belong to. */
export interface RangeHost {
  temp: string;
  /** The target's folder (for disk-space checks and disk errors). */
  dir: string;
  /** The bundle's size, from the API. */
  total: number;
  connections: number;
  /** Counted into the download's result. */
  counts: { requests: number; resumes: number };
  log: Logger;
  maxStalled: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Throws when the disk has no room for `bytes` more in `dir`. */
  ensureRoom: (dir: string, bytes: number | undefined) => Promise<void>;
  signal?: AbortSignal;
  /** A storage client whose requests end when `signal` does. */
  storage: (signal: AbortSignal) => StorageClient;
  link(): Promise<IssuedLink>;
  /** A new link, after `stale` was refused as expired (shared by the ranges). */
  renew(stale: IssuedLink, why: Why): Promise<IssuedLink>;
  timeLeft(link: IssuedLink): number | undefined;
  /** The proxy and certificate settings (a failure they explain is not retried). */
  network: Network;
  /** Bytes on disk, all ranges together. */
  received(bytes: number): void;
  /** The file is written without a gap from its start up to `bytes` (the archive check follows it). */
  whole(bytes: number): void;
  /** A block just written at `at`: true when the archive check took it (see BodyEvents.lend). */
  lend(at: number, block: Buffer, length: number): boolean;
  /** The download's blocks, shared by the ranges. */
  blocks: BlockPool;
  /** Bytes taken in by a range (for the download's collections, blocks.ts). */
  took(bytes: number): void;
}

interface Range {
  start: number;
  /** Inclusive. */
  end: number;
  /** The first byte not yet on disk. */
  next: number;
}

/** Leaves the ranges for one connection from the start. */
class FallBack extends Error {
  constructor(readonly why: Why) {
    super(why(english));
  }
}

/** A range that ended because another one failed first; the download reports that one. */
class Stopped extends Error {}

/** Splits `total` bytes into `count` ranges of about the same size. */
export function splitRanges(total: number, count: number): Range[] {
  const n = Math.max(1, Math.min(count, Math.ceil(total / (1024 * 1024))));
  const size = Math.ceil(total / n);
  const ranges: Range[] = [];
  for (let start = 0; start < total; start += size) ranges.push({ start, end: Math.min(total, start + size) - 1, next: start });
  return ranges;
}

/** `'done'` when every range is on disk; otherwise why the caller should start over on one connection. */
export async function fetchRanges(host: RangeHost): Promise<'done' | Why> {
  await host.ensureRoom(host.dir, host.total);
  await sized(host.temp, host.total).catch((error: unknown) => {
    throw downloadDiskError(error, host.dir) ?? error;
  });
  const stop = new AbortController();
  const signal = host.signal === undefined ? stop.signal : AbortSignal.any([host.signal, stop.signal]);
  const storage = host.storage(signal);
  const ranges = splitRanges(host.total, host.connections);
  const run = new Ranges(host, ranges, storage, stop.signal, signal);
  host.log.info(`Bundle download: ${ranges.length} ranges over ${ranges.length} connections.`);
  // The first failure in time stops the others; theirs are only its echo.
  let first: Error | undefined;
  const outcomes = ranges.map((range) =>
    run.fetch(range).catch((error: unknown) => {
      first ??= error instanceof Error ? error : new Error(String(error));
      stop.abort();
      throw error;
    }),
  );
  try {
    await Promise.allSettled(outcomes);
    if (host.signal?.aborted) throw new AbortedError();
    if (first instanceof FallBack) return first.why;
    if (first !== undefined) throw first;
    return 'done';
  } finally {
    storage.close();
  }
}

/** The temporary file, created at its full size, for the ranges to write into. */
function sized(path: string, bytes: number): Promise<void> {
  return new Promise((resolve, reject) => {
    open(path, 'w', (error, fd) => {
      if (error !== null) return reject(error);
      ftruncate(fd, bytes, (cut) => close(fd, () => (cut === null ? resolve() : reject(cut))));
    });
  });
}

class Ranges {
  private etag: string | undefined;
  /** Bytes taken in, all ranges together: on disk, or on their way there. */
  private live = 0;
  /** The file's writes, one at a time for all the ranges. */
  private readonly writes = new WriteQueue();
  /** How far the file is written without a gap from its start. */
  private prefix = 0;

  constructor(
    private readonly host: RangeHost,
    /** In the file's order, each starting where the one before ends. */
    private readonly ranges: readonly Range[],
    private readonly storage: StorageClient,
    /** Aborted when another range failed: this one ends at once, without retrying. */
    private readonly stopped: AbortSignal,
    /** The download's and the stop's together: a wait before a retry ends on either. */
    private readonly either: AbortSignal,
  ) {}

  /** Ends a range whose download was cancelled, or stopped by another range's failure. */
  private checkGoing(): void {
    if (this.host.signal?.aborted) throw new AbortedError();
    if (this.stopped.aborted) throw new Stopped();
  }

  /** Tells the host how far the file is whole from its start: through every complete range, into the first that is not. */
  private advance(): void {
    let prefix = 0;
    for (const range of this.ranges) {
      prefix = range.next;
      if (range.next <= range.end) break;
    }
    if (prefix <= this.prefix) return;
    this.prefix = prefix;
    this.host.whole(prefix);
  }

  /** One range, resumed until it is whole. */
  async fetch(range: Range): Promise<void> {
    const { host } = this;
    let stalled = 0;
    for (;;) {
      this.checkGoing();
      const before = range.next;
      const link = await host.link();
      const step = await this.attempt(range, link);
      if (step.done) return;
      if (step.next === 'restart') throw new FallBack(step.why);
      host.log.info(`Bundle download, range ${range.start}-${range.end}: ${step.why(english)}; ${step.next === 'regenerate' ? 'getting a new link' : step.next} at byte ${range.next}.`);
      if (step.next === 'regenerate') {
        await host.renew(link, step.why);
        continue;
      }
      stalled = range.next > before ? 0 : stalled + 1;
      if (stalled >= host.maxStalled) {
        throw new BundleDownloadError('network', l10n.t('The bundle download failed {0} times in a row without progress ({1}). Check your connection, then download again.', stalled, step.why(l10n)));
      }
      if (step.next === 'resume') host.counts.resumes++;
      await host.sleep(Math.min(5_000, 250 * 2 ** stalled), this.either).catch((error: unknown) => {
        this.checkGoing();
        throw error;
      });
    }
  }

  private async attempt(range: Range, link: IssuedLink): Promise<Step> {
    const { host } = this;
    const res = await requestBundle({ link, range: `bytes=${range.next}-${range.end}`, etag: this.etag, storage: this.storage, network: host.network, counts: host.counts, stopIfAsked: () => this.checkGoing() });
    if ('done' in res) return res;
    const status = res.statusCode;
    if (status === 200) {
      discard(res);
      return { done: false, next: 'restart', why: (l10n) => l10n.t('the storage ignored the byte range and sent the whole bundle') };
    }
    if (status === 206) return this.receive(range, res);
    const text = await readSmall(res);
    if (status === 416) return { done: false, next: 'restart', why: (l10n) => l10n.t('the server refused the byte range') };
    return refusalStep(status, text, host.timeLeft(link));
  }

  private async receive(range: Range, res: StorageResponse): Promise<Step> {
    const { host } = this;
    const answered = contentRange(firstHeader(res.headers['content-range']));
    if (answered === undefined || answered.start !== range.next || answered.end !== range.end) {
      discard(res);
      return OTHER_RANGE;
    }
    if (answered.total !== undefined && answered.total !== host.total) {
      discard(res);
      throw sizeDisagrees(answered.total, host.total);
    }
    const etag = firstHeader(res.headers.etag);
    if (this.etag !== undefined && etag !== undefined && etag !== this.etag) {
      discard(res);
      return CHANGED;
    }
    this.etag ??= etag;
    let taken = 0;
    const from = range.next;
    const events = {
      taken: (bytes: number) => {
        taken += bytes;
        this.live += bytes;
        host.received(this.live);
        host.took(bytes);
      },
      lend: (at: number, block: Buffer, length: number) => host.lend(at, block, length),
      written: (at: number) => {
        range.next = at;
        this.advance();
      },
    };
    const { failure, end } = await writeRange(res, host.temp, from, range.end + 1 - from, events, this.writes, host.blocks);
    // What was taken in but did not reach the disk is fetched again.
    this.live -= taken - (end - from);
    range.next = end;
    host.received(this.live);
    this.checkGoing();
    if ((failure as { code?: unknown } | undefined)?.code === PAST_RANGE) {
      throw new BundleDownloadError('size', l10n.t('The storage sent more bytes than the byte range asked for. The bundle was not saved; download it again.'));
    }
    const disk = failure === undefined ? undefined : downloadDiskError(failure, host.dir);
    if (disk !== undefined) throw disk;
    if (range.next > range.end) return { done: true };
    const [got, want] = [range.next - range.start, range.end + 1 - range.start];
    return {
      done: false,
      next: 'resume',
      why: (l10n) =>
        failure === undefined
          ? l10n.t('the connection ended after {0} of {1} bytes', got, want)
          : l10n.t('the connection dropped after {0} of {1} bytes ({2})', got, want, describe(failure)),
    };
  }
}
