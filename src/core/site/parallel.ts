/**
 * Parses many files on several threads (worker.ts), the biggest first, each thread asking for
 * the next batch when it is done, so the two cores of a small machine finish together. With
 * `mainThread`, this thread parses too (the CLI: one worker fewer to start); the editor leaves
 * it free.
 */
import * as l10n from '@vscode/l10n';
import { Worker } from 'node:worker_threads';
import { factsOf } from './facts';
import type { Libraries } from './libraries';
import type { FileFacts } from './siteTypes';
import type { ParseBatch, WorkerReply } from './worker';
import { SITE_WORKER_DATA } from './workerData';

export interface ParallelOptions {
  /** Threads in all (the main one counted when `mainThread`). */
  threads: number;
  /** The worker's script: dist/siteWorker.js, or the CLI's own file. */
  workerScript: string;
  /** The parsers, when this thread parses too. */
  mainThread?: Libraries;
  signal?: AbortSignal;
}

const BATCH_BYTES = 256 * 1024;

export async function parseAll(files: { file: string; text: string }[], options: ParallelOptions): Promise<Map<string, FileFacts>> {
  const results = new Map<string, FileFacts>();
  const queue = [...files].sort((a, b) => b.text.length - a.text.length || (a.file < b.file ? -1 : 1));
  const take = (bytes: number) => {
    const batch: { file: string; text: string }[] = [];
    let size = 0;
    while (queue.length > 0 && (batch.length === 0 || size < bytes)) {
      const next = queue.shift();
      if (next === undefined) break;
      batch.push(next);
      size += next.text.length;
    }
    return batch;
  };
  const workerCount = Math.max(0, options.threads - (options.mainThread === undefined ? 0 : 1));
  const workers = Array.from({ length: Math.min(workerCount, Math.max(0, files.length - 1)) }, () => runWorker(options.workerScript, take, results, options.signal));
  const libraries = options.mainThread;
  if (libraries !== undefined || workers.length === 0) {
    const own = libraries ?? (await import('./libraries.js')).loadLibraries();
    const parsers = await own;
    while (queue.length > 0) {
      if (options.signal?.aborted === true) throw new Error(l10n.t('The check was cancelled.'));
      const next = queue.shift();
      if (next === undefined) break;
      results.set(next.file, factsOf(next.text, parsers));
      // Let the workers' messages in between files.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  await Promise.all(workers);
  return results;
}

function runWorker(script: string, take: (bytes: number) => { file: string; text: string }[], results: Map<string, FileFacts>, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { workerData: SITE_WORKER_DATA });
    const stop = () => void worker.terminate();
    signal?.addEventListener('abort', stop, { once: true });
    let finished = false;
    const finish = (error?: Error) => {
      finished = true;
      signal?.removeEventListener('abort', stop);
      void worker.terminate().then(() => (error === undefined ? resolve() : reject(error)));
    };
    const send = () => {
      const files = take(BATCH_BYTES);
      if (files.length === 0) finish();
      else worker.postMessage({ type: 'parse', files } satisfies ParseBatch);
    };
    worker.on('message', (reply: WorkerReply) => {
      if (reply.type === 'failed') finish(new Error(reply.message));
      else if (reply.type === 'facts') {
        for (const { file, facts } of reply.facts) results.set(file, facts);
        send();
      } else send();
    });
    worker.on('error', (error) => finish(error));
    worker.on('exit', (code) => {
      if (!finished && signal?.aborted !== true) reject(new Error(l10n.t('The parse worker stopped (exit {0}).', code)));
    });
  });
}
