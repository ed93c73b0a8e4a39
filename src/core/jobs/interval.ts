/**
 * How long to wait before polling a job again: a pure function of what the last polls saw,
 * so the policy is tested without timers.
 *
 * - Something changed: tighten to the floor.
 * - Nothing changed: back off by half again, up to the ceiling.
 * - An error: back off twice as fast.
 * - An export job whose progress moves: aim at the predicted finish. Wait half the predicted
 *   remaining time, so each poll halves the distance, and the job's end is seen within about
 *   the floor without polling at the floor all along.
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
}

export type IntervalInput =
  | { kind: 'changed'; progress?: number }
  | { kind: 'unchanged'; progress?: number }
  | { kind: 'error' };

const MAX_SAMPLES = 6;

export function emptyHistory(): PollHistory {
  return { lastDelayMs: 0, samples: [] };
}

/** Adds a progress reading; a reading that goes backwards (a restarted job) starts over. */
export function recordProgress(history: PollHistory, sample: ProgressSample): PollHistory {
  const last = history.samples[history.samples.length - 1];
  const kept = last !== undefined && sample.progress < last.progress ? [] : history.samples;
  return { ...history, samples: [...kept, sample].slice(-MAX_SAMPLES) };
}

/** Predicted milliseconds until the export reaches 100 %, or undefined without a rate. */
export function predictRemainingMs(samples: readonly ProgressSample[]): number | undefined {
  const first = samples[0];
  const last = samples[samples.length - 1];
  if (first === undefined || last === undefined || last.at <= first.at) return undefined;
  const rate = (last.progress - first.progress) / (last.at - first.at);
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
  let delay: number;
  if (input.kind === 'error') {
    delay = clamp(previous * 2);
  } else {
    const remaining = input.progress === undefined ? undefined : predictRemainingMs(history.samples);
    if (remaining !== undefined && input.kind === 'changed') delay = clamp(remaining / 2);
    else if (input.kind === 'changed') delay = floorMs;
    else delay = clamp(previous * 1.5);
  }
  return delay;
}
