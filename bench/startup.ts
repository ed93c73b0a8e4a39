/**
 * CLI startup: `node dist/cli.js --version` and `node dist/cli.js export status <job>` (one API
 * call to the simulator), as whole processes, against `node -e 0` (Node's own start), in
 * interleaved pairs; the peak RSS of each from GNU time. The CLI measured is the one built by
 * `node esbuild.mjs` before the run (BENCHMARKS.md says whether that build was minified).
 */
import { Simulator } from '../test/simulator';
import { CLI, cliEnv, interleaved, timedProcess, type ProcessRun } from './proc';
import { median, pairedRatio, spreadOf, type Bench, type Measure } from './types';

export const startup: Bench = async (options) => {
  const runs = options.quick ? 3 : Math.max(21, options.runs);
  const sim = await Simulator.start({});
  try {
    const jobId = String(sim.addExportJob({ queuedMs: 0, durationMs: 0, createdAt: sim.now() - 60_000 }).jobId);
    const env = cliEnv(sim);
    const node: ProcessRun[] = [];
    const version: ProcessRun[] = [];
    const status: ProcessRun[] = [];
    let counted = false;
    const keep = (into: ProcessRun[]) => (run: ProcessRun) => {
      if (counted) into.push(run);
    };
    const steps = [
      async () => keep(node)(await timedProcess(process.execPath, ['-e', '0'])),
      async () => keep(version)(await timedProcess(process.execPath, [CLI, '--version'])),
      async () => keep(status)(await timedProcess(process.execPath, [CLI, 'export', 'status', jobId], env)),
    ];
    await interleaved(2, steps);
    counted = true;
    await interleaved(runs, steps);
    const nodeMs = node.map((r) => r.ms);
    const row = (metric: string, runs: ProcessRun[], goal?: number): Measure => {
      const ms = runs.map((r) => r.ms);
      const r = pairedRatio(ms, nodeMs);
      return { metric, unit: 'ms', ...spreadOf(ms), baseline: median(nodeMs), baselineName: 'node -e 0', ...r, ...(goal === undefined ? {} : { goal: `<= ${goal}x node -e 0`, pass: r.ratio <= goal }) };
    };
    const rss = (runs: ProcessRun[]) => spreadOf(runs.map((r) => r.peakKb / 1024));
    // The CLI's own cost, in ms over Node's start in the same round: a ratio to `node -e 0` also
    // moves when Node's start does (a slower machine made 17 ms look like 1.18x instead of 1.28x).
    const over = (metric: string, runs: ProcessRun[]): Measure => ({ metric, unit: 'ms', ...spreadOf(runs.map((r, i) => r.ms - (nodeMs[i] ?? NaN)).filter(Number.isFinite)) });
    const measures: Measure[] = [
      row('docs-admin --version, whole process', version, 1.3),
      over('docs-admin --version, time over node -e 0 in the same round', version),
      row('docs-admin export status <job>, whole process (one API call)', status),
      over('docs-admin export status <job>, time over node -e 0 in the same round', status),
      { metric: 'docs-admin --version, peak RSS', unit: 'MiB', ...rss(version), baseline: median(node.map((r) => r.peakKb / 1024)), baselineName: 'node -e 0' },
    ];
    const notes = [
      `${runs} round(s) after two unmeasured ones, the order turning each round; wall from spawn to exit. node -e 0: ${nodeMs.map((v) => v.toFixed(0)).join(', ')} ms; --version: ${version.map((r) => r.ms.toFixed(0)).join(', ')} ms; export status: ${status.map((r) => r.ms.toFixed(0)).join(', ')} ms.`,
    ];
    for (const m of measures) if (m.pass === false) notes.push(`Goal missed: ${m.metric}: ${(m.ratio ?? NaN).toFixed(2)}x (goal ${m.goal ?? ''}).`);
    return { name: 'startup', measures, notes };
  } finally {
    await sim.stop();
  }
};
