/**
 * The extraction's own thread. Inflating, parsing and writing 20,000 files is about a second
 * of steady work; on the extension host's thread it would hold up every other extension for as
 * long, so it runs on a worker thread (extractWorker.ts), and this side only starts it, passes
 * on its progress, asks it to stop, and turns what it sends back into errors again.
 *
 * Cancelling sets a flag in shared memory that the worker reads before every entry and every
 * chunk. Whatever happens, the promise settles only once the thread has ended, so no write can
 * land after the caller removes the staging folder.
 */
import * as l10n from '@vscode/l10n';
import { Worker } from 'node:worker_threads';
import type { L10nBundle } from '../../l10n';
import { UnsafeArchiveError, type ArchiveKind, type UnsafeArchiveReason } from './archivePaths';
import type { ExtractLimits, LimitNames } from './limits';
import type { StagedContents } from './staging';
import { DiskSpaceError } from '../diskSpace';
import { AbortedError } from '../../abort';

/** What the worker is given (`workerData`). */
export interface WorkerJob {
  kind: ArchiveKind;
  archivePath: string;
  /** The staging folder, made empty by the caller. */
  root: string;
  limits: ExtractLimits;
  /** How messages name the limits; the settings when undefined. */
  names: LimitNames | undefined;
  /** One Int32 in shared memory: 0 to go on, 1 to stop. */
  abort: Int32Array;
  /** The translations the worker's messages use (its own `@vscode/l10n` is not configured); English when undefined. */
  l10n: L10nBundle | undefined;
}

/** An error, as it crosses between threads (a structured clone keeps no class and no fields). */
export type SentError =
  | { kind: 'unsafe'; reason: UnsafeArchiveReason; message: string; entry: string | undefined }
  | { kind: 'aborted' }
  | { kind: 'disk'; message: string; dir: string; free: number | undefined }
  | { kind: 'system'; message: string; code: string | undefined; syscall: string | undefined; path: string | undefined };

export type WorkerMessage = { type: 'progress'; entries: number; bytes: number } | { type: 'done'; contents: StagedContents } | { type: 'failed'; error: SentError };

export function sendable(error: Error): SentError {
  if (error instanceof UnsafeArchiveError) return { kind: 'unsafe', reason: error.reason, message: error.message, entry: error.entry };
  if (error instanceof AbortedError) return { kind: 'aborted' };
  if (error instanceof DiskSpaceError) return { kind: 'disk', message: error.message, dir: error.dir, free: error.free };
  const fields = error as { code?: unknown; syscall?: unknown; path?: unknown };
  const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
  return { kind: 'system', message: error.message, code: text(fields.code), syscall: text(fields.syscall), path: text(fields.path) };
}

export function received(sent: SentError): Error {
  if (sent.kind === 'unsafe') return new UnsafeArchiveError(sent.reason, sent.message, sent.entry);
  if (sent.kind === 'aborted') return new AbortedError();
  if (sent.kind === 'disk') return new DiskSpaceError(sent.message, sent.dir, undefined, sent.free);
  const error = new Error(sent.message);
  for (const field of ['code', 'syscall', 'path'] as const) if (sent[field] !== undefined) Object.assign(error, { [field]: sent[field] });
  return error;
}

/** The thread died without saying why it stopped (a crash, or out of memory). */
function crashed(code: number, error: unknown): Error {
  const detail = error instanceof Error ? error.message : l10n.t('exit code {0}', code);
  return new Error(l10n.t('The extraction stopped unexpectedly ({0}). Nothing was extracted and the folder was left as it was. Try again; if it happens again, report it along with the log.', detail), { cause: error });
}

/** After a stop is asked, how long the worker has to notice before it is ended the hard way. */
const STOP_GRACE_MS = 2_000;

export interface ThreadOptions {
  signal?: AbortSignal | undefined;
  onProgress?: ((entries: number, bytes: number) => void) | undefined;
}

/** Runs one extraction on a worker thread started from `script`; settles once the thread has ended. */
export function extractOnThread(script: string, job: Omit<WorkerJob, 'abort'>, options: ThreadOptions): Promise<StagedContents> {
  return new Promise<StagedContents>((resolve, reject) => {
    const abort = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(script, { workerData: { ...job, abort } satisfies WorkerJob });
    let outcome: { ok: true; contents: StagedContents } | { ok: false; error: Error } | undefined;
    let failure: unknown;
    let hardStop: ReturnType<typeof setTimeout> | undefined;
    const stop = (): void => {
      Atomics.store(abort, 0, 1);
      hardStop ??= setTimeout(() => void worker.terminate(), STOP_GRACE_MS);
    };
    options.signal?.addEventListener('abort', stop, { once: true });
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'progress') {
        if (outcome === undefined && options.signal?.aborted !== true) options.onProgress?.(message.entries, message.bytes);
        return;
      }
      outcome ??= message.type === 'done' ? { ok: true, contents: message.contents } : { ok: false, error: received(message.error) };
      // Its work is done and its file closed; ending it here means nothing of it runs on.
      void worker.terminate();
    });
    // An exception nobody caught in the worker; 'exit' follows.
    worker.on('error', (error) => (failure ??= error));
    worker.on('exit', (code) => {
      clearTimeout(hardStop);
      options.signal?.removeEventListener('abort', stop);
      if (outcome?.ok === true) resolve(outcome.contents);
      else if (outcome !== undefined) reject(outcome.error);
      else if (options.signal?.aborted === true) reject(new AbortedError());
      else reject(crashed(code, failure));
    });
  });
}
