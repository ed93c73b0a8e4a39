/**
 * What the polling benchmark saw, beyond its counts: which phase of an export each read found it
 * in, the waits between reads, and how long the planned exports stand at 100 % before they end.
 * The benchmark's notes explain the figures from these observations, never from a description
 * of the scheduler that could fall behind the code (issue 28: a note once described a back-off
 * for agent jobs that the scheduler no longer had).
 */
import type { ExportJob } from '../src/core/api/apiTypes';
import { FULL_PROGRESS } from '../src/core/jobs/interval';
import { median, percentile } from './types';
import type { PlannedJob } from './workloads';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
/** The fixed poller the agent goals are set against. */
const POLLER_MS = 10 * SECOND;

/** Where an export stood when a read came back: queued, running below 100 %, at 100 % and still running, ended. */
export type Phase = 'queued' | 'running' | 'full' | 'ended';
export const PHASES: readonly Phase[] = ['queued', 'running', 'full', 'ended'];

export function phaseOf(job: Pick<ExportJob, 'status' | 'progress'>): Phase {
  if (job.status === 'queued') return 'queued';
  if (job.status !== 'running') return 'ended';
  return (job.progress ?? 0) >= FULL_PROGRESS ? 'full' : 'running';
}

export function countPhases(phases: readonly Phase[]): Record<Phase, number> {
  const counts: Record<Phase, number> = { queued: 0, running: 0, full: 0, ended: 0 };
  for (const phase of phases) counts[phase]++;
  return counts;
}

/** The waits between consecutive reads of one job, in ms. */
export function gapsOf(times: readonly number[]): number[] {
  return times.slice(1).map((t, i) => t - (times[i] ?? t));
}

/**
 * How long a planned export reads as 100 % while still running: from where its progress curve
 * first reaches FULL_PROGRESS (the scheduler's "finishing" mark; the simulator reports progress
 * to 0.1 %) to its end. Linear progress gets there in the last 0.05 % of its run.
 */
export function fullStretchMs(job: PlannedJob): number {
  const mark = FULL_PROGRESS / 100;
  const curve = job.curve ?? [[0, 0], [1, 1]];
  for (let i = 0; i < curve.length; i++) {
    const [t1, p1] = curve[i] ?? [1, 1];
    if (p1 < mark) continue;
    const [t0, p0] = curve[i - 1] ?? [t1, p1];
    const at = p0 >= mark || p1 === p0 ? t0 : t0 + ((mark - p0) * (t1 - t0)) / (p1 - p0);
    return Math.round((1 - Math.min(1, at)) * job.durationMs);
  }
  return 0;
}

/** "12 s (median; 4-60 s)", or "10 s" when every value is the same; from values in ms. */
export function describeMs(values: readonly number[]): string {
  if (values.length === 0) return 'none';
  const s = (ms: number) => `${Math.round(ms / 100) / 10}`;
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return lo === hi ? `${s(lo)} s` : `${s(median(values))} s (median; ${s(lo)}-${s(hi)} s)`;
}

/** What one policy's run over one workload saw, for the notes. */
export interface Trace {
  /** Export reads by the phase they found the job in. */
  exportPhases: Record<Phase, number>;
  /** Waits between two reads of a running agent job (the read that saw it end included). */
  agentGapsMs: number[];
  /** Per export: the waits between two reads while it was still queued at the first of them. */
  queuedGapsMs: number[][];
  /** Per export seen ending: how late, and how long its plan has it stand at 100 % before the end. */
  exportEnds: { latencyMs: number; standMs: number }[];
}

/** The trace's figures, median over seeds (phases) or pooled (waits). */
export function mergeTraces(traces: readonly Trace[]): Trace {
  const phases = Object.fromEntries(PHASES.map((p) => [p, median(traces.map((t) => t.exportPhases[p]))])) as Record<Phase, number>;
  return {
    exportPhases: phases,
    agentGapsMs: traces.flatMap((t) => t.agentGapsMs),
    queuedGapsMs: traces.flatMap((t) => t.queuedGapsMs),
    exportEnds: traces.flatMap((t) => t.exportEnds),
  };
}

/** How much each wait of a queued export was over the one before it (median over every pair of consecutive waits). */
export function growthOf(perJob: readonly (readonly number[])[]): number | undefined {
  const factors = perJob.flatMap((gaps) => gaps.slice(1).map((gap, i) => gap / (gaps[i] ?? gap)));
  return factors.length === 0 ? undefined : median(factors);
}

/**
 * One sentence for a workload: its export reads by phase, its exports' time at 100 %, and where
 * the slowest tenth of the ends came (the ones the p95 is made of).
 */
export function phaseNote(workload: string, requests: number, trace: Trace): string {
  const { queued, running, full, ended } = trace.exportPhases;
  const stretches = trace.exportEnds.map((end) => end.standMs);
  const early = stretches.filter((ms) => ms >= SECOND);
  const atFull =
    early.length === 0
      ? 'by the plan, no export stands at 100 % before its end'
      : `by the plan, ${early.length} of ${stretches.length} exports reach 100 % before their end and run on there for ${describeMs(early)}`;
  const cut = percentile(trace.exportEnds.map((end) => end.latencyMs), 90);
  const slowest = trace.exportEnds.filter((end) => end.latencyMs >= cut);
  const stood = slowest.filter((end) => end.standMs >= MINUTE);
  const tail =
    slowest.length === 0
      ? ''
      : `; the slowest tenth of the ends (${slowest.length}, seen ${describeMs(slowest.map((end) => end.latencyMs))} late) came after a stand at 100 % of ${describeMs(slowest.map((end) => end.standMs))}, ${stood.length} of them a minute or longer`;
  return `${workload}: of our ${requests} export requests (each figure a median over the seeds), ${queued} found the job queued, ${running} running below 100 %, ${full} at 100 % and still running, ${ended} ended; ${atFull}${tail}.`;
}

/** What the scheduler was seen to do with agent jobs and queued exports (focused), and what the agent goals need. */
export function paceNotes(trace: Trace, agentP50: { ours: number; poller: number }): string[] {
  const pollerPace = trace.agentGapsMs.length > 0 && trace.agentGapsMs.every((ms) => Math.abs(ms - POLLER_MS) < 1);
  const notes = [
    `Agent jobs report no progress, so nothing says when one will end. Ours read a running agent job every ${describeMs(trace.agentGapsMs)} (the waits between its reads, focused)` +
      `${pollerPace ? ", the 10 s poller's own pace" : ''}. With ends spread evenly, a p50 of 5 s needs a read about every 10 s around the end, and costing no more than the 10 s poller allows no more: ` +
      `both agent goals can be met only at that pace (p50 here: ours ${agentP50.ours.toFixed(2)} s, the 10 s poller ${agentP50.poller.toFixed(2)} s).`,
  ];
  const queued = trace.queuedGapsMs.flat();
  const growth = growthOf(trace.queuedGapsMs);
  if (queued.length > 0) {
    notes.push(
      `A queued export has no progress to aim at: ours waited ${describeMs(queued)} between its reads while it was queued` +
        `${growth === undefined ? '' : `, each wait ${growth.toFixed(1)} times the one before (median)`}.`,
    );
  }
  return notes;
}
