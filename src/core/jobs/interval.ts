/**
 * How long to wait before polling a job again: a pure function of what the last polls saw,
 * so the policy is tested without timers.
 *
 * - Something changed: tighten to the floor.
 * - Nothing changed: back off by half again, up to the ceiling.
 * - An error: back off twice as fast.
 * - An export job whose progress moves: aim at the predicted finish. Wait half the predicted
 *   remaining time, so each poll halves the distance, and the job's end is seen within about
 *   the floor without polling at the floor all along. The rate is robust to jumps: once the
 *   progress has stood still between readings, it is the whole running phase's.
 * - An export read at 100 % and still running is finishing: short waits (at most 8 s) for a
 *   while (`finishing`), as its end is near.
 * - A queued export (no progress yet) backs off faster: its waits double.
 *
 * The window's focus is the scheduler's business (`unfocusedMs`): the history keeps the
 * focused delay, so back-off resumes from where it was when focus returns.
 */

export interface IntervalSettings {
  floorMs: number;
  ceilingMs: number;
  unfocusedMs: number;
}

export interface ProgressSample {
  at: number;
  progress: number;
}

/** What the scheduler remembers of one job between polls. */
export interface PollHistory {
  /** The delay chosen after the previous poll; 0 before the first. */
  lastDelayMs: number;
  /** Recent progress readings of an export job, oldest first. */
  samples: ProgressSample[];
  /** The last reading before the progress first moved: the running phase's pace is measured from it. */
  origin?: ProgressSample;
  /** When the export was first read at 100 % while still running (it is finishing). */
  fullSince?: number;
}

export type IntervalInput =
  | { kind: 'changed'; progress?: number }
  | { kind: 'unchanged'; progress?: number }
  | { kind: 'error' };

const MAX_SAMPLES = 6;

export function emptyHistory(): PollHistory {
  return { lastDelayMs: 0, samples: [] };
}

/**
 * An export read at 100 % (or this close to it) while still running has done its work: what is
 * left (packing, uploading) comes with no progress, so its end is near but cannot be timed.
 */
export const FULL_PROGRESS = 99.95;
/**
 * Finishing (read at 100 % and still running): from the floor, each wait as long as the time
 * spent finishing so far, up to this. About the 10 s poller's pace or better, where the end is.
 */
const FINISHING_CEILING_MS = 8_000;
/**
 * ... for this long at least, or for this share of the time the export took to get to 100 %
 * if longer. An export still at 100 % after that is waiting on something slow: it is polled as
 * any export that stands still.
 */
const FINISHING_WINDOW_MS = 60_000;
const FINISHING_WINDOW_SHARE = 0.3;
/** A queued export has no end in sight: its waits double (rather than grow by half). */
const QUEUED_BACK_OFF = 2;

/**
 * Adds a progress reading; a reading that goes backwards (a restarted job) starts over. The
 * reading before the first movement is kept as the origin of the running phase.
 */
export function recordProgress(history: PollHistory, sample: ProgressSample): PollHistory {
  const last = history.samples[history.samples.length - 1];
  const restarted = last !== undefined && sample.progress < last.progress;
  const kept = restarted ? [] : history.samples;
  const base: PollHistory = restarted ? { lastDelayMs: history.lastDelayMs, samples: [] } : history;
  const origin = base.origin ?? (last !== undefined && !restarted && sample.progress > last.progress ? last : undefined);
  const fullSince = base.fullSince ?? (sample.progress >= FULL_PROGRESS ? sample.at : undefined);
  return {
    lastDelayMs: base.lastDelayMs,
    samples: [...kept, sample].slice(-MAX_SAMPLES),
    ...(origin === undefined ? {} : { origin }),
    ...(fullSince === undefined ? {} : { fullSince }),
  };
}

/**
 * Predicted milliseconds until the export reaches 100 %, or undefined without a rate.
 *
 * The rate is the recent readings' while the export moves at every reading. Once it has stood
 * still between two of them (it moves in bursts, or stalls), the recent rate says more of the
 * last jump than of the job: a jump that came after a minute of stillness would predict an
 * imminent finish. Then the rate is the whole running phase's (from the origin: the last
 * reading before any movement), which a jump moves only by its share of the work.
 */
export function predictRemainingMs(samples: readonly ProgressSample[], origin?: ProgressSample): number | undefined {
  const moving = origin === undefined ? samples : samples.filter((sample) => sample.at >= origin.at);
  const first = moving[0];
  const last = moving[moving.length - 1];
  if (first === undefined || last === undefined || last.at <= first.at) return undefined;
  const stoodStill = moving.some((sample, i) => i > 0 && sample.progress === moving[i - 1]?.progress);
  const from = stoodStill && origin !== undefined ? origin : first;
  const rate = (last.progress - from.progress) / (last.at - from.at);
  if (!(rate > 0)) return undefined;
  return Math.max(0, (100 - last.progress) / rate);
}

export function nextDelayMs(
  history: PollHistory,
  input: IntervalInput,
  settings: Pick<IntervalSettings, 'floorMs' | 'ceilingMs'>,
): number {
  const { floorMs, ceilingMs } = settings;
  const clamp = (ms: number) => Math.min(ceilingMs, Math.max(floorMs, Math.round(ms)));
  const previous = history.lastDelayMs > 0 ? history.lastDelayMs : floorMs;
  if (input.kind === 'error') return clamp(previous * 2);
  const { samples } = history;
  const last = samples[samples.length - 1];
  if (input.progress !== undefined && last !== undefined && finishing(history, last)) {
    // Never below the floor (a person's setting may put it above the finishing ceiling).
    return clamp(Math.min(FINISHING_CEILING_MS, floorMs + (last.at - (history.fullSince ?? last.at))));
  }
  // A change that did not move the progress (queued -> running at 0 %) says nothing of the end.
  const before = samples[samples.length - 2];
  const moved = input.kind === 'changed' && !(input.progress !== undefined && before !== undefined && last !== undefined && last.progress === before.progress);
  const queued = input.progress !== undefined && !samples.some((sample) => sample.progress > 0);
  if (!moved) return clamp(previous * (queued ? QUEUED_BACK_OFF : 1.5));
  const remaining = input.progress === undefined ? undefined : predictRemainingMs(samples, history.origin);
  return remaining === undefined ? floorMs : clamp(remaining / 2);
}

/** Whether the export is finishing: read at 100 % while running, within the finishing window. */
function finishing(history: PollHistory, last: ProgressSample): boolean {
  const since = history.fullSince;
  if (since === undefined || last.progress < FULL_PROGRESS) return false;
  const took = since - (history.origin?.at ?? since);
  return last.at - since < Math.max(FINISHING_WINDOW_MS, FINISHING_WINDOW_SHARE * took);
}
