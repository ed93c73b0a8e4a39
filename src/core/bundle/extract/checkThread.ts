/**
 * The archive check of a file being written: on the archive worker thread (checkTask.ts), which
 * reads the archive through to its end (tarGzCheck.ts, zipCheck.ts) from its start, as far as
 * its bytes are known to be on disk. This side starts it, lends it the blocks just written at
 * the front of the file (`lend`: moved to the worker, not copied, and given back once gunzip
 * has taken them), tells it how far the file is whole (`advance`: what it was not lent, it reads
 * from the file), that it starts over (`restart`), or that it is complete (`finish`), and turns
 * its answer into the archive's kind or an `UnsafeArchiveError`.
 *
 * A download feeds it as the bytes reach the disk, so a tar.gz is checked while it downloads, on
 * another core than the one that reads the network and writes the file; a zip (its directory is
 * at its end) and whatever is left once the last byte is written are checked then. A file on
 * disk (Import) is one `finish` of its whole size. Always on its own thread: in the editor,
 * inflating and parsing a large bundle would hold up the extension host; in the CLI, it would
 * hold up the download.
 */
import * as l10n from '@vscode/l10n';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { AbortedError } from '../../abort';
import type { L10nBundle } from '../../l10n';
import type { ArchiveKind } from './archivePaths';
import { received, type SentError } from './extractThread';

/** Whose bytes are checked: a download's (the store's), or a file the user chose. Changes the advice. */
export type CheckSubject = 'download' | 'file';

/** What the worker is given (`workerData`), beside the extraction's job. */
export interface CheckJob {
  task: 'check';
  path: string;
  subject: CheckSubject;
  /** One Int32 in shared memory: 0 to go on, 1 to stop. */
  abort: Int32Array;
  l10n: L10nBundle | undefined;
  /** The generation the worker starts in. */
  generation: number;
  /** Ask V8 for a minor collection every 2 MiB checked, when the process exposes `gc` (the CLI; see DownloadOptions.collectGarbage). */
  collect: boolean;
}

/**
 * `restart` begins a new generation: what the worker says of an older one is no longer heard.
 * `bytes`: the file's bytes from `at`, on disk, in the first `length` bytes of `block` (moved to
 * the worker); the worker gives the block back (`returned`, with its `id`) whatever happens.
 */
export type CheckCommand =
  | { type: 'advance'; bytes: number }
  | { type: 'bytes'; at: number; length: number; block: ArrayBuffer; id: number }
  | { type: 'finish'; bytes: number }
  | { type: 'restart'; generation: number }
  | { type: 'stop' };

export type CheckMessage =
  | ({ generation: number } & (
      | { type: 'progress'; bytes: number }
      | { type: 'checked'; kind: ArchiveKind; bytes: number }
      /** `truncated`: the bytes stop before the archive's end (with an unknown length, more may come). */
      | { type: 'failed'; error: SentError; truncated: boolean }
    ))
  | { type: 'returned'; id: number; block: ArrayBuffer };

/** Built beside this module: dist/extractWorker.js next to dist/extension.js, out/src/core/bundle/extract/ in tests. */
const WORKER_SCRIPT = join(__dirname, 'extractWorker.js');

/** An archive check that failed: the error, and whether the bytes only stopped early. */
export class CheckFailure extends Error {
  constructor(
    readonly error: Error,
    readonly truncated: boolean,
  ) {
    super(error.message, { cause: error });
    this.name = 'CheckFailure';
  }
}

export interface CheckThreadOptions {
  path: string;
  subject: CheckSubject;
  /** The worker's script; the archive worker beside this module unless given (the CLI gives its own file). */
  workerScript?: string | undefined;
  l10n?: L10nBundle | undefined;
  /** Bytes checked so far, now and then. */
  onProgress?: (bytes: number) => void;
  /** As soon as the check fails, before anyone asks. */
  onFailure?: (failure: CheckFailure) => void;
  /** See `CheckJob.collect`. */
  collectGarbage?: boolean | undefined;
  /** Where lent blocks go back (`lend`): a download's `BlockPool`. */
  blocks?: { give(block: Buffer): void; lost(): void } | undefined;
}

export class CheckThread {
  private worker: Worker | undefined;
  /** Blocks with the worker, by id. */
  private readonly lent = new Set<number>();
  private lendings = 0;
  /** Where the bytes the worker was told of end: the next block it can be lent starts there. */
  private front = 0;
  private readonly abort = new Int32Array(new SharedArrayBuffer(4));
  private failure: CheckFailure | undefined;
  private waiting: { resolve: (kind: ArchiveKind) => void; reject: (error: Error) => void } | undefined;
  private exited: Promise<void> = Promise.resolve();
  private closed = false;
  private generation = 0;

  constructor(private readonly o: CheckThreadOptions) {}

  /** The file is whole from its start up to `bytes`. */
  advance(bytes: number): void {
    this.front = Math.max(this.front, bytes);
    this.send({ type: 'advance', bytes });
  }

  /** Starts the worker now, so that it is ready when the first bytes are (it starts with the first command otherwise). */
  prepare(): void {
    if (!this.closed) this.start();
  }

  /**
   * The file's bytes from `at` are on disk, in the first `length` bytes of `block` (which must
   * own its memory, as a block from `BlockPool` does): when they are the next the check is to
   * read, it reads them from there rather than from the file. True when the block went to the
   * worker (it comes back to `blocks` once read, or is `lost` if the thread ends with it). False
   * when it is not the next (a range further on: the check reads it from the file when it gets
   * there), or the check takes no more: the block stays the caller's.
   */
  lend(at: number, block: Buffer, length: number): boolean {
    if (this.o.blocks === undefined || at !== this.front || this.closed || this.failure !== undefined || block.byteOffset !== 0 || block.buffer.byteLength !== block.length) return false;
    const worker = this.start();
    const id = this.lendings++;
    this.lent.add(id);
    this.front = at + length;
    const memory = block.buffer as ArrayBuffer;
    worker.postMessage({ type: 'bytes', at, length, block: memory, id } satisfies CheckCommand, [memory]);
    return true;
  }

  /** The file starts over from its first byte (its earlier bytes are no longer what will be checked). */
  restart(): void {
    this.failure = undefined;
    this.front = 0;
    this.generation++;
    if (this.worker !== undefined) this.send({ type: 'restart', generation: this.generation });
  }

  /** The file is complete at `bytes`: the archive's kind once it is read through, or why not (`CheckFailure`). */
  finish(bytes: number): Promise<ArchiveKind> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise<ArchiveKind>((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.send({ type: 'finish', bytes });
    });
  }

  /** Stops the worker; resolves once its thread has ended (it reads the file no more). */
  async close(): Promise<void> {
    this.closed = true;
    Atomics.store(this.abort, 0, 1);
    const worker = this.worker;
    this.worker = undefined;
    if (worker !== undefined) await worker.terminate();
    await this.exited;
    this.loseLent();
    this.waiting?.reject(new AbortedError());
    this.waiting = undefined;
  }

  private send(command: CheckCommand): void {
    if (this.closed) return;
    this.start().postMessage(command);
  }

  /** Blocks the worker held when it ended: they are not coming back. */
  private loseLent(): void {
    for (const _ of this.lent) this.o.blocks?.lost();
    this.lent.clear();
  }

  private start(): Worker {
    if (this.worker !== undefined) return this.worker;
    const job: CheckJob = { task: 'check', path: this.o.path, subject: this.o.subject, abort: this.abort, l10n: this.o.l10n, generation: this.generation, collect: this.o.collectGarbage === true };
    const worker = new Worker(this.o.workerScript ?? WORKER_SCRIPT, { workerData: job });
    this.worker = worker;
    let crash: unknown;
    worker.on('message', (message: CheckMessage) => this.heard(message));
    worker.on('error', (error) => (crash ??= error));
    this.exited = new Promise((resolve) =>
      worker.once('exit', (code) => {
        if (this.worker === worker && !this.closed) {
          this.worker = undefined;
          this.loseLent();
          const detail = crash instanceof Error ? crash.message : l10n.t('exit code {0}', code);
          this.fail(new CheckFailure(new Error(l10n.t('The archive check stopped unexpectedly ({0}). Nothing was saved; try again, and if it happens again, report it along with the log.', detail), { cause: crash }), false));
        }
        resolve();
      }),
    );
    return worker;
  }

  private heard(message: CheckMessage): void {
    if (message.type === 'returned') {
      if (this.lent.delete(message.id)) this.o.blocks?.give(Buffer.from(message.block));
      return;
    }
    if (message.generation !== this.generation) return;
    if (message.type === 'progress') return this.o.onProgress?.(message.bytes);
    if (message.type === 'checked') {
      this.o.onProgress?.(message.bytes);
      this.waiting?.resolve(message.kind);
      this.waiting = undefined;
      return;
    }
    this.fail(new CheckFailure(received(message.error), message.truncated));
  }

  private fail(failure: CheckFailure): void {
    if (this.failure !== undefined) return;
    this.failure = failure;
    this.o.onFailure?.(failure);
    this.waiting?.reject(failure);
    this.waiting = undefined;
  }
}

/** The archive check's error as it is told: an `UnsafeArchiveError` (damaged, not an archive, unsupported), or what stopped the thread. */
export function checkError(failure: unknown): Error {
  if (failure instanceof CheckFailure) return failure.error;
  return failure instanceof Error ? failure : new Error(String(failure));
}
