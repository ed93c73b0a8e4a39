/**
 * The parse worker thread: takes batches of files (their text), sends back their facts. Built as
 * its own file beside the extension (dist/siteWorker.js), so the editor's first whole-site check
 * never blocks the extension host; the CLI, one file, runs itself in the thread (see
 * cli/main.ts). Started by parallel.ts with `workerData: { docsAdminSite: true }`.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { factsOf } from './facts';
import { loadLibraries } from './libraries';
import type { FileFacts } from './siteTypes';
import { isSiteWorker } from './workerData';

export interface ParseBatch {
  type: 'parse';
  files: { file: string; text: string }[];
}

export type WorkerReply = { type: 'ready' } | { type: 'facts'; facts: { file: string; facts: FileFacts }[] } | { type: 'failed'; message: string };


if (!isMainThread && parentPort !== null && isSiteWorker(workerData)) {
  const port = parentPort;
  void loadLibraries().then(
    (libraries) => {
      port.on('message', (message: ParseBatch) => {
        const facts = message.files.map(({ file, text }) => ({ file, facts: factsOf(text, libraries) }));
        port.postMessage({ type: 'facts', facts } satisfies WorkerReply);
      });
      port.postMessage({ type: 'ready' } satisfies WorkerReply);
    },
    (error: unknown) => port.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error) } satisfies WorkerReply),
  );
}
