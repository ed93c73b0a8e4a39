/**
 * The CLI's worker threads' entry in its one packed file (scripts/pack-cli.mjs): a worker runs this
 * file, not the command line, and loads only its own kind: a site check's parse worker
 * (src/core/site/worker.ts) or the archive worker of a download's check and an extraction.
 */
import { workerData } from 'node:worker_threads';
import { isSiteWorker } from '../core/site/workerData';

void (isSiteWorker(workerData) ? import('../core/site/worker.js') : import('../core/bundle/extract/extractWorker.js'));
