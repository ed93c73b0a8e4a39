/**
 * The 1 MiB blocks a download's bodies copy their bytes into: one pool per download, shared by
 * its connections and by the archive check, which borrows each block written at the front of
 * the file (it is moved to the check's worker thread, not copied) and gives it back once gunzip
 * has taken it. The blocks are the download's whole buffer: when none is free, the bodies stop
 * reading until one comes back, so a check that falls behind slows the download rather than
 * growing its memory, and no block is allocated per megabyte.
 */

/** Bytes gathered before each write to the file. */
export const BLOCK_BYTES = 1024 * 1024;
/** Per connection: one filling, one queued, one being written. */
const PER_CONNECTION = 3;
/** With the check: one gunzip is taking, one waiting its turn, one on its way back. */
const FOR_THE_CHECK = 3;

export class BlockPool {
  private readonly free: Buffer[] = [];
  private readonly waiting: (() => boolean)[] = [];
  /** Blocks that exist: free, filling, being written, or with the check. */
  private made = 0;

  /**
   * `max` blocks while all is well; a body that needs one more for the chunk in hand gets it
   * (so a chunk is never split across a wait) and then waits: at most one more per connection.
   */
  constructor(readonly max: number) {}

  /** The pool of a download over `connections` connections, its check included. */
  static forDownload(connections: number): BlockPool {
    return new BlockPool(PER_CONNECTION * connections + FOR_THE_CHECK);
  }

  /** A free block, or a new one (past `max` only when the caller cannot wait: see `short`). */
  take(): Buffer {
    const block = this.free.pop();
    if (block !== undefined) return block;
    this.made++;
    return Buffer.allocUnsafe(BLOCK_BYTES);
  }

  /** No block is free and `max` exist: a body should stop reading until `whenFree` calls back. */
  short(): boolean {
    return this.free.length === 0 && this.made >= this.max;
  }

  /**
   * Calls `resume` once, when a block is given back (at once if one is free). `resume` answers
   * whether it goes on reading (false: its body ended meanwhile, and the next waiting body is woken).
   */
  whenFree(resume: () => boolean): void {
    if (!this.short()) {
      resume();
      return;
    }
    this.waiting.push(resume);
  }

  /** A block back (written, or checked): to the body that waited longest, if one waits. */
  give(block: Buffer): void {
    // Detached (moved to a thread that ended) or not one of ours: it no longer counts.
    if (block.length !== BLOCK_BYTES) return this.lost();
    // One made past `max` for a chunk in hand is let go when nobody waits.
    if (this.made > this.max && this.waiting.length === 0) {
      this.made--;
      return;
    }
    this.free.push(block);
    this.wake();
  }

  /** A block that will not come back (the check's thread ended with it): one more may be made. */
  lost(): void {
    this.made--;
    this.wake();
  }

  /** The body that waited longest, or the next if that one no longer reads. */
  private wake(): void {
    for (let resume = this.waiting.shift(); resume !== undefined; resume = this.waiting.shift()) if (resume()) return;
  }
}

/** Bytes a download takes in, all its connections together, between two minor collections. */
const COLLECT_EVERY = 2 * 1024 * 1024;

/** Calls `collect` (DownloadOptions.collectGarbage) every 2 MiB taken in by any of a download's connections. */
export class Collections {
  private since = 0;

  constructor(private readonly collect: (() => void) | undefined) {}

  took(bytes: number): void {
    if (this.collect === undefined) return;
    this.since += bytes;
    if (this.since < COLLECT_EVERY) return;
    this.since = 0;
    this.collect();
  }
}
