/**
 * The polling benchmark's jobs: what is planned for the simulator (kind, timing, outcome, how
 * an export's progress moves), and the workloads beyond the steady one that real exports and
 * short agent jobs make: a long queue, stalls, bursts, uneven progress, agent jobs of 10-60 s.
 */
import { prng } from './types';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

export type Kind = 'agent' | 'export';

export interface PlannedJob {
  kind: Kind;
  id: string;
  /** Offset from the start of the run. */
  createdMs: number;
  queuedMs: number;
  durationMs: number;
  failed: boolean;
  /** How an export's progress moves (the simulator's progressCurve); linear without one. */
  curve?: Curve;
}

export type Curve = [number, number][];

/**
 * Progress over running time from pieces of random widths, each moving at its own rate (0: a
 * stall): the points of the simulator's progressCurve.
 */
function piecewise(widths: number[], rates: number[]): Curve {
  const span = widths.reduce((a, b) => a + b, 0);
  const work = widths.reduce((sum, w, i) => sum + w * (rates[i] ?? 0), 0);
  const points: Curve = [[0, 0]];
  let t = 0;
  let p = 0;
  widths.forEach((w, i) => {
    t += w / span;
    p += (w * (rates[i] ?? 0)) / work;
    points.push([Math.min(1, t), Math.min(1, p)]);
  });
  return points;
}

/** Workloads beyond the steady one: what real exports and short agent jobs do. */
export interface Workload {
  name: string;
  /** For the notes. */
  what: string;
  plan(random: () => number, quick: boolean): PlannedJob[];
}

function exportsOf(random: () => number, quick: boolean, shape: { queued: [number, number]; duration: [number, number]; curve?: (random: () => number) => Curve }): PlannedJob[] {
  const between = (lo: number, hi: number) => Math.round(lo + random() * (hi - lo));
  const stagger = quick ? 30 * SECOND : 5 * MINUTE;
  return Array.from({ length: quick ? 3 : 20 }, (_, i) => ({
    kind: 'export' as const,
    id: `export-${i}`,
    createdMs: between(0, stagger),
    queuedMs: between(...shape.queued),
    durationMs: quick ? between(2 * MINUTE, 4 * MINUTE) : between(...shape.duration),
    failed: random() < 0.1,
    ...(shape.curve === undefined ? {} : { curve: shape.curve(random) }),
  }));
}

export const WORKLOADS: Workload[] = [
  {
    name: 'long queue',
    what: 'exports queued 1-8 min before they run (2-10 min, linear)',
    plan: (random, quick) => exportsOf(random, quick, { queued: [1 * MINUTE, 8 * MINUTE], duration: [2 * MINUTE, 10 * MINUTE] }),
  },
  {
    name: 'stalls',
    what: 'exports (4-15 min) whose progress stops once or twice for a fifth to a third of the run',
    plan: (random, quick) =>
      exportsOf(random, quick, {
        queued: [5 * SECOND, 30 * SECOND],
        duration: [4 * MINUTE, 15 * MINUTE],
        curve: (r) => {
          const pieces = 3 + Math.floor(r() * 3);
          const widths = Array.from({ length: pieces }, () => 0.5 + r());
          const stalls = new Set([1 + Math.floor(r() * (pieces - 2)), ...(r() < 0.5 ? [pieces - 1] : [])]);
          return piecewise(widths, widths.map((_, i) => (stalls.has(i) ? 0 : 0.5 + r())));
        },
      }),
  },
  {
    name: 'bursts',
    what: 'exports (3-12 min) whose progress jumps 3-6 times and stands still in between',
    plan: (random, quick) =>
      exportsOf(random, quick, {
        queued: [5 * SECOND, 30 * SECOND],
        duration: [3 * MINUTE, 12 * MINUTE],
        curve: (r) => {
          const jumps = Array.from({ length: 3 + Math.floor(r() * 4) }, () => 0.05 + r() * 0.9).sort((a, b) => a - b);
          const sizes = jumps.map(() => 0.2 + r());
          const total = sizes.reduce((a, b) => a + b, 0);
          const points: Curve = [[0, 0]];
          let p = 0;
          jumps.forEach((t, i) => {
            points.push([t, p]);
            p = Math.min(1, p + (sizes[i] ?? 0) / total);
            points.push([t, p]);
          });
          points.push([1, 1]);
          return points;
        },
      }),
  },
  {
    name: 'uneven',
    what: 'exports (3-15 min) in 4 stretches at rates 20x apart (a fast start and a slow tail, or the reverse)',
    plan: (random, quick) =>
      exportsOf(random, quick, {
        queued: [5 * SECOND, 30 * SECOND],
        duration: [3 * MINUTE, 15 * MINUTE],
        curve: (r) => piecewise([0, 1, 2, 3].map(() => 0.5 + r()), [0, 1, 2, 3].map(() => 0.1 + r() * 1.9)),
      }),
  },
  {
    name: 'short agents',
    what: 'agent jobs of 10-60 s',
    plan: (random, quick) =>
      Array.from({ length: quick ? 5 : 50 }, (_, i) => ({
        kind: 'agent' as const,
        id: `agent-${i}`,
        createdMs: Math.round(random() * (quick ? 30 * SECOND : 5 * MINUTE)),
        queuedMs: 0,
        durationMs: Math.round(10 * SECOND + random() * 50 * SECOND),
        failed: random() < 0.1,
      })),
  },
];

/** The steady workload: agent jobs of 1-15 min and exports queued 5-30 s, then 2-20 min of linear progress. */
export function planJobs(seed: number, quick: boolean): PlannedJob[] {
  const random = prng(seed);
  const between = (lo: number, hi: number) => Math.round(lo + random() * (hi - lo));
  const stagger = quick ? 30 * SECOND : 5 * MINUTE;
  const jobs: PlannedJob[] = [];
  for (let i = 0; i < (quick ? 5 : 50); i++) {
    const durationMs = quick ? between(1 * MINUTE, 3 * MINUTE) : between(1 * MINUTE, 15 * MINUTE);
    jobs.push({ kind: 'agent', id: `agent-${i}`, createdMs: between(0, stagger), queuedMs: 0, durationMs, failed: random() < 0.1 });
  }
  for (let i = 0; i < (quick ? 3 : 20); i++) {
    const queuedMs = between(5 * SECOND, 30 * SECOND);
    const durationMs = quick ? between(2 * MINUTE, 4 * MINUTE) : between(2 * MINUTE, 20 * MINUTE);
    jobs.push({ kind: 'export', id: `export-${i}`, createdMs: between(0, stagger), queuedMs, durationMs, failed: random() < 0.1 });
  }
  return jobs;
}
