/**
 * The publish pipeline of a self-hosted deployment, in one call: start the export, wait for it,
 * generate the bundle, write the new link into the Helm values, run the rollout. Each step is
 * reported and logged. The values file changes only at its step, and is put back as it was when
 * the rollout fails, so a failure anywhere leaves it as it was.
 */
import { ConflictError } from '../api/errors';
import { abortableSleep } from '../sleep';
import type { Bundle, CallOptions, ExportJob, StartExportRequest } from '../api/types';
import { waitForExportJob, type WaitOptions } from '../jobs/wait';
import type { Logger } from '../log';
import { silentLogger } from '../log';
import { redactUrl } from '../redact';
import { ExportFailedError } from './errors';
import { setStaticExport } from './values';

export { ExportFailedError, RolloutError } from './errors';

export type PublishStep = 'start' | 'wait' | 'bundle' | 'values' | 'rollout';

export const STEP_TITLES: Record<PublishStep, string> = {
  start: 'Starting the export',
  wait: 'Waiting for the export',
  bundle: 'Generating the bundle',
  values: 'Updating the values file',
  rollout: 'Rolling out',
};

export interface PublishClient {
  startExport(request: StartExportRequest, options?: CallOptions): Promise<ExportJob>;
  getExportJob(jobId: string, options?: CallOptions): Promise<ExportJob>;
  generateBundle(jobId: string, options?: CallOptions): Promise<Bundle>;
}

/** Where the values live: a file on disk for the CLI, an editor buffer in VS Code. */
export interface ValuesStore {
  /** How to name it in messages. */
  readonly name: string;
  read(): Promise<string>;
  write(text: string): Promise<void>;
}


export interface PublishOptions {
  client: PublishClient;
  domain: string;
  version?: string;
  values: ValuesStore;
  /** Runs the rollout (helm upgrade …); throws `RolloutError` when it fails. */
  rollout?: (signal?: AbortSignal) => Promise<void>;
  onStep?: (step: PublishStep, detail?: string) => void;
  onProgress?: (job: ExportJob) => void;
  log?: Logger;
  signal?: AbortSignal;
  wait?: Omit<WaitOptions<ExportJob>, 'signal' | 'onUpdate'>;
  /** Bundle generation answering 409 right after completion is retried this many times. */
  conflictRetries?: number;
  conflictDelayMs?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface PublishResult {
  jobId: string;
  pageCount?: number;
  bundle: Bundle;
  /** Whether the values file changed (it is not rewritten when it already said the same). */
  valuesChanged: boolean;
  rolledOut: boolean;
}

export async function publish(o: PublishOptions): Promise<PublishResult> {
  const log = o.log ?? silentLogger;
  const sleep = o.sleep ?? abortableSleep;
  const call = o.signal === undefined ? {} : { signal: o.signal };
  const step = (name: PublishStep, detail?: string) => {
    log.info(`Publish ${o.domain}: ${STEP_TITLES[name]}${detail ? ` (${detail})` : ''}.`);
    o.onStep?.(name, detail);
  };

  step('start', o.domain);
  const started = await o.client.startExport({ domain: o.domain, ...(o.version === undefined ? {} : { version: o.version }) }, call);
  const jobId = started.jobId;

  step('wait', jobId);
  const done = await waitForExportJob(o.client, jobId, { ...o.wait, ...call, ...(o.onProgress === undefined ? {} : { onUpdate: o.onProgress }) });
  if (done.status !== 'completed') throw new ExportFailedError(jobId, done.status === 'failed' ? done.error : `it ended with status "${done.rawStatus}"`);

  step('bundle', jobId);
  let bundle: Bundle | undefined;
  for (let attempt = 0; bundle === undefined; attempt++) {
    try {
      bundle = await o.client.generateBundle(jobId, call);
    } catch (error) {
      // The job said completed; the bundle may lag a moment behind.
      if (!(error instanceof ConflictError) || attempt >= (o.conflictRetries ?? 5)) throw error;
      log.info(`Publish ${o.domain}: the bundle is not ready yet (409); asking again.`);
      await sleep(o.conflictDelayMs ?? 2_000, o.signal);
    }
  }

  step('values', o.values.name);
  const before = await o.values.read();
  const after = setStaticExport(before, { bundleUrl: bundle.bundleUrl, ...(o.version === undefined ? {} : { version: o.version }) }, o.values.name);
  const valuesChanged = after !== before;
  if (valuesChanged) await o.values.write(after);
  log.info(`Publish ${o.domain}: ${o.values.name} now points at ${redactUrl(bundle.bundleUrl)}.`);

  if (o.rollout === undefined) return { jobId, ...(done.pageCount === undefined ? {} : { pageCount: done.pageCount }), bundle, valuesChanged, rolledOut: false };
  step('rollout');
  try {
    await o.rollout(o.signal);
  } catch (error) {
    if (valuesChanged) {
      await o.values.write(before);
      log.warn(`Publish ${o.domain}: the rollout failed; ${o.values.name} was put back as it was.`);
    }
    throw error;
  }
  return { jobId, ...(done.pageCount === undefined ? {} : { pageCount: done.pageCount }), bundle, valuesChanged, rolledOut: true };
}
