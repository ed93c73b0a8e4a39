/**
 * The archive worker thread, built as its own file beside the extension (dist/extractWorker.js;
 * the CLI, one file, runs itself). Two tasks: one extraction (started by extractThread.ts), which
 * reads the archive into the staging folder it is given, sends progress now and then, and one
 * last message: what it extracted, or why it stopped; or one archive check (checkThread.ts,
 * checkTask.ts), which follows a file as it is written and reads the archive through.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { configureL10n } from '../../l10n';
import { classify, readTar, readZip } from './archiveReaders';
import type { CheckCommand, CheckJob, CheckMessage } from './checkThread';
import { FileCheck } from './checkTask';
import { sendable, type WorkerJob, type WorkerMessage } from './extractThread';
import { Staging } from './staging';

/** At most one progress message per this many milliseconds (the first entry always sends one). */
const PROGRESS_EVERY_MS = 50;

async function run(job: WorkerJob, send: (message: WorkerMessage) => void): Promise<void> {
  let reported = -Infinity;
  const staging = new Staging(job.root, job.limits, job.names, {
    aborted: () => Atomics.load(job.abort, 0) !== 0,
    progress: (entries, bytes) => {
      const now = performance.now();
      if (now - reported < PROGRESS_EVERY_MS) return;
      reported = now;
      send({ type: 'progress', entries, bytes });
    },
  });
  try {
    await (job.kind === 'zip' ? readZip(job.archivePath, staging) : readTar(job.archivePath, staging));
    send({ type: 'done', contents: staging.summary(job.kind) });
  } catch (error) {
    staging.release();
    send({ type: 'failed', error: sendable(classify(error)) });
  }
}

if (!isMainThread && parentPort !== null) {
  const port = parentPort;
  const job = workerData as WorkerJob | CheckJob;
  // This thread's own module state: its messages are built here, in the editor's language.
  configureL10n(job.l10n);
  if ('task' in job && job.task === 'check') {
    const check = new FileCheck(job, (message: CheckMessage) => port.postMessage(message));
    port.on('message', (command: CheckCommand) => check.heard(command));
  } else {
    void run(job as WorkerJob, (message) => port.postMessage(message));
  }
}
