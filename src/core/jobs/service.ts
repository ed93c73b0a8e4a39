/**
 * Jobs of one environment, kept current: the registry (what is tracked), the API client
 * (what it is now) and the scheduler (when to ask). The editor and the CLI show what this
 * service knows; it never shows anything itself.
 */
import type { AgentJob, ExportJob } from '../api/apiTypes';
import type { Logger } from '../log';
import type { Clock } from './clock';
import { FollowedJobs, type Transition } from './followed';
import { JobEvents, type Listener } from './jobEvents';
import { followRegistry } from './otherWindows';
import { readJob, type ReadingContext, type ServiceState } from './reading';
import type { JobRegistry } from './registry';
import { PollScheduler } from './scheduler';
import { isTerminal, jobKey, type JobKey, type TrackedJob } from './trackedJob';
import type { AdminApiClient } from '../api/client';
import type { DeployTarget } from '../deployments/deploymentTypes';

export type { Transition } from './followed';
export type { ServiceState } from './reading';
export interface JobsServiceOptions {
  client: Pick<AdminApiClient, 'getAgentJob' | 'getExportJob' | 'startExport' | 'getDeploymentStatus'>;
  registry: JobRegistry;
  clock: Clock;
  isFocused: () => boolean;
  /** Whether a view showing the jobs is visible (a running export is then read every few seconds). */
  isWatched?: () => boolean;
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

export class JobsService {
  private readonly scheduler: PollScheduler;
  private readonly errors = new Map<JobKey, string>();
  /** Each deployment's log lines, as last read (in memory only: see ReadingContext.logs). */
  private readonly logs = new Map<JobKey, readonly string[]>();
  private readonly abort = new AbortController();
  /** What one poll needs (reading.ts). */
  private readonly reading: ReadingContext;
  /** The state, the changed rows, the ends: what listeners hear (jobEvents.ts). */
  private readonly events = new JobEvents();
  private readonly registryListener: { dispose(): void };
  /** The jobs this window follows to their end: each notifies once when it ends. */
  private readonly followed: FollowedJobs;
  /** False until a view or the status bar needs the jobs: no request before (see `setDemand`). */
  private demanded: boolean;
  private hasKey = true;

  constructor(private readonly options: JobsServiceOptions) {
    const { client, registry, clock, log } = options;
    this.reading = { client, registry, clock, log, errors: this.errors, logs: this.logs, isPaused: () => this.scheduler.isPaused, setState: (state) => this.setState(state), emitChange: (keys) => this.emitChange(keys) };
    this.followed = new FollowedJobs(options.registry);
    this.scheduler = new PollScheduler({
      clock: options.clock,
      isFocused: options.isFocused,
      ...(options.isWatched === undefined ? {} : { isWatched: options.isWatched }),
      poll: (target, signal) => readJob(this.reading, target.key as JobKey, signal),
      log: options.log,
      ...(options.floorMs === undefined ? {} : { floorMs: options.floorMs }),
      ...(options.ceilingMs === undefined ? {} : { ceilingMs: options.ceilingMs }),
      ...(options.maxConcurrent === undefined ? {} : { maxConcurrent: options.maxConcurrent }),
    });
    this.registryListener = followRegistry({ registry, scheduler: this.scheduler, errors: this.errors, followed: this.followed, events: this.events });
    this.demanded = options.demanded ?? true;
    if (!this.demanded) this.scheduler.pause();
    for (const job of options.registry.list()) {
      if (isTerminal(job)) continue;
      this.followed.follow(jobKey(job), job.snapshot?.status);
      this.scheduler.track({ key: jobKey(job), kind: job.kind });
    }
  }

  get currentState(): ServiceState {
    return this.events.currentState;
  }

  /** How many tracked jobs are not terminal yet. */
  get activeCount(): number {
    return this.scheduler.size;
  }

  /** No poll is under way and none is due (paused, or nothing to read): no request comes until something changes. */
  get isIdle(): boolean {
    return this.scheduler.inFlight === 0 && !this.scheduler.hasTimer;
  }

  list(): TrackedJob[] {
    return this.options.registry.list();
  }

  /** The jobs still under way: not terminal, and not stopped by an error (a 404, say: no longer read, its row says why; an export a publish observes is read by it). */
  running(): TrackedJob[] {
    return this.list().filter((job) => !isTerminal(job) && (this.scheduler.isTracking(jobKey(job)) || !this.errors.has(jobKey(job))));
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
  trackAgentJob(id: string, options: { follow?: boolean } = {}): Promise<TrackedJob> {
    return this.trackById({ kind: 'agent', id, addedAt: this.options.clock.now() }, { ...options, refresh: true });
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

  /**
   * Tracks a deployment or preview by its status id: one just started here (`target` says what
   * it deploys), or one pasted (`target` unknown). Followed to its end: it notifies once.
   */
  async trackDeployment(statusId: string, target?: DeployTarget, options: { follow?: boolean } = {}): Promise<TrackedJob> {
    const job: TrackedJob = { kind: 'deployment', id: statusId, addedAt: this.options.clock.now(), ...(target === undefined ? {} : { target }) };
    const tracked = await this.trackById(job, { ...options, refresh: true });
    if (tracked === job) this.setState({ kind: 'ok' });
    return tracked;
  }

  /** A deployment's log lines as last read; undefined until it has been read in this window. */
  logsOf(key: JobKey): readonly string[] | undefined {
    return this.logs.get(key);
  }

  /** Reads one job now, whatever its state (a finished deployment's logs, after a reload). */
  async readNow(key: JobKey): Promise<void> {
    if (this.options.registry.get(key) === undefined) return;
    this.demanded = true;
    await readJob(this.reading, key, this.abort.signal).catch((error: unknown) => this.options.log.warn(`Could not read ${key}: ${error instanceof Error ? error.message : String(error)}`));
  }

  /** Tracks an export started elsewhere (by its job id). */
  trackExportJob(id: string, domain?: string, options: { follow?: boolean } = {}): Promise<TrackedJob> {
    return this.trackById({ kind: 'export', id, addedAt: this.options.clock.now(), ...(domain === undefined ? {} : { domain }) }, options);
  }

  /**
   * Tracks a job known by its id: the one already tracked (read again now when `refresh`), or
   * `job`, added and polled, and followed to its end unless `follow` is false.
   */
  private async trackById(job: TrackedJob, options: { follow?: boolean; refresh?: boolean }): Promise<TrackedJob> {
    const key = jobKey(job);
    const existing = this.options.registry.get(key);
    if (existing !== undefined) {
      if (options.refresh === true) this.refresh(key);
      return existing;
    }
    if (options.follow !== false) this.followed.follow(key);
    await this.options.registry.add(job);
    this.scheduler.track({ key, kind: job.kind });
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
    this.followed.observe(key);
    if (this.options.registry.get(key) === undefined) await this.options.registry.add(job);
    else await this.options.registry.updateSnapshot(key, snapshot);
  }

  /** The observer stopped (cancelled, failed): the scheduler polls the job again if it is not done. */
  releaseExport(jobId: string): void {
    const key = jobKey({ kind: 'export', id: jobId });
    this.followed.release(key);
    const job = this.options.registry.get(key);
    if (job !== undefined && !isTerminal(job)) this.scheduler.track({ key, kind: 'export' });
  }

  /** Starts an export on the server and tracks it. */
  async startExport(domain: string, signal?: AbortSignal): Promise<ExportJob> {
    const started = await this.options.client.startExport({ domain }, signal === undefined ? {} : { signal });
    const job: TrackedJob = { kind: 'export', id: started.jobId, addedAt: this.options.clock.now(), domain, snapshot: started };
    // The reply is the first reading: an export that fails before the first poll still notifies.
    if (!isTerminal(job)) this.followed.follow(jobKey(job), started.status);
    await this.options.registry.add(job);
    if (!isTerminal(job)) this.scheduler.track({ key: jobKey(job), kind: 'export' });
    this.setState({ kind: 'ok' });
    return started;
  }

  async untrack(key: JobKey): Promise<void> {
    this.scheduler.untrack(key);
    this.errors.delete(key);
    this.logs.delete(key);
    this.followed.forget(key);
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

  /** A view showing the jobs was shown or hidden (see PollScheduler.setWatched). */
  setWatched(watched: boolean): void {
    this.scheduler.setWatched(watched);
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

  /** Something shows the jobs now (a view opened, the status bar has a job to show): polling starts, every job not terminal read at once. Once demanded, always (until disposed). */
  setDemand(needed: boolean): void {
    if (!needed || this.demanded) return;
    this.demanded = true;
    if (!this.hasKey) return;
    this.scheduler.resume();
    this.refresh();
  }

  onDidChangeState(listener: Listener<ServiceState>): { dispose(): void } {
    return this.events.onDidChangeState(listener);
  }

  onDidTransition(listener: Listener<Transition>): { dispose(): void } {
    return this.events.onDidTransition(listener);
  }

  /** Keys whose row changed (snapshot, error, tracked or not). */
  onDidChangeJobs(listener: Listener<JobKey[]>): { dispose(): void } {
    return this.events.onDidChangeJobs(listener);
  }

  dispose(): void {
    this.abort.abort();
    this.scheduler.dispose();
    this.registryListener.dispose();
    this.events.dispose();
  }

  private setState(state: ServiceState): void {
    this.events.setState(state);
  }

  private emitChange(keys: JobKey[]): void {
    this.events.changed(keys);
  }
}
