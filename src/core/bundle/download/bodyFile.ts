/**
 * A body into its file: the bytes are copied, as they come, into blocks of 1 MiB (blocks.ts),
 * and each full block is written at its position while the next one fills. A block written at
 * the front of the file is then lent to the archive check (`BodyEvents.lend`), which reads it
 * on its own thread and gives it back: the check reads the bytes the disk got without reading
 * the file back, and off the thread that reads the network and writes the file.
 *
 * One write at a time per file, whoever writes (the ranges of a download share one queue,
 * `WriteQueue`): the file system takes a file's lock for each buffered write, so a second write
 * to the same file only waits for it, spinning. Profiled (`perf record -g`, 1 GiB over loopback):
 * with four writes under way per connection, 8 % of all the CPU went to `rwsem_spin_on_owner`
 * under `ext4_buffered_write_iter`. Reading goes on while a block is written, into the next
 * block; when the download's blocks are all filling, queued, written or with the check, reading
 * pauses until one comes back, so memory stays flat.
 *
 * Plain callbacks, no promises per chunk: a GiB is 16,000 chunks or more.
 */
import * as l10n from '@vscode/l10n';
import { close, ftruncate, open, writev } from 'node:fs';
import { BLOCK_BYTES, BlockPool } from './blocks';
import type { StorageResponse } from './response';

/** Blocks one body may use when it has a pool of its own: one filling, one queued, one being written. */
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
  /**
   * A block is written: its first `length` bytes are the file's from `at`. Answer true to keep
   * it (the archive check reads it, and gives it back to the pool); told before `written`.
   */
  lend?(at: number, block: Buffer, length: number): boolean;
  /** Every byte from the body's start up to `end` (a file offset) is written. */
  written?(end: number): void;
}

/**
 * Streams a body into `path` from `start`. What arrived before a drop is written too (it is
 * good for a resume). If a write fails, the file is cut back to the blocks before it, so that
 * it never holds a gap that a resume would take for data. Resolves with the error that ended it
 * early, if any. `write` is the block writer (tests give one that fails on cue).
 */
export function writeBody(body: StorageResponse, path: string, start: number, events: BodyEvents, write = writeAll, pool = new BlockPool(BLOCKS_PER_BODY)): Promise<unknown> {
  return writeBlocks(body, path, start, events, new WriteQueue(write), undefined, pool).then((r) => r.failure);
}

/**
 * Streams a body into its range of a file that other ranges write too (through the same
 * `queue`): opened as it is (never truncated), at most `length` bytes written from `start`.
 * Resolves with the error that ended it early, if any, and where the bytes that reached the
 * disk end, without a gap: the resume point. A write that fails is not cut back (the other
 * ranges' bytes are in the same file).
 */
export function writeRange(body: StorageResponse, path: string, start: number, length: number, events: BodyEvents, queue: WriteQueue, pool: BlockPool): Promise<{ failure: unknown; end: number }> {
  return writeBlocks(body, path, start, events, queue, length, pool);
}

function writeBlocks(body: StorageResponse, path: string, start: number, events: BodyEvents, queue: WriteQueue, limit: number | undefined, pool: BlockPool): Promise<{ failure: unknown; end: number }> {
  return new Promise((resolve) => {
    let fd: number | undefined;
    /** Where the next block goes. */
    let position = start;
    let block: Buffer | undefined;
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
    const settle = (): void => {
      if (settled || inFlight > 0 || !ended) return;
      settled = true;
      if (failure !== undefined) body.destroy();
      if (block !== undefined) pool.give(block);
      block = undefined;
      const end = cutAt ?? position;
      if (fd === undefined) return resolve({ failure, end });
      const file = fd;
      const finish = (): void => close(file, () => resolve({ failure, end }));
      if (cutAt === undefined || limit !== undefined) finish();
      else ftruncate(file, cutAt, finish);
    };
    /** Hands the filled part of the block to the queue, and takes a fresh one. */
    const flush = (): void => {
      if (fd === undefined || fill === 0 || cutAt !== undefined || block === undefined) return;
      const full = block;
      const length = fill;
      const at = position;
      position += length;
      block = undefined;
      fill = 0;
      inFlight++;
      queue.add(fd, [full.subarray(0, length)], at, (error) => {
        inFlight--;
        // Lent only when it reached the disk, and only while nothing before it failed.
        if (error !== null || cutAt !== undefined || events.lend?.(at, full, length) !== true) pool.give(full);
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
      }, () => cutAt !== undefined);
    };
    const resume = (): boolean => {
      if (!paused || ended) return false;
      paused = false;
      body.resume();
      return true;
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
        block ??= pool.take();
        const n = chunk.copy(block, fill, at);
        fill += n;
        at += n;
        if (fill === BLOCK_BYTES) flush();
      }
      events.taken(chunk.length);
      if (failure !== undefined) {
        body.destroy();
        return stop(undefined);
      }
      // Every block filling, queued, being written or with the check: wait for one before reading on.
      if (!paused && pool.short()) {
        paused = true;
        body.pause();
        pool.whenFree(resume);
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
