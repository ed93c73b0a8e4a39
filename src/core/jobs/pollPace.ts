/**
 * How soon to read one job again, by its kind: interval.ts's back-off, held within each kind's
 * ceiling (an agent job, a deployment, an export that runs, one a person watches). A pure
 * function of what the scheduler knows of the job, so the pace is tested without timers.
 */
import { nextDelayMs, type IntervalInput, type IntervalSettings, type PollHistory } from './interval';
import type { JobKind } from './trackedJob';

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

/** Each kind's pace; every field has its default above. */
export interface PaceOptions {
  /** A running export is polled at least this often while watched and focused. */
  watchedRunningMs?: number;
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
}

export interface PaceInput {
  kind: JobKind;
  history: PollHistory;
  input: IntervalInput;
  /** The job's age as the server said (agent jobs); undefined when unknown. */
  ageMs: number | undefined;
  focused: boolean;
  watched: boolean;
  settings: IntervalSettings;
  pace: PaceOptions;
}

/** The focused delay before the next reading, and the ceiling it was held within. */
export function nextPollDelay({ kind, history, input, ageMs, focused, watched, settings, pace }: PaceInput): { delay: number; ceilingMs: number } {
  // Errors back off to the general ceiling, whatever the job: a failing server is not pressed.
  const agent = kind === 'agent' && input.kind !== 'error';
  const deployment = kind === 'deployment' && input.kind !== 'error';
  const { floorMs } = settings;
  const bounded = (ms: number) => Math.max(floorMs, Math.min(settings.ceilingMs, ms));
  const ceilingMs = agent
    ? bounded(pace.agentCeilingMs ?? AGENT_CEILING_MS)
    : deployment
      ? bounded(pace.deploymentCeilingMs ?? DEPLOYMENT_CEILING_MS)
      : settings.ceilingMs;
  let delay = nextDelayMs(history, input, { floorMs, ceilingMs });
  const moved = history.samples.some((sample) => sample.progress > 0);
  // An export that has moved (it runs) and now stands still: its back-off stops at the running
  // ceiling, so the end of a stall, or a last jump, is not seen up to the general ceiling late.
  // (Aiming at a predicted finish still waits longer: a reading that moved says when.)
  if (input.kind === 'unchanged' && moved) delay = Math.min(delay, bounded(pace.runningCeilingMs ?? RUNNING_CEILING_MS));
  // A running export a person can see: its row moves at least every few seconds (see WATCHED_RUNNING_MS).
  const running = kind === 'export' && input.kind !== 'error' && moved;
  if (running && focused && watched) delay = Math.min(delay, bounded(pace.watchedRunningMs ?? WATCHED_RUNNING_MS));
  const warmUp = pace.agentWarmUpMs ?? AGENT_WARM_UP_MS;
  // A young agent job: polled at the warm-up pace (a change, the first reading among them, says
  // nothing of when an agent run ends, so it does not tighten the pace).
  if (agent && ageMs !== undefined && ageMs >= 0 && ageMs < warmUp) delay = bounded(pace.agentWarmUpIntervalMs ?? AGENT_WARM_UP_INTERVAL_MS);
  return { delay, ceilingMs };
}
