/**
 * The archive worker thread, built as its own file beside the extension (dist/extractWorker.js;
 * in the CLI, one file, the worker's own entry: scripts/pack-cli.mjs). Two tasks, each loaded
 * only by the thread that runs it: one extraction (started by extractThread.ts, extractTask.ts),
 * or one archive check (checkThread.ts, checkTask.ts), which follows a file as it is written and
 * reads the archive through.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { configureL10n } from '../../l10n';
import type { CheckCommand, CheckJob, CheckMessage } from './checkThread';
import type { WorkerJob } from './extractThread';

if (!isMainThread && parentPort !== null) {
  const port = parentPort;
  const job = workerData as WorkerJob | CheckJob;
  // This thread's own module state: its messages are built here, in the editor's language.
  configureL10n(job.l10n);
  if ('task' in job && job.task === 'check') {
    // Commands that come while the check loads wait in the port: it delivers them once listened to.
    void Promise.all([import('./checkTask.js'), job.collect ? import('../../v8Flags.js') : undefined]).then(([{ FileCheck }, gc]) => {
      // Only the CLI asks for collections (it owns its process: see v8Flags.ts).
      const check = new FileCheck(job, (message: CheckMessage, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer), gc?.exposeMinorGc());
      port.on('message', (command: CheckCommand) => check.heard(command));
    });
  } else {
    void import('./extractTask.js').then(({ extractTask }) => extractTask(job as WorkerJob, (message) => port.postMessage(message)));
  }
}
