/** What every benchmark reports, so the runner can print one table and write one JSON file; and the small helpers they share. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Measure {
  /** What was measured, e.g. "throughput" or "requests (export jobs)". */
  metric: string;
  unit: string;
  /** Ours: the median of the runs. */
  ours: number;
  /** The lowest and highest of the runs, when there were several. */
  min?: number;
  max?: number;
  /** The baseline measured in the same run (curl, tar, a fixed-interval poller), when there is one. */
  baseline?: number;
  baselineName?: string;
  /**
   * ours / baseline. The process benchmarks (download, extraction, startup): the median of each
   * round's ratio against the baseline run beside it. Polling: the median over the seeds of ours
   * divided by the median over the same seeds of the poller's.
   */
  ratio?: number;
  /** The lowest and highest of those ratios. */
  ratioMin?: number;
  ratioMax?: number;
  /** The goal, in words ("<= 0.5x the 10 s poller"). */
  goal?: string;
  /** Whether the goal is met; undefined when there is no goal. */
  pass?: boolean;
}

export interface BenchResult {
  name: string;
  measures: Measure[];
  /** How it was measured, and anything a reader must know (a missed goal's reason). */
  notes: string[];
}

export interface BenchOptions {
  /** Tiny sizes: the smoke run in `npm test`, so benchmarks cannot rot. */
  quick: boolean;
  /** Runs per measurement; medians are quoted. */
  runs: number;
  /** The first run's seed (runs after it take the next ones); the recorded runs use 0x5eed. */
  seed?: number;
  /** Progress for the person watching (stderr). */
  log(line: string): void;
}

export type Bench = (options: BenchOptions) => Promise<BenchResult>;

/** A value as the tables print it: 0 decimals from 100, 1 from 10, else 2. */
export function formatValue(value: number): string {
  return Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 10 ? value.toFixed(1) : value.toFixed(2);
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** The p-th percentile (0-100), nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? NaN;
}

/** The lowest, the median and the highest: what a table quotes for a measurement. */
export function spreadOf(values: readonly number[]): { ours: number; min: number; max: number } {
  return { ours: median(values), min: Math.min(...values), max: Math.max(...values) };
}

/** The ratios of paired runs (ours[i] / baseline[i]) as the median, min and max. */
export function pairedRatio(ours: readonly number[], baseline: readonly number[]): { ratio: number; ratioMin: number; ratioMax: number } {
  const pairs = ours.map((v, i) => ratio(v, baseline[i] ?? NaN)).filter((r) => Number.isFinite(r));
  return { ratio: median(pairs), ratioMin: Math.min(...pairs), ratioMax: Math.max(...pairs) };
}

export function ratio(ours: number, baseline: number): number {
  return baseline === 0 ? NaN : ours / baseline;
}

/**
 * A scratch folder, in RAM (/dev/shm) when there is one: on a VM disk, write-back of earlier
 * runs makes the same tar take 7, 12 then 18 s, which measures the disk, not the tool.
 */
export function scratchDir(prefix: string): string {
  for (const parent of ['/dev/shm', tmpdir()]) {
    try {
      return mkdtempSync(join(parent, prefix));
    } catch {
      // Not there, or not writable: the next one.
    }
  }
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A small seeded PRNG (the simulator's mulberry32), so every run sees the same jobs, the same site. */
export { seededRandom as prng } from '../test/simulator/randomFaults';

/** For a child Node script: `kb('VmHWM')` and friends from /proc/self/status (NaN elsewhere). */
export const PROC_STATUS_KB = String.raw`const kb = (field) => {
  let text = '';
  try { text = require('node:fs').readFileSync('/proc/self/status', 'utf8'); } catch {}
  const line = text.split('\n').find((l) => l.startsWith(field + ':'));
  return line === undefined ? NaN : Number(line.replace(/[^0-9]/g, ''));
};`;
