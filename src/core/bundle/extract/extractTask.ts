/**
 * The archive worker's extraction (started by extractThread.ts, run by extractWorker.ts): reads
 * the archive into the staging folder it is given, sends progress now and then, and one last
 * message: what it extracted, or why it stopped.
 */
import { classify, readTar, readZip } from './archiveReaders';
import { sendable, type WorkerJob, type WorkerMessage } from './extractThread';
import { Staging } from './staging';

/** At most one progress message per this many milliseconds (the first entry always sends one). */
const PROGRESS_EVERY_MS = 50;

export async function extractTask(job: WorkerJob, send: (message: WorkerMessage) => void): Promise<void> {
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

