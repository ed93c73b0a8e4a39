/** What every benchmark reports, so the runner can print one table and write one JSON file. */

export interface Measure {
  /** What was measured, e.g. "throughput" or "requests (export jobs)". */
  metric: string;
  unit: string;
  /** Ours: the median of the runs. */
  ours: number;
  /** The baseline measured in the same run (curl, tar, a fixed-interval poller), when there is one. */
  baseline?: number;
  baselineName?: string;
  /** ours / baseline. */
  ratio?: number;
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
  /** Progress for the person watching (stderr). */
  log(line: string): void;
}

export type Bench = (options: BenchOptions) => Promise<BenchResult>;

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

export function ratio(ours: number, baseline: number): number {
  return baseline === 0 ? NaN : ours / baseline;
}
