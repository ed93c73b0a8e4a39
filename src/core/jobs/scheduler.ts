import type { Logger } from '../log';
import { silentLogger } from '../log';
import type { Clock } from './clock';
import type { JobKind } from './trackedJob';
import {
  emptyHistory,
  nextDelayMs,
  recordProgress,
  type IntervalInput,
  type IntervalSettings,
  type PollHistory,
} from './interval';

/**
 * Agent jobs report no progress, so their end cannot be predicted. While focused they are read
 * every 10 s, from their first seconds (a 10-60 s agent run is seen about 5 s after its end, as
 * the 10 s poller sees it, at the same cost; the quiet first minute of old saw it 24 s late) ...
 */
const AGENT_CEILING_MS = 10_000;
const AGENT_WARM_UP_MS = 60_000;
const AGENT_WARM_UP_INTERVAL_MS = 10_000;
/**
 * An export that runs and stands still below 100 %: read at least every 25 s (see
 * `runningCeilingMs`). One that stands still at 100 % is finishing, and read more often
 * (interval.ts).
 */
const RUNNING_CEILING_MS = 25_000;
/**
 * A running export while a view shows it (and the window is focused): read at least every 5 s,
 * whatever its predicted end, so its row's progress moves as the server's does. Aiming at the
 * predicted end alone waits half the time left: a minute and more on a long export, with the
 * row standing still at a percentage the server has long passed (issue 35: polls at 0.6 s,
 * 2.7 s, then 50.5 s). With no view showing it, the prediction alone sets the pace.
 */
const WATCHED_RUNNING_MS = 5_000;
/**
 * A deployment reports no progress either, but its logs grow while it runs, and a person may be
 * reading them: while focused it is read at least every 5 s (a new line tightens to the floor).
 * Deployments take a minute or a few: that is a dozen or so reads each.
 */
const DEPLOYMENT_CEILING_MS = 5_000;

export interface PollTarget {
  /** Unique among the scheduler's jobs. */
  readonly key: string;
  readonly kind: JobKind;
}

/** What one poll found, as the scheduler needs to know it. */
export type PollOutcome =
  | { readonly kind: 'ok'; readonly terminal: boolean; readonly changed: boolean; readonly progress?: number; readonly ageMs?: number }
  | { readonly kind: 'rateLimited'; readonly retryAfterMs: number }
  | { readonly kind: 'unauthorized' }
  | { readonly kind: 'error' };

export interface SchedulerOptions {
  clock: Clock;
  isFocused: () => boolean;
  /** Whether a view showing the jobs is visible (a person may be reading a row); false when absent. */
  isWatched?: () => boolean;
  /** A running export is polled at least this often while watched and focused. */
  watchedRunningMs?: number;
  poll: (target: PollTarget, signal: AbortSignal) => Promise<PollOutcome>;
  floorMs?: number;
  ceilingMs?: number;
  unfocusedMs?: number;
  /**
   * Agent jobs report no progress, so their end cannot be predicted: while the window is
   * focused they are polled at least this often (the longest wait a person notices), ...
   */
  agentCeilingMs?: number;
  /** ... and during their first this-many ms ... */
  agentWarmUpMs?: number;
  /** ... at this pace (no back-off from the floor: a young job is read steadily). */
  agentWarmUpIntervalMs?: number;
  /**
   * An export whose progress has moved (it runs, it is not queued) and then stands still (a
   * stall, or the wait between bursts) is polled at least this often, so that an end that comes
   * out of a stall is not seen up to the general ceiling late. A queued export backs off to the
   * general ceiling.
   */
  runningCeilingMs?: number;
  /** A running deployment (its logs growing) is polled at least this often while focused. */
  deploymentCeilingMs?: number;
  maxConcurrent?: number;
  log?: Logger;
  /** Told when polling pauses because the key was rejected. */
  onUnauthorized?: () => void;
}

interface Entry {
  readonly target: PollTarget;
  history: PollHistory;
  dueAt: number;
  lastPolledAt: number | undefined;
  inFlight: boolean;
}

/**
 * One scheduler for every job of an API origin. It polls only the jobs it tracks, drops a job
 * the moment it is terminal, and keeps a single timer (a chain of setTimeout) armed for the
 * earliest due job, or none at all when nothing is tracked, paused or disposed.
 */
export class PollScheduler {
  private readonly entries = new Map<string, Entry>();
  private readonly settings: IntervalSettings;
  private readonly maxConcurrent: number;
  private readonly log: Logger;
  private readonly abort = new AbortController();
  private timer: unknown = undefined;
  private blockedUntil = 0;
  private running = 0;
  private paused = false;
  private disposed = false;

  constructor(private readonly options: SchedulerOptions) {
    this.settings = {
      floorMs: options.floorMs ?? 2_000,
      ceilingMs: options.ceilingMs ?? 60_000,
      unfocusedMs: options.unfocusedMs ?? 60_000,
    };
    if (this.settings.ceilingMs < this.settings.floorMs) this.settings.ceilingMs = this.settings.floorMs;
    this.maxConcurrent = Math.max(1, options.maxConcurrent ?? 4);
    this.log = options.log ?? silentLogger;
  }

  /** Starts polling a job (at once). Tracking a job twice changes nothing. */
  track(target: PollTarget): void {
    if (this.disposed || this.entries.has(target.key)) return;
    const now = this.options.clock.now();
    this.entries.set(target.key, { target, history: emptyHistory(), dueAt: now, lastPolledAt: undefined, inFlight: false });
    this.arm();
  }

  /**
   * Polls a job again from scratch (at once): one that had ended and became active again (a
   * follow-up to an agent job). A poll already under way for it counts no more: what it reads
   * predates the change.
   */
  restart(target: PollTarget): void {
    if (this.disposed) return;
    const now = this.options.clock.now();
    this.entries.set(target.key, { target, history: emptyHistory(), dueAt: now, lastPolledAt: undefined, inFlight: false });
    this.arm();
  }

  untrack(key: string): void {
    if (this.entries.delete(key)) this.arm();
  }

  isTracking(key: string): boolean {
    return this.entries.has(key);
  }

  /** How many jobs are still polled. */
  get size(): number {
    return this.entries.size;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** Polls started and not answered yet. */
  get inFlight(): number {
    return this.running;
  }

  /** Whether a timer is armed: false whenever there is nothing to do. */
  get hasTimer(): boolean {
    return this.timer !== undefined;
  }

  /** Polls every job now (still waiting out a 429 for the origin). */
  refreshNow(): void {
    const now = this.options.clock.now();
    for (const entry of this.entries.values()) entry.dueAt = now;
    this.paused = false;
    this.arm();
  }

  /** Slows when the window loses focus (applied at the next poll); catches up when it regains it. */
  setFocused(focused: boolean): void {
    if (!focused) return;
    const now = this.options.clock.now();
    for (const entry of this.entries.values()) {
      const soonest = (entry.lastPolledAt ?? now) + this.settings.floorMs;
      entry.dueAt = Math.min(entry.dueAt, Math.max(now, soonest));
    }
    this.arm();
  }

  /** A view showing the jobs was shown (or hidden): when shown, what would wait past the watched pace is read soon. */
  setWatched(watched: boolean): void {
    if (!watched) return;
    const now = this.options.clock.now();
    for (const entry of this.entries.values()) {
      if (entry.target.kind !== 'export' || !entry.history.samples.some((sample) => sample.progress > 0)) continue;
      entry.dueAt = Math.min(entry.dueAt, Math.max(now, (entry.lastPolledAt ?? now) + this.settings.floorMs));
    }
    this.arm();
  }

  /** Stops polling until `resume()`: the key is missing or was rejected. */
  pause(): void {
    this.paused = true;
    this.disarm();
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.refreshNow();
  }

  dispose(): void {
    this.disposed = true;
    this.disarm();
    this.abort.abort();
    this.entries.clear();
  }

  private disarm(): void {
    if (this.timer !== undefined) this.options.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    this.disarm();
    if (this.disposed || this.paused || this.running >= this.maxConcurrent) return;
    let earliest = Infinity;
    for (const entry of this.entries.values()) if (!entry.inFlight) earliest = Math.min(earliest, entry.dueAt);
    if (earliest === Infinity) return;
    const now = this.options.clock.now();
    const delay = Math.max(0, Math.max(earliest, this.blockedUntil) - now);
    this.timer = this.options.clock.setTimeout(() => this.tick(), delay);
  }

  private tick(): void {
    this.timer = undefined;
    const now = this.options.clock.now();
    const due = [...this.entries.values()]
      .filter((entry) => !entry.inFlight && entry.dueAt <= now)
      .sort((a, b) => a.dueAt - b.dueAt);
    for (const entry of due) {
      if (this.running >= this.maxConcurrent) break;
      this.start(entry);
    }
    this.arm();
  }

  private start(entry: Entry): void {
    entry.inFlight = true;
    this.running++;
    void this.run(entry);
  }

  private async run(entry: Entry): Promise<void> {
    let outcome: PollOutcome;
    try {
      outcome = await this.options.poll(entry.target, this.abort.signal);
    } catch (error) {
      this.log.warn(`poll of ${entry.target.key} failed: ${error instanceof Error ? error.message : String(error)}`);
      outcome = { kind: 'error' };
    }
    this.running--;
    entry.inFlight = false;
    if (this.disposed) return;
    const now = this.options.clock.now();
    entry.lastPolledAt = now;
    if (this.entries.get(entry.target.key) === entry) this.apply(entry, outcome, now);
    this.arm();
  }

  private apply(entry: Entry, outcome: PollOutcome, now: number): void {
    switch (outcome.kind) {
      case 'ok': {
        if (outcome.terminal) {
          this.entries.delete(entry.target.key);
          return;
        }
        if (outcome.progress !== undefined) {
          entry.history = recordProgress(entry.history, { at: now, progress: outcome.progress });
        }
        const input: IntervalInput = {
          kind: outcome.changed ? 'changed' : 'unchanged',
          ...(outcome.progress === undefined ? {} : { progress: outcome.progress }),
        };
        this.schedule(entry, input, now, outcome.ageMs);
        return;
      }
      case 'rateLimited':
        // The whole origin waits what the server asked, never less than the floor (a Retry-After
        // of 0, or a date already past, must not make a loop); and the job backs off as after an
        // error, so 429s that go on are asked about ever more slowly.
        this.blockedUntil = Math.max(this.blockedUntil, now + Math.max(outcome.retryAfterMs, this.settings.floorMs));
        this.schedule(entry, { kind: 'error' }, now);
        entry.dueAt = Math.max(entry.dueAt, this.blockedUntil);
        return;
      case 'unauthorized':
        entry.dueAt = now;
        this.pause();
        this.options.onUnauthorized?.();
        return;
      case 'error':
        this.schedule(entry, { kind: 'error' }, now);
        return;
    }
  }

  private schedule(entry: Entry, input: IntervalInput, now: number, ageMs?: number): void {
    // Errors back off to the general ceiling, whatever the job: a failing server is not pressed.
    const agent = entry.target.kind === 'agent' && input.kind !== 'error';
    const deployment = entry.target.kind === 'deployment' && input.kind !== 'error';
    const { floorMs } = this.settings;
    const bounded = (ms: number) => Math.max(floorMs, Math.min(this.settings.ceilingMs, ms));
    const ceilingMs = agent
      ? bounded(this.options.agentCeilingMs ?? AGENT_CEILING_MS)
      : deployment
        ? bounded(this.options.deploymentCeilingMs ?? DEPLOYMENT_CEILING_MS)
        : this.settings.ceilingMs;
    let delay = nextDelayMs(entry.history, input, { floorMs, ceilingMs });
    // An export that has moved (it runs) and now stands still: its back-off stops at the running
    // ceiling, so the end of a stall, or a last jump, is not seen up to the general ceiling late.
    // (Aiming at a predicted finish still waits longer: a reading that moved says when.)
    if (input.kind === 'unchanged' && entry.history.samples.some((sample) => sample.progress > 0)) delay = Math.min(delay, bounded(this.options.runningCeilingMs ?? RUNNING_CEILING_MS));
    // A running export a person can see: its row moves at least every few seconds (see WATCHED_RUNNING_MS).
    const running = entry.target.kind === 'export' && input.kind !== 'error' && entry.history.samples.some((sample) => sample.progress > 0);
    if (running && this.options.isFocused() && this.options.isWatched?.() === true) delay = Math.min(delay, bounded(this.options.watchedRunningMs ?? WATCHED_RUNNING_MS));
    const warmUp = this.options.agentWarmUpMs ?? AGENT_WARM_UP_MS;
    // A young agent job: polled at the warm-up pace (a change, the first reading among them, says
    // nothing of when an agent run ends, so it does not tighten the pace).
    if (agent && ageMs !== undefined && ageMs >= 0 && ageMs < warmUp) delay = bounded(this.options.agentWarmUpIntervalMs ?? AGENT_WARM_UP_INTERVAL_MS);
    entry.history = { ...entry.history, lastDelayMs: Math.min(delay, ceilingMs) };
    entry.dueAt = now + (this.options.isFocused() ? delay : Math.max(delay, this.settings.unfocusedMs));
  }
}
