/**
 * Waiting for one job to finish, for the CLI and the publish pipeline: the scheduler's interval
 * policy (tighten on change, back off when nothing moves, aim an export's polls at its predicted
 * finish) in a plain loop, with a timeout, an AbortSignal and tolerance for a few failed polls.
 */
import * as l10n from '@vscode/l10n';
import { ApiError, AuthError, ForbiddenError, InvalidInputError, NotFoundError } from '../api/apiErrors';
import { abortableSleep, AbortedError } from '../abort';
import type { AgentJob, CallOptions, ExportJob } from '../api/apiTypes';
import { emptyHistory, nextDelayMs, recordProgress, type PollHistory } from './interval';
import { agentStatusText } from './jobLabels';
import { isAgentTerminal, isExportTerminal } from './trackedJob';
import { isDeploymentTerminal, type Deployment } from '../deployments/deploymentTypes';

export class WaitTimeoutError extends Error {
  constructor(
    readonly jobId: string,
    readonly waitedMs: number,
    readonly last: string,
  ) {
    super(l10n.t('Gave up waiting for job {0} after {1} s (last status: {2}). It may still finish: check it later, or wait longer with --timeout.', jobId, Math.round(waitedMs / 1000), last));
    this.name = 'WaitTimeoutError';
  }
}

export interface WaitOptions<T> {
  /** Seconds to wait at most; undefined waits as long as it takes. */
  timeoutMs?: number;
  signal?: AbortSignal;
  onUpdate?: (job: T) => void;
  floorMs?: number;
  ceilingMs?: number;
  /** Failed polls in a row tolerated before giving up (auth, permission and 404 are never retried). */
  maxErrors?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
}

interface Subject<T> {
  id: string;
  get: (options: CallOptions) => Promise<T>;
  done: (job: T) => boolean;
  fingerprint: (job: T) => string;
  progress: (job: T) => number | undefined;
  status: (job: T) => string;
}

async function waitFor<T>(subject: Subject<T>, options: WaitOptions<T>): Promise<T> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? abortableSleep;
  const settings = { floorMs: options.floorMs ?? 2_000, ceilingMs: options.ceilingMs ?? 30_000 };
  const started = now();
  let history: PollHistory = emptyHistory();
  let previous: string | undefined;
  let last: string | undefined;
  let errors = 0;
  for (;;) {
    if (options.signal?.aborted) throw new AbortedError();
    let delay: number;
    try {
      const job = await subject.get(options.signal === undefined ? {} : { signal: options.signal });
      errors = 0;
      last = subject.status(job);
      options.onUpdate?.(job);
      if (subject.done(job)) return job;
      const print = subject.fingerprint(job);
      const progress = subject.progress(job);
      if (progress !== undefined) history = recordProgress(history, { at: now(), progress });
      const input = { kind: print === previous ? ('unchanged' as const) : ('changed' as const), ...(progress === undefined ? {} : { progress }) };
      previous = print;
      delay = nextDelayMs(history, input, settings);
    } catch (error) {
      const fatal = !(error instanceof ApiError) || error instanceof AuthError || error instanceof ForbiddenError || error instanceof NotFoundError || error instanceof InvalidInputError;
      if (fatal || ++errors > (options.maxErrors ?? 5)) throw error;
      delay = nextDelayMs(history, { kind: 'error' }, settings);
    }
    history = { ...history, lastDelayMs: delay };
    const waited = now() - started;
    if (options.timeoutMs !== undefined) {
      if (waited >= options.timeoutMs) throw new WaitTimeoutError(subject.id, waited, last ?? l10n.t({ message: 'not read yet', comment: ['The last status of a job that was never read, in: (last status: not read yet).'] }));
      delay = Math.min(delay, options.timeoutMs - waited);
    }
    await sleep(delay, options.signal);
  }
}

export interface WaitClient {
  getAgentJob(id: string, options?: CallOptions): Promise<AgentJob>;
  getExportJob(jobId: string, options?: CallOptions): Promise<ExportJob>;
}

/** Polls an agent job until it is completed, failed or archived (or an unknown status stays). */
export function waitForAgentJob(client: Pick<WaitClient, 'getAgentJob'>, id: string, options: WaitOptions<AgentJob> = {}): Promise<AgentJob> {
  return waitFor(
    {
      id,
      get: (o) => client.getAgentJob(id, o),
      done: (job) => isAgentTerminal(job),
      fingerprint: (job) => `${job.rawStatus ?? ''}|${job.prLink ?? ''}`,
      progress: () => undefined,
      status: (job) => agentStatusText(job),
    },
    options,
  );
}

/** Polls an export job until it is completed or failed. */
export function waitForExportJob(client: Pick<WaitClient, 'getExportJob'>, jobId: string, options: WaitOptions<ExportJob> = {}): Promise<ExportJob> {
  return waitFor(
    {
      id: jobId,
      get: (o) => client.getExportJob(jobId, o),
      done: (job) => isExportTerminal(job),
      fingerprint: (job) => `${job.rawStatus}|${job.progress ?? ''}|${job.pageCount ?? ''}`,
      progress: (job) => job.progress,
      status: (job) => (job.progress === undefined ? job.rawStatus : `${job.rawStatus} ${Math.round(job.progress)}%`),
    },
    options,
  );
}

/**
 * Polls a deployment until it succeeds or fails, at least every 5 s (its logs grow as it runs:
 * `onUpdate` sees each new reading).
 */
export function waitForDeployment(client: { getDeploymentStatus(statusId: string, options?: CallOptions): Promise<Deployment> }, statusId: string, options: WaitOptions<Deployment> = {}): Promise<Deployment> {
  return waitFor(
    {
      id: statusId,
      get: (o) => client.getDeploymentStatus(statusId, o),
      done: (d) => isDeploymentTerminal(d),
      fingerprint: (d) => `${d.rawStatus}|${d.logs.length}|${d.summary ?? ''}`,
      progress: () => undefined,
      status: (d) => d.rawStatus,
    },
    { ...options, ceilingMs: options.ceilingMs ?? 5_000 },
  );
}
