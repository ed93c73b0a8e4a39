/**
 * The publish pipeline of a self-hosted deployment, in one call: start the export, wait for it,
 * generate the bundle, write the new link into the Helm values, run the rollout. Each step is
 * reported and logged. The values file changes only at its step, and is put back as it was when
 * the rollout fails, so a failure anywhere leaves it as it was.
 *
 * The values file is read when the publish starts (an unreadable one stops it before an export
 * is started) and again at its step: a change made meanwhile outside `staticExport` is kept and
 * the new link written into it; a change to `staticExport` itself stops the publish, written
 * over never. Every write goes only over the text just read (`ValuesStore.write`), and the
 * rollout's undo only over the text the publish wrote.
 */
import * as l10n from '@vscode/l10n';
import { ConflictError } from '../api/apiErrors';
import { english, sentences, type Translator } from '../l10n';
import { abortableSleep } from '../abort';
import { BundleLinks } from '../bundle/links/linkCache';
import type { Bundle, CallOptions, ExportJob, StartExportRequest } from '../api/apiTypes';
import { waitForExportJob, type WaitOptions } from '../jobs/wait';
import type { Logger } from '../log';
import { silentLogger } from '../log';
import { redactUrl } from '../redact';
import { checkBundleUrlScheme, ExportFailedError, RolloutError, ValuesChangedError } from './publishErrors';
import { readStaticExport, setStaticExport, type StaticExportChange } from './values';


export type PublishStep = 'start' | 'wait' | 'bundle' | 'values' | 'rollout';

/** A step's title, as progress shows it (`l10n`) or as the log says it (`english`). */
export function stepTitle(step: PublishStep, l10n: Translator): string {
  switch (step) {
    case 'start':
      return l10n.t('Starting the export');
    case 'wait':
      return l10n.t('Waiting for the export');
    case 'bundle':
      return l10n.t('Generating the bundle');
    case 'values':
      return l10n.t('Updating the values file');
    case 'rollout':
      return l10n.t('Rolling out');
  }
}

/** Each step's title in the display language, looked up when read. */
export const STEP_TITLES: Readonly<Record<PublishStep, string>> = {
  get start() {
    return stepTitle('start', l10n);
  },
  get wait() {
    return stepTitle('wait', l10n);
  },
  get bundle() {
    return stepTitle('bundle', l10n);
  },
  get values() {
    return stepTitle('values', l10n);
  },
  get rollout() {
    return stepTitle('rollout', l10n);
  },
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
  /** Writes `text` in place of `expected`; throws `ValuesChangedError`, writing nothing, when it no longer holds `expected`. */
  write(text: string, expected: string): Promise<void>;
}

/** The values of `staticExport` (not where they sit), to tell whether a change touched them. */
function staticExportValues(text: string, what: string): string {
  const block = readStaticExport(text, what);
  return JSON.stringify([block !== undefined, block?.enabled?.value, block?.bundleUrl?.value, block?.version?.value]);
}

/**
 * Writes the change into the values as they are now. `initial` is what they were when the
 * publish started: a change to `staticExport` since then stops it.
 */
async function writeValues(values: ValuesStore, initial: string, change: StaticExportChange, jobId: string, log: Logger): Promise<{ before: string; after: string }> {
  for (let attempt = 1; ; attempt++) {
    const before = await values.read();
    if (before !== initial) {
      if (staticExportValues(before, values.name) !== staticExportValues(initial, values.name)) {
        throw new ValuesChangedError(
          l10n.t('{0} was changed while the publish ran, in staticExport too, so the new bundle link was not written and your change was kept. The export {1} completed: publish again, or point the file at it with Update Helm Values.', values.name, jobId),
        );
      }
      log.info(`${values.name} was changed while the publish ran (not in staticExport); the new link goes into the file as it is now.`);
    }
    const after = setStaticExport(before, change, values.name);
    if (after === before) return { before, after };
    try {
      await values.write(after, before);
      return { before, after };
    } catch (error) {
      // Changed between the read and the write: read it again, a few times.
      if (!(error instanceof ValuesChangedError) || attempt >= 3) throw error;
    }
  }
}

/** The rollout failed: its error, saying what became of the values file. */
async function undoValues(values: ValuesStore, before: string, after: string, error: unknown, log: Logger): Promise<unknown> {
  let outcome: string;
  try {
    await values.write(before, after);
    outcome = l10n.t('{0} was put back as it was.', values.name);
    log.warn(`The rollout failed; ${values.name} was put back as it was.`);
  } catch (undo) {
    if (!(undo instanceof ValuesChangedError)) throw undo;
    outcome = l10n.t('{0} was changed during the rollout, so it was not put back: it still points at the new bundle, with that change. Check it before rolling out again.', values.name);
    log.warn(`The rollout failed; ${values.name} was changed meanwhile, so it was left as it is.`);
  }
  return error instanceof RolloutError ? new RolloutError(sentences(error.message, outcome), error.exitCode) : error;
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
  /**
   * Plain http: bundle links to a remote host: refused unless allowed (loopback is always
   * allowed). `hint` names the setting or flag that allows them, for the message.
   */
  allowHttpBundleUrl?: { allowed: boolean; hint: string };
  /** This machine's clock (for the bundle link's time left). */
  now?: () => number;
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
    log.info(`Publish ${o.domain}: ${stepTitle(name, english)}${detail ? ` (${detail})` : ''}.`);
    o.onStep?.(name, detail);
  };

  // Before anything starts on the server: a values file that cannot take the change stops it here.
  const initial = await o.values.read();
  setStaticExport(initial, { bundleUrl: 'https://bundle.invalid/check.tar.gz', ...(o.version === undefined ? {} : { version: o.version }) }, o.values.name);

  step('start', o.domain);
  const started = await o.client.startExport({ domain: o.domain, ...(o.version === undefined ? {} : { version: o.version }) }, call);
  const jobId = started.jobId;

  step('wait', jobId);
  const done = await waitForExportJob(o.client, jobId, { ...o.wait, ...call, ...(o.onProgress === undefined ? {} : { onUpdate: o.onProgress }) });
  if (done.status !== 'completed') throw new ExportFailedError(jobId, done.status === 'failed' ? done.error : l10n.t('it ended with status "{0}"', done.rawStatus));

  step('bundle', jobId);
  const generate = async (id: string, options?: CallOptions): Promise<Bundle> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await o.client.generateBundle(id, options);
      } catch (error) {
        // The job said completed; the bundle may lag a moment behind.
        if (!(error instanceof ConflictError) || attempt >= (o.conflictRetries ?? 5)) throw error;
        log.info(`Publish ${o.domain}: the bundle is not ready yet (409); asking again.`);
        await sleep(o.conflictDelayMs ?? 2_000, o.signal);
      }
    }
  };
  // A link that came already expired never reaches the values file: a pod started from it could
  // not fetch the site. A new one is asked for, as a download does, then the publish stops.
  const { bundle } = await new BundleLinks(generate, o.now).issue(jobId, call);

  // Written into the values, an http: link would have the deployment fetch the site unencrypted.
  checkBundleUrlScheme(bundle.bundleUrl, o.allowHttpBundleUrl ?? { allowed: false, hint: 'allowHttpBundleUrl' });
  step('values', o.values.name);
  const { before, after } = await writeValues(o.values, initial, { bundleUrl: bundle.bundleUrl, ...(o.version === undefined ? {} : { version: o.version }) }, jobId, log);
  const valuesChanged = after !== before;
  log.info(`Publish ${o.domain}: ${o.values.name} now points at ${redactUrl(bundle.bundleUrl)}.`);

  if (o.rollout === undefined) return { jobId, ...(done.pageCount === undefined ? {} : { pageCount: done.pageCount }), bundle, valuesChanged, rolledOut: false };
  step('rollout');
  try {
    await o.rollout(o.signal);
  } catch (error) {
    throw valuesChanged ? await undoValues(o.values, before, after, error, log) : error;
  }
  return { jobId, ...(done.pageCount === undefined ? {} : { pageCount: done.pageCount }), bundle, valuesChanged, rolledOut: true };
}
