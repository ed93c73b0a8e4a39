/**
 * One poll of one tracked job: the reading stored in the registry, and what it means for the
 * scheduler (terminal, changed, progress, age) and for the service's state and the row's error.
 */
import { AbortedError } from '../abort';
import type { AdminApiClient } from '../api/client';
import { ApiError, AuthError, formatWait, NotFoundError, RateLimitedError } from '../api/apiErrors';
import { toSnapshot } from '../deployments/deploymentTypes';
import { english } from '../l10n';
import type { Logger } from '../log';
import type { Clock } from './clock';
import type { JobRegistry } from './registry';
import type { PollOutcome } from './scheduler';
import { isTerminal, type JobKey, type JobSnapshot } from './trackedJob';

export type ServiceState =
  | { kind: 'ok' }
  | { kind: 'noKey' }
  | { kind: 'unauthorized'; message: string }
  | { kind: 'unreachable'; message: string };

/** What a reading needs from the service around it. */
export interface ReadingContext {
  client: Pick<AdminApiClient, 'getAgentJob' | 'getExportJob' | 'getDeploymentStatus'>;
  registry: JobRegistry;
  clock: Clock;
  log: Logger;
  /** The last error seen per job, shown on its row. */
  errors: Map<JobKey, string>;
  /** Whether polling is paused (a rejected key): a reading under way then does not say "ok". */
  isPaused: () => boolean;
  setState: (state: ServiceState) => void;
  emitChange: (keys: JobKey[]) => void;
  /** Each deployment's log lines as last read (kept here, not in the registry's storage: they can be long). */
  logs: Map<JobKey, readonly string[]>;
}

/** What a poll can show a person: status, progress, pages, pull request, error. */
function progressPrint(job: JobSnapshot): string {
  if ('jobId' in job) return JSON.stringify([job.rawStatus, job.progress, job.pageCount, job.error]);
  if ('logLines' in job) return JSON.stringify([job.rawStatus, job.logLines, job.summary]);
  return JSON.stringify([job.rawStatus, job.prLink, job.archivedAt]);
}

/** One reading of a job from the server, as the registry stores it (a deployment's logs go to `ctx.logs`). */
async function readSnapshot(ctx: ReadingContext, key: JobKey, kind: 'agent' | 'export' | 'deployment', id: string, signal: AbortSignal): Promise<JobSnapshot> {
  switch (kind) {
    case 'agent':
      return ctx.client.getAgentJob(id, { signal });
    case 'export':
      return ctx.client.getExportJob(id, { signal });
    case 'deployment': {
      const deployment = await ctx.client.getDeploymentStatus(id, { signal });
      // Never fewer lines than already shown: a reading that was overtaken by a later one.
      if (deployment.logs.length >= (ctx.logs.get(key)?.length ?? 0)) ctx.logs.set(key, deployment.logs);
      return toSnapshot(deployment);
    }
  }
}

/** Reads one job now, stores the reading, and tells the scheduler what it found. */
export async function readJob(ctx: ReadingContext, key: JobKey, signal: AbortSignal): Promise<PollOutcome> {
  const job = ctx.registry.get(key);
  if (job === undefined) return { kind: 'ok', terminal: true, changed: false };
  const askedAt = ctx.clock.now();
  try {
    const snapshot = await readSnapshot(ctx, key, job.kind, job.id, signal);
    // Reopened (a follow-up) while this reading was on its way: it tells of the run before.
    const current = ctx.registry.get(key);
    if (current !== undefined && current.kind === 'agent' && (current.reopenedAt ?? -Infinity) >= askedAt) return { kind: 'ok', terminal: false, changed: false };
    const before = job.snapshot;
    // A reading that shows the job ended notifies through the registry's change (FollowedJobs).
    const hadError = ctx.errors.delete(key);
    const changed = await ctx.registry.updateSnapshot(key, snapshot);
    // A job still running is told to its row whatever the reading: the row's elapsed time moves
    // with each reading (a deployment queued or deploying without a new line reads the same).
    const stored = ctx.registry.get(key);
    if (!changed && (hadError || (stored !== undefined && !isTerminal(stored)))) ctx.emitChange([key]);
    // A reading that was under way when the key was rejected (or removed) does not say "ok":
    // polling stays paused, and the state must say why.
    if (!ctx.isPaused()) ctx.setState({ kind: 'ok' });
    const updated = ctx.registry.get(key);
    // Stopped in another window meanwhile: no row, no notification, no more polls.
    if (updated === undefined) return { kind: 'ok', terminal: true, changed: false };
    const progress = 'progress' in snapshot ? snapshot.progress : undefined;
    // For the poll interval, only what a person sees counts: an export's `updatedAt` moves on
    // every read, and would keep a queued job at the fastest rate.
    const moved = changed && (before === undefined || progressPrint(before) !== progressPrint(snapshot));
    const created = snapshot.createdAt === undefined ? NaN : Date.parse(snapshot.createdAt);
    const ageMs = Number.isNaN(created) ? undefined : ctx.clock.now() - created;
    return { kind: 'ok', terminal: isTerminal(updated), changed: moved, ...(progress === undefined ? {} : { progress }), ...(ageMs === undefined ? {} : { ageMs }) };
  } catch (error) {
    return failedReading(ctx, key, error);
  }
}

/** A reading that failed: what the row, the state and the scheduler make of it. */
function failedReading(ctx: ReadingContext, key: JobKey, error: unknown): PollOutcome {
  if (error instanceof AbortedError) return { kind: 'error' };
  if (!(error instanceof ApiError)) throw error;
  if (error instanceof AuthError) {
    ctx.setState(error.reason === 'missing' ? { kind: 'noKey' } : { kind: 'unauthorized', message: error.message });
    return { kind: 'unauthorized' };
  }
  if (error instanceof RateLimitedError) {
    const retryAfterMs = error.retryAfterMs ?? 60_000;
    ctx.log.warn(`${error.message} Polling of every job waits ${formatWait(retryAfterMs, english)}.`);
    return { kind: 'rateLimited', retryAfterMs };
  }
  if (error instanceof NotFoundError || error.kind === 'forbidden' || error.kind === 'invalidInput') {
    // Asking again will not help until the user acts: show it on the row and stop.
    ctx.errors.set(key, error.message);
    ctx.emitChange([key]);
    return { kind: 'ok', terminal: true, changed: true };
  }
  ctx.log.warn(`Could not refresh ${key}: ${error.message}`);
  if (error.kind === 'network' || error.kind === 'timeout' || error.kind === 'redirect') {
    ctx.setState({ kind: 'unreachable', message: error.message });
  }
  ctx.errors.set(key, error.message);
  ctx.emitChange([key]);
  return { kind: 'error' };
}
