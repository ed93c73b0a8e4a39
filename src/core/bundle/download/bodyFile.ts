/**
 * A body into its file: the bytes are copied, as they come, into blocks of 1 MiB, and each full
 * block is written at its position while the next one fills.
 *
 * One write at a time per file, whoever writes (the ranges of a download share one queue,
 * `WriteQueue`): the file system takes a file's lock for each buffered write, so a second write
 * to the same file only waits for it, spinning. Profiled (`perf record -g`, 1 GiB over loopback):
 * with four writes under way per connection, 8 % of all the CPU went to `rwsem_spin_on_owner`
 * under `ext4_buffered_write_iter`. Reading goes on while a block is written, into the next
 * block; when a connection's blocks are all full or queued, its reading pauses, so memory
 * stays flat: at most BLOCKS_PER_BODY blocks per connection.
 *
 * Plain callbacks, no promises per chunk: a GiB is 16,000 chunks or more.
 */
import * as l10n from '@vscode/l10n';
import { close, ftruncate, open, writev } from 'node:fs';
import type { StorageResponse } from './response';

/** Bytes gathered before each write to the file. */
const WRITE_BLOCK = 1024 * 1024;
/** Blocks one body may hold: one filling, one queued, one being written. */
const BLOCKS_PER_BODY = 3;

/** Writes `buffers` at `position`, again for what a short write left. */
export function writeAll(fd: number, buffers: Buffer[], position: number, done: (error: Error | null) => void): void {
  writev(fd, buffers, position, (error, written) => {
    if (error !== null) return done(error);
    let rest = buffers;
    for (let skip = written; skip > 0 && rest.length > 0; ) {
      const first = rest[0] ?? Buffer.alloc(0);
      rest = skip >= first.length ? rest.slice(1) : [first.subarray(skip), ...rest.slice(1)];
      skip -= Math.min(skip, first.length);
    }
    if (rest.length === 0) return done(null);
    writeAll(fd, rest, position + written, done);
  });
}

/** The writes to one file, one at a time, in the order they were asked for. */
export class WriteQueue {
  private busy = false;
  private readonly waiting: { fd: number; buffers: Buffer[]; position: number; done: (error: Error | null) => void; cancelled: () => boolean }[] = [];

  constructor(private readonly write: typeof writeAll = writeAll) {}

  /** `done` comes with null and nothing written when `cancelled()` is true by the write's turn. */
  add(fd: number, buffers: Buffer[], position: number, done: (error: Error | null) => void, cancelled: () => boolean = () => false): void {
    this.waiting.push({ fd, buffers, position, done, cancelled });
    this.next();
  }

  private next(): void {
    while (!this.busy) {
      const job = this.waiting.shift();
      if (job === undefined) return;
      if (job.cancelled()) {
        job.done(null);
        continue;
      }
      this.busy = true;
      this.write(job.fd, job.buffers, job.position, (error) => {
        this.busy = false;
        // The writer hears first, so that its other writes can see it before their turn.
        job.done(error);
        this.next();
      });
    }
  }
}

/** The storage sent more bytes than the range asked for (they were not written). */
export const PAST_RANGE = 'EPASTRANGE';

/** What a body's writer tells as it goes: bytes taken in, and how far its bytes are on disk without a gap. */
export interface BodyEvents {
  taken(bytes: number): void;
  /** Every byte from the body's start up to `end` (a file offset) is written. */
  written?(end: number): void;
  /** Called every 2 MiB taken in: a minor garbage collection, when the caller has one (DownloadOptions.collectGarbage). */
  collectGarbage?: (() => void) | undefined;
}

/** Bytes taken in between two calls of `collectGarbage`. */
const COLLECT_EVERY = 2 * 1024 * 1024;

/**
 * Streams a body into `path` from `start`. What arrived before a drop is written too (it is
 * good for a resume). If a write fails, the file is cut back to the blocks before it, so that
 * it never holds a gap that a resume would take for data. Resolves with the error that ended it
 * early, if any. `write` is the block writer (tests give one that fails on cue).
 */
export function writeBody(body: StorageResponse, path: string, start: number, events: BodyEvents, write = writeAll): Promise<unknown> {
  return writeBlocks(body, path, start, events, new WriteQueue(write), undefined).then((r) => r.failure);
}

/**
 * Streams a body into its range of a file that other ranges write too (through the same
 * `queue`): opened as it is (never truncated), at most `length` bytes written from `start`.
 * Resolves with the error that ended it early, if any, and where the bytes that reached the
 * disk end, without a gap: the resume point. A write that fails is not cut back (the other
 * ranges' bytes are in the same file).
 */
export function writeRange(body: StorageResponse, path: string, start: number, length: number, events: BodyEvents, queue: WriteQueue): Promise<{ failure: unknown; end: number }> {
  return writeBlocks(body, path, start, events, queue, length);
}

function writeBlocks(body: StorageResponse, path: string, start: number, events: BodyEvents, queue: WriteQueue, limit: number | undefined): Promise<{ failure: unknown; end: number }> {
  return new Promise((resolve) => {
    let fd: number | undefined;
    /** Where the next block goes. */
    let position = start;
    const spare: Buffer[] = [];
    let blocks = 1;
    let block: Buffer = Buffer.allocUnsafe(WRITE_BLOCK);
    let fill = 0;
    let inFlight = 0;
    let ended = false;
    let settled = false;
    let paused = false;
    let failure: unknown;
    /** Where the first failed block began: the file is cut back to it. */
    let cutAt: number | undefined;
    /** Bytes taken from the body, for the limit. */
    let taken = 0;
    let sinceCollect = 0;
    const settle = (): void => {
      if (settled || inFlight > 0 || !ended) return;
      settled = true;
      if (failure !== undefined) body.destroy();
      const end = cutAt ?? position;
      if (fd === undefined) return resolve({ failure, end });
      const file = fd;
      const finish = (): void => close(file, () => resolve({ failure, end }));
      if (cutAt === undefined || limit !== undefined) finish();
      else ftruncate(file, cutAt, finish);
    };
    /** Hands the filled part of the block to the queue, and takes a fresh one. */
    const flush = (): void => {
      if (fd === undefined || fill === 0 || cutAt !== undefined) return;
      const full = block;
      const length = fill;
      const at = position;
      position += length;
      block = spare.pop() ?? (blocks++, Buffer.allocUnsafe(WRITE_BLOCK));
      fill = 0;
      inFlight++;
      queue.add(fd, [full.subarray(0, length)], at, (error) => {
        inFlight--;
        spare.push(full);
        if (error !== null) {
          failure ??= error;
          cutAt = Math.min(cutAt ?? at, at);
          ended = true;
          fill = 0;
          body.destroy();
          return settle();
        }
        // Not written when an earlier block failed (it was skipped); the queue keeps each body's blocks in order.
        if (cutAt === undefined) events.written?.(at + length);
        if (ended) {
          flush();
          return settle();
        }
        if (paused && spare.length > 0) {
          paused = false;
          body.resume();
        }
      }, () => cutAt !== undefined);
    };
    const stop = (error: unknown): void => {
      if (ended) return;
      if (error !== undefined) failure ??= error;
      ended = true;
      flush();
      settle();
    };
    const take = (view: Buffer): void => {
      if (ended) return;
      let chunk = view;
      if (limit !== undefined && taken + chunk.length > limit) {
        chunk = chunk.subarray(0, limit - taken);
        failure ??= Object.assign(new Error(l10n.t('the storage sent more than the byte range asked for')), { code: PAST_RANGE });
      }
      taken += chunk.length;
      for (let at = 0; at < chunk.length; ) {
        const n = chunk.copy(block, fill, at);
        fill += n;
        at += n;
        if (fill === WRITE_BLOCK) flush();
      }
      events.taken(chunk.length);
      sinceCollect += chunk.length;
      if (events.collectGarbage !== undefined && sinceCollect >= COLLECT_EVERY) {
        sinceCollect = 0;
        events.collectGarbage();
      }
      if (failure !== undefined) {
        body.destroy();
        return stop(undefined);
      }
      // Every block full or queued: wait for the disk before reading on.
      if (spare.length === 0 && blocks >= BLOCKS_PER_BODY && !paused) {
        paused = true;
        body.pause();
      }
    };
    // Nothing flows until the file is open.
    open(path, start === 0 && limit === undefined ? 'w' : 'r+', (error, opened) => {
      if (error !== null) {
        failure ??= error;
        ended = true;
        body.destroy();
        return settle();
      }
      fd = opened;
      body.read({ data: take, end: stop });
    });
  });
}
