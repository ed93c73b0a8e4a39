/**
 * Jobs of one environment, kept current: the registry (what is tracked), the API client
 * (what it is now) and the scheduler (when to ask). The editor and the CLI show what this
 * service knows; it never shows anything itself.
 */
import { AbortedError } from '../abort';
import type { AgentJob, ExportJob } from '../api/types';
import { english } from '../l10n';
import type { Logger } from '../log';
import type { Clock } from './clock';
import type { JobRegistry } from './registry';
import { PollScheduler, type PollOutcome, type PollTarget } from './scheduler';
import { isTerminal, jobKey, type JobKey, type TrackedJob } from './trackedJob';
import type { AdminApiClient } from '../api/client';
import { ApiError, AuthError, formatWait, NotFoundError, RateLimitedError } from '../api/errors';

export type ServiceState =
  | { kind: 'ok' }
  | { kind: 'noKey' }
  | { kind: 'unauthorized'; message: string }
  | { kind: 'unreachable'; message: string };

export interface Transition {
  key: JobKey;
  job: TrackedJob;
  from: string | undefined;
  to: string;
}

export interface JobsServiceOptions {
  client: Pick<AdminApiClient, 'getAgentJob' | 'getExportJob' | 'startExport'>;
  registry: JobRegistry;
  clock: Clock;
  isFocused: () => boolean;
  log: Logger;
  floorMs?: number;
  ceilingMs?: number;
  maxConcurrent?: number;
  /**
   * Whether anything shows the jobs yet (a view, the status bar). When false, no request is made
   * until `setDemand(true)`: an editor that starts with a key and tracked jobs asks the server
   * nothing until a person can see the answer. The CLI and tests: true (the default).
   */
  demanded?: boolean;
}

type Listener<T> = (value: T) => void;

/** What a poll can show a person: status, progress, pages, pull request, error. */
function progressPrint(job: AgentJob | ExportJob): string {
  return 'jobId' in job
    ? JSON.stringify([job.rawStatus, job.progress, job.pageCount, job.error])
    : JSON.stringify([job.rawStatus, job.prLink, job.archivedAt]);
}

export class JobsService {
  private readonly scheduler: PollScheduler;
  private readonly errors = new Map<JobKey, string>();
  private state: ServiceState = { kind: 'ok' };
  private readonly stateListeners = new Set<Listener<ServiceState>>();
  private readonly transitionListeners = new Set<Listener<Transition>>();
  private readonly changeListeners = new Set<Listener<JobKey[]>>();
  private readonly registryListener: { dispose(): void };
  /**
   * The jobs this window follows to their end, with the status last seen (undefined: not read
   * yet): each one started or tracked here, or seen running in a reading (the reply to a start
   * is one). A followed job notifies once, when a reading first shows it ended, whichever reading
   * that is (a poll, or another window's merged in).
   */
  private readonly followed = new Map<JobKey, string | undefined>();
  /** Exports another part polls and reports on (the publish pipeline): no notification of their end. */
  private readonly observed = new Set<JobKey>();
  /** False until a view or the status bar needs the jobs: no request before (see `setDemand`). */
  private demanded: boolean;
  private hasKey = true;

  constructor(private readonly options: JobsServiceOptions) {
    this.scheduler = new PollScheduler({
      clock: options.clock,
      isFocused: options.isFocused,
      poll: (target, signal) => this.poll(target, signal),
      log: options.log,
      ...(options.floorMs === undefined ? {} : { floorMs: options.floorMs }),
      ...(options.ceilingMs === undefined ? {} : { ceilingMs: options.ceilingMs }),
      ...(options.maxConcurrent === undefined ? {} : { maxConcurrent: options.maxConcurrent }),
    });
    this.registryListener = options.registry.onDidChange((keys, elsewhere) => {
      // Another window stopped tracking a job, or started one: poll accordingly.
      for (const key of elsewhere.removed) {
        this.scheduler.untrack(key);
        this.errors.delete(key);
        this.followed.delete(key);
      }
      for (const key of elsewhere.added) {
        const job = options.registry.get(key);
        if (job !== undefined && !isTerminal(job)) this.scheduler.track({ key, kind: job.kind });
      }
      for (const key of elsewhere.reopened) {
        const job = options.registry.get(key);
        if (job !== undefined && !isTerminal(job)) this.scheduler.restart({ key, kind: job.kind });
      }
      this.emitChange(keys);
      this.noticeEnds(keys);
    });
    this.demanded = options.demanded ?? true;
    if (!this.demanded) this.scheduler.pause();
    for (const job of options.registry.list()) {
      if (isTerminal(job)) continue;
      this.followed.set(jobKey(job), job.snapshot?.status);
      this.scheduler.track({ key: jobKey(job), kind: job.kind });
    }
  }

  get currentState(): ServiceState {
    return this.state;
  }

  /** How many tracked jobs are not terminal yet. */
  get activeCount(): number {
    return this.scheduler.size;
  }

  list(): TrackedJob[] {
    return this.options.registry.list();
  }

  get(key: JobKey): TrackedJob | undefined {
    return this.options.registry.get(key);
  }

  /** The last error seen for a job (a 404, say), to show on its row. */
  errorOf(key: JobKey): string | undefined {
    return this.errors.get(key);
  }

  /**
   * Tracks an agent job by its id. Tracked by a person (`follow`, the default), it notifies when
   * it ends, even if it ends before the first poll; the playground's seeded jobs are not followed.
   */
  async trackAgentJob(id: string, options: { follow?: boolean } = {}): Promise<TrackedJob> {
    const job: TrackedJob = { kind: 'agent', id, addedAt: this.options.clock.now() };
    const key = jobKey(job);
    const existing = this.options.registry.get(key);
    if (existing !== undefined) {
      this.refresh(key);
      return existing;
    }
    if (options.follow !== false) this.followed.set(key, undefined);
    await this.options.registry.add(job);
    this.scheduler.track({ key, kind: 'agent' });
    return job;
  }

  /** Tracks an agent job just created (its first reading is the create's answer). */
  async addCreatedAgentJob(created: AgentJob): Promise<TrackedJob> {
    const job: TrackedJob = { kind: 'agent', id: created.id, addedAt: this.options.clock.now(), snapshot: created };
    const key = jobKey(job);
    if (this.options.registry.has(key)) {
      await this.reopenAgentJob(created);
      return this.options.registry.get(key) ?? job;
    }
    await this.options.registry.add(job);
    if (!isTerminal(job)) this.scheduler.track({ key, kind: 'agent' });
    this.setState({ kind: 'ok' });
    return job;
  }

  /**
   * An agent job that took a follow-up: its row shows it active again at once, and it is polled
   * again from scratch, whatever it was (completed, failed, or polled by a reading under way).
   */
  async reopenAgentJob(snapshot: AgentJob): Promise<void> {
    const key = jobKey({ kind: 'agent', id: snapshot.id });
    if (!this.options.registry.has(key)) {
      await this.addCreatedAgentJob(snapshot);
      return;
    }
    this.errors.delete(key);
    await this.options.registry.reopen(key, snapshot, this.options.clock.now());
    const job = this.options.registry.get(key);
    if (job !== undefined && !isTerminal(job)) this.scheduler.restart({ key, kind: 'agent' });
    this.setState({ kind: 'ok' });
    this.emitChange([key]);
  }

  /** Tracks an export started elsewhere (by its job id). */
  async trackExportJob(id: string, domain?: string, options: { follow?: boolean } = {}): Promise<TrackedJob> {
    const job: TrackedJob = { kind: 'export', id, addedAt: this.options.clock.now(), ...(domain === undefined ? {} : { domain }) };
    const key = jobKey(job);
    const existing = this.options.registry.get(key);
    if (existing !== undefined) return existing;
    if (options.follow !== false) this.followed.set(key, undefined);
    await this.options.registry.add(job);
    this.scheduler.track({ key, kind: 'export' });
    return job;
  }

  /**
   * An export someone else is already polling (the publish pipeline): its readings update the
   * row and the status bar, and the scheduler does not ask the server a second time.
   */
  async observeExport(snapshot: ExportJob, domain?: string): Promise<void> {
    const job: TrackedJob = { kind: 'export', id: snapshot.jobId, addedAt: this.options.clock.now(), ...(domain === undefined ? {} : { domain }), snapshot };
    const key = jobKey(job);
    // First, so that a release that follows this call is never undone by it.
    this.scheduler.untrack(key);
    this.observed.add(key);
    if (this.options.registry.get(key) === undefined) await this.options.registry.add(job);
    else await this.options.registry.updateSnapshot(key, snapshot);
  }

  /** The observer stopped (cancelled, failed): the scheduler polls the job again if it is not done. */
  releaseExport(jobId: string): void {
    const key = jobKey({ kind: 'export', id: jobId });
    this.observed.delete(key);
    const job = this.options.registry.get(key);
    if (job !== undefined && !isTerminal(job)) this.scheduler.track({ key, kind: 'export' });
  }

  /** Starts an export on the server and tracks it. */
  async startExport(domain: string, signal?: AbortSignal): Promise<ExportJob> {
    const started = await this.options.client.startExport({ domain }, signal === undefined ? {} : { signal });
    const job: TrackedJob = { kind: 'export', id: started.jobId, addedAt: this.options.clock.now(), domain, snapshot: started };
    // The reply is the first reading: an export that fails before the first poll still notifies.
    if (!isTerminal(job)) this.followed.set(jobKey(job), started.status);
    await this.options.registry.add(job);
    if (!isTerminal(job)) this.scheduler.track({ key: jobKey(job), kind: 'export' });
    this.setState({ kind: 'ok' });
    return started;
  }

  async untrack(key: JobKey): Promise<void> {
    this.scheduler.untrack(key);
    this.errors.delete(key);
    this.followed.delete(key);
    await this.options.registry.remove(key);
  }

  /** Polls now: one job, or every job that is not terminal (and those never read yet). A person asked: the jobs are demanded. */
  refresh(key?: JobKey): void {
    this.demanded = true;
    const jobs = key === undefined ? this.list() : [this.options.registry.get(key)].filter((j): j is TrackedJob => j !== undefined);
    for (const job of jobs) {
      const k = jobKey(job);
      if (!isTerminal(job) || this.errors.has(k)) this.scheduler.track({ key: k, kind: job.kind });
    }
    this.scheduler.refreshNow();
  }

  setFocused(focused: boolean): void {
    this.scheduler.setFocused(focused);
  }

  /** Reads the tracked jobs again: what other windows added, stopped or saw since. */
  reload(): void {
    this.options.registry.reload();
  }

  /** The key changed (set, cleared, or changed in another window). */
  keyChanged(hasKey: boolean): void {
    this.hasKey = hasKey;
    if (!hasKey) {
      this.scheduler.pause();
      this.setState({ kind: 'noKey' });
      return;
    }
    this.setState({ kind: 'ok' });
    // Nothing shows the jobs yet: the first reading waits for the first look (`setDemand`).
    if (!this.demanded) return;
    this.scheduler.resume();
    this.refresh();
  }

  /** Whether the jobs are demanded (see `JobsServiceOptions.demanded`). */
  get isDemanded(): boolean {
    return this.demanded;
  }

  /**
   * Something shows the jobs now (a view opened, the status bar has a job to show): polling
   * starts, every job not terminal read at once. Once demanded, always (until disposed).
   */
  setDemand(needed: boolean): void {
    if (!needed || this.demanded) return;
    this.demanded = true;
    if (!this.hasKey) return;
    this.scheduler.resume();
    this.refresh();
  }

  onDidChangeState(listener: Listener<ServiceState>): { dispose(): void } {
    this.stateListeners.add(listener);
    return { dispose: () => this.stateListeners.delete(listener) };
  }

  onDidTransition(listener: Listener<Transition>): { dispose(): void } {
    this.transitionListeners.add(listener);
    return { dispose: () => this.transitionListeners.delete(listener) };
  }

  /** Keys whose row changed (snapshot, error, tracked or not). */
  onDidChangeJobs(listener: Listener<JobKey[]>): { dispose(): void } {
    this.changeListeners.add(listener);
    return { dispose: () => this.changeListeners.delete(listener) };
  }

  dispose(): void {
    this.scheduler.dispose();
    this.registryListener.dispose();
    this.stateListeners.clear();
    this.transitionListeners.clear();
    this.changeListeners.clear();
  }

  private setState(state: ServiceState): void {
    if (JSON.stringify(state) === JSON.stringify(this.state)) return;
    this.state = state;
    for (const listener of this.stateListeners) listener(state);
  }

  private emitChange(keys: JobKey[]): void {
    for (const listener of this.changeListeners) listener(keys);
  }

  /** Rows that changed: a followed job seen ended for the first time notifies; one seen running is followed. */
  private noticeEnds(keys: JobKey[]): void {
    for (const key of keys) {
      const job = this.options.registry.get(key);
      if (job?.snapshot === undefined) continue;
      if (!isTerminal(job)) {
        this.followed.set(key, job.snapshot.status);
        continue;
      }
      if (!this.followed.has(key) || this.observed.has(key)) {
        this.followed.delete(key);
        continue;
      }
      const from = this.followed.get(key);
      this.followed.delete(key);
      // Tracked here, and first read ended before it was tracked (an export says when it ended): nothing ended while followed.
      if (from === undefined && 'updatedAt' in job.snapshot && Date.parse(job.snapshot.updatedAt ?? '') < job.addedAt) continue;
      for (const listener of this.transitionListeners) listener({ key, job, from, to: job.snapshot.status });
    }
  }

  private async poll(target: PollTarget, signal: AbortSignal): Promise<PollOutcome> {
    const key = target.key as JobKey;
    const job = this.options.registry.get(key);
    if (job === undefined) return { kind: 'ok', terminal: true, changed: false };
    const askedAt = this.options.clock.now();
    try {
      const snapshot: AgentJob | ExportJob =
        job.kind === 'agent' ? await this.options.client.getAgentJob(job.id, { signal }) : await this.options.client.getExportJob(job.id, { signal });
      // Reopened (a follow-up) while this reading was on its way: it tells of the run before.
      const current = this.options.registry.get(key);
      if (current !== undefined && current.kind === 'agent' && (current.reopenedAt ?? -Infinity) >= askedAt) return { kind: 'ok', terminal: false, changed: false };
      const before = job.snapshot;
      // A reading that shows the job ended notifies through the registry's change (noticeEnds).
      const hadError = this.errors.delete(key);
      const changed = await this.options.registry.updateSnapshot(key, snapshot);
      if (hadError && !changed) this.emitChange([key]);
      // A reading that was under way when the key was rejected (or removed) does not say "ok":
      // polling stays paused, and the state must say why.
      if (!this.scheduler.isPaused) this.setState({ kind: 'ok' });
      const updated = this.options.registry.get(key);
      // Stopped in another window meanwhile: no row, no notification, no more polls.
      if (updated === undefined) return { kind: 'ok', terminal: true, changed: false };
      const progress = 'progress' in snapshot ? snapshot.progress : undefined;
      // For the poll interval, only what a person sees counts: an export's `updatedAt` moves on
      // every read, and would keep a queued job at the fastest rate.
      const moved = changed && (before === undefined || progressPrint(before) !== progressPrint(snapshot));
      const created = snapshot.createdAt === undefined ? NaN : Date.parse(snapshot.createdAt);
      const ageMs = Number.isNaN(created) ? undefined : this.options.clock.now() - created;
      return { kind: 'ok', terminal: isTerminal(updated), changed: moved, ...(progress === undefined ? {} : { progress }), ...(ageMs === undefined ? {} : { ageMs }) };
    } catch (error) {
      if (error instanceof AbortedError) return { kind: 'error' };
      if (!(error instanceof ApiError)) throw error;
      if (error instanceof AuthError) {
        this.setState(error.reason === 'missing' ? { kind: 'noKey' } : { kind: 'unauthorized', message: error.message });
        return { kind: 'unauthorized' };
      }
      if (error instanceof RateLimitedError) {
        const retryAfterMs = error.retryAfterMs ?? 60_000;
        this.options.log.warn(`${error.message} Polling of every job waits ${formatWait(retryAfterMs, english)}.`);
        return { kind: 'rateLimited', retryAfterMs };
      }
      if (error instanceof NotFoundError || error.kind === 'forbidden' || error.kind === 'invalidInput') {
        // Asking again will not help until the user acts: show it on the row and stop.
        this.errors.set(key, error.message);
        this.emitChange([key]);
        return { kind: 'ok', terminal: true, changed: true };
      }
      this.options.log.warn(`Could not refresh ${key}: ${error.message}`);
      if (error.kind === 'network' || error.kind === 'timeout' || error.kind === 'redirect') {
        this.setState({ kind: 'unreachable', message: error.message });
      }
      this.errors.set(key, error.message);
      this.emitChange([key]);
      return { kind: 'error' };
    }
  }
}
