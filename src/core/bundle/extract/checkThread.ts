/**
 * The archive check of a file being written: on the archive worker thread (checkTask.ts), which
 * reads the file from the start as far as its bytes are known to be on disk, and reads the
 * archive through to its end (tarGzCheck.ts, zipCheck.ts). This side starts it, tells it how far
 * the file is whole (`advance`), that it starts over (`restart`), or that it is complete
 * (`finish`), and turns its answer into the archive's kind or an `UnsafeArchiveError`.
 *
 * A download feeds it as the bytes reach the disk, so a tar.gz is checked while it downloads;
 * a zip (its directory is at its end) and whatever is left once the last byte is written are
 * checked then. A file on disk (Import) is one `finish` of its whole size. Off the extension
 * host's thread: inflating and parsing a large bundle would hold it up.
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
}

/** `restart` begins a new generation: what the worker says of an older one is no longer heard. */
export type CheckCommand = { type: 'advance'; bytes: number } | { type: 'finish'; bytes: number } | { type: 'restart'; generation: number } | { type: 'stop' };

export type CheckMessage = { generation: number } & (
  | { type: 'progress'; bytes: number }
  | { type: 'checked'; kind: ArchiveKind; bytes: number }
  /** `truncated`: the bytes stop before the archive's end (with an unknown length, more may come). */
  | { type: 'failed'; error: SentError; truncated: boolean }
);

/** Built beside this module: dist/extractWorker.js next to dist/extension.js, out/src/core/bundle/extract/ in tests. */
const WORKER_SCRIPT = join(__dirname, 'extractWorker.js');

/**
 * Runs the check on this thread instead of a worker (the CLI: no other work shares its thread,
 * and a second V8 isolate would cost its memory): the caller makes the check (checkTask.ts's
 * `FileCheck`), so that node-tar stays out of the editor's bundle.
 */
export type CheckHere = (job: CheckJob, send: (message: CheckMessage) => void) => { heard(command: CheckCommand): void };

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
  /** The check on this thread (see `CheckHere`); on a worker thread when absent. */
  here?: CheckHere | undefined;
}

/** Where commands go: the worker, or the check on this thread. */
interface Channel {
  postMessage(command: CheckCommand): void;
  terminate(): Promise<unknown>;
}

export class CheckThread {
  private worker: Channel | undefined;
  private readonly abort = new Int32Array(new SharedArrayBuffer(4));
  private failure: CheckFailure | undefined;
  private waiting: { resolve: (kind: ArchiveKind) => void; reject: (error: Error) => void } | undefined;
  private exited: Promise<void> = Promise.resolve();
  private closed = false;
  private generation = 0;

  constructor(private readonly o: CheckThreadOptions) {}

  /** The file is whole from its start up to `bytes`. */
  advance(bytes: number): void {
    this.send({ type: 'advance', bytes });
  }

  /** The file starts over from its first byte (its earlier bytes are no longer what will be checked). */
  restart(): void {
    this.failure = undefined;
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
    this.waiting?.reject(new AbortedError());
    this.waiting = undefined;
  }

  private send(command: CheckCommand): void {
    if (this.closed) return;
    this.start().postMessage(command);
  }

  private start(): Channel {
    if (this.worker !== undefined) return this.worker;
    const job: CheckJob = { task: 'check', path: this.o.path, subject: this.o.subject, abort: this.abort, l10n: this.o.l10n, generation: this.generation };
    if (this.o.here !== undefined) {
      // Answers come a turn later, as a worker's messages do.
      const check = this.o.here(job, (message) => setImmediate(() => this.heard(message)));
      this.worker = { postMessage: (command) => check.heard(command), terminate: () => Promise.resolve(check.heard({ type: 'stop' })) };
      return this.worker;
    }
    const worker = new Worker(this.o.workerScript ?? WORKER_SCRIPT, { workerData: job });
    this.worker = worker;
    let crash: unknown;
    worker.on('message', (message: CheckMessage) => this.heard(message));
    worker.on('error', (error) => (crash ??= error));
    this.exited = new Promise((resolve) =>
      worker.once('exit', (code) => {
        if (this.worker === worker && !this.closed) {
          this.worker = undefined;
          const detail = crash instanceof Error ? crash.message : l10n.t('exit code {0}', code);
          this.fail(new CheckFailure(new Error(l10n.t('The archive check stopped unexpectedly ({0}). Nothing was saved; try again, and if it happens again, report it along with the log.', detail), { cause: crash }), false));
        }
        resolve();
      }),
    );
    return worker;
  }

  private heard(message: CheckMessage): void {
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
