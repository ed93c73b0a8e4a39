/**
 * `npm run bench`: every benchmark, each against its baseline in the same run; prints a table
 * and writes the results as JSON (bench/results.json; with --quick or --only, in out/), which
 * `npm run bench:table` turns into BENCHMARKS.md.
 *   --quick      tiny sizes, one run: the smoke `npm test` runs so benchmarks cannot rot
 *   --runs <n>   runs per measurement (medians are quoted; default 5)
 *   --only <a,b> some benchmarks: polling, download, extract, startup, activation, tree, readers, site
 *   --seed <n>   the first run's seed for the seeded benchmarks (polling; default 0x5eed = 24301)
 *   --out <file> where the results go (a partial run's, to be committed: bench/results-download.json)
 *   --loaded     measure even though the machine is busy (see `loadGate`); the file says so
 *
 * Run alone: no other test, build or benchmark on the machine at the same time. A run refuses to
 * start when the 1-minute load average is above 0.75 per core (1.5 on 2 cores), unless
 * --loaded; the load average at the start and the end is in the file either way.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { activation } from './activation';
import { download } from './download';
import { extract } from './extract';
import { polling } from './polling';
import { readers } from './readers';
import { site } from './site';
import { startup } from './startup';
import { tree } from './tree';
import { MEASURED_ENVIRONMENT } from './proc';
import { formatValue, type Bench, type BenchResult } from './types';

const BENCHES: Record<string, Bench> = { polling, download, extract, startup, activation, tree, readers, site };
const REPO = resolve(__dirname, '..', '..');

/** The 1-minute load average above which a run is refused without --loaded: 0.75 per core. */
export function loadGate(cores: number): number {
  return 0.75 * cores;
}

/** The commit measured, and whether the work tree differed from it. */
function commitOf(): { commit: string; dirty: boolean } {
  const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: REPO, encoding: 'utf8' });
  const status = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: REPO, encoding: 'utf8' });
  return { commit: head.status === 0 ? head.stdout.trim() : 'unknown', dirty: status.status !== 0 || status.stdout.trim() !== '' };
}

function format(value: number | undefined, unit = ''): string {
  if (value === undefined || Number.isNaN(value)) return '';
  const text = formatValue(value);
  return unit === '' ? text : `${text} ${unit}`;
}

function table(results: BenchResult[]): string {
  const rows: string[][] = [['benchmark', 'metric', 'ours: median (min-max)', 'baseline', 'ratio: median (min-max)', 'goal', 'met']];
  for (const r of results) {
    for (const m of r.measures) {
      rows.push([
        r.name,
        m.metric,
        `${format(m.ours, m.unit)}${m.min !== undefined && m.max !== undefined && m.min !== m.max ? ` (${format(m.min)}-${format(m.max)})` : ''}`,
        m.baseline === undefined ? '' : `${format(m.baseline, m.unit)}${m.baselineName ? ` (${m.baselineName})` : ''}`,
        m.ratio === undefined ? '' : `${format(m.ratio)}x${m.ratioMin !== undefined && m.ratioMax !== undefined && m.ratioMin !== m.ratioMax ? ` (${format(m.ratioMin)}-${format(m.ratioMax)})` : ''}`,
        m.goal ?? '',
        m.pass === undefined ? '' : m.pass ? 'yes' : 'NO',
      ]);
    }
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  return rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd()).join('\n');
}

/** What the runner reads of the machine, and the benchmarks it may run (tests give a busy machine and a benchmark of their own). */
export interface Machine {
  loadavg(): number[];
  cores: number;
  benches?: Record<string, Bench>;
}

/** Runs the benchmarks `args` asks for; answers the exit code. */
export async function main(args: string[] = process.argv.slice(2), here: Machine = { loadavg, cores: cpus().length }): Promise<number> {
  const { values } = parseArgs({ args, options: { quick: { type: 'boolean' }, runs: { type: 'string' }, only: { type: 'string' }, seed: { type: 'string' }, out: { type: 'string' }, loaded: { type: 'boolean' } } });
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && !Number.isInteger(seed)) {
    console.error(`--seed takes an integer, not ${values.seed}`);
    return 2;
  }
  const quick = values.quick === true;
  const runs = quick ? 1 : Math.max(1, Number(values.runs ?? 5));
  const benches = here.benches ?? BENCHES;
  const names = values.only === undefined ? Object.keys(benches) : values.only.split(',').map((n) => n.trim());
  const unknown = names.filter((n) => !(n in benches));
  if (unknown.length > 0) {
    console.error(`unknown benchmark(s): ${unknown.join(', ')}; there are ${Object.keys(benches).join(', ')}`);
    return 2;
  }
  const started = Date.now();
  const loadAtStart = here.loadavg();
  const gate = loadGate(here.cores);
  const loaded = values.loaded === true;
  // The smoke writes to out/, never a results file: it runs in `npm test`, whatever the load.
  if (!quick && !loaded && (loadAtStart[0] ?? 0) > gate) {
    console.error(
      `The 1-minute load average is ${loadAtStart[0]?.toFixed(2)}, above ${gate} on this ${here.cores}-core machine: something else is running, and its results would not be this code's. ` +
        'Nothing was measured. Run the benchmarks alone on a quiet machine, or pass --loaded to measure anyway (the results file and BENCHMARKS.md then say the machine was loaded).',
    );
    return 2;
  }
  const results: BenchResult[] = [];
  for (const name of names) {
    const bench = benches[name];
    if (bench === undefined) continue;
    const t0 = Date.now();
    console.error(`=== ${name}${quick ? ' (quick)' : ''}`);
    results.push(await bench({ quick, runs, ...(seed === undefined ? {} : { seed }), log: (line) => console.error(`  ${line}`) }));
    console.error(`    ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
  const cpu = cpus();
  // The load average (1, 5, 15 minutes) at the start and the end: other work on the machine shows there.
  const machine = { cpu: cpu[0]?.model ?? 'unknown', cores: here.cores, memoryGiB: Math.round(totalmem() / 1024 ** 3), node: process.version, platform: `${process.platform} ${process.arch}`, load: { start: loadAtStart, end: here.loadavg() }, loadGate: gate };
  console.log(`\n${table(results)}\n`);
  for (const r of results) for (const note of r.notes) console.log(`- ${r.name}: ${note}`);
  const seconds = (Date.now() - started) / 1000;
  console.log(`\n${quick ? 'smoke' : 'benchmarks'}: ${seconds.toFixed(0)} s on ${machine.cores} x ${machine.cpu}, ${machine.memoryGiB} GiB, Node ${machine.node}`);
  // Only a full run of everything replaces the recorded figures.
  const file =
    values.out !== undefined ? resolve(process.cwd(), values.out) : quick ? resolve(REPO, 'out', 'bench-smoke.json') : values.only !== undefined ? resolve(REPO, 'out', 'bench-partial.json') : resolve(REPO, 'bench', 'results.json');
  mkdirSync(dirname(file), { recursive: true });
  const measured = { date: new Date().toISOString(), quick, loaded, ...commitOf(), runs, ...(seed === undefined ? {} : { seed }), seconds: Math.round(seconds), machine, environment: MEASURED_ENVIRONMENT, results };
  writeFileSync(file, `${JSON.stringify(measured, null, 2)}\n`);
  console.log(`results written to ${file}`);
  const missed = results.flatMap((r) => r.measures.filter((m) => m.pass === false).map((m) => `${r.name}: ${m.metric}`));
  if (missed.length > 0) console.log(`goals missed: ${missed.join('; ')} (each needs its profile in bench/misses.json: see bench/table.ts)`);
  if (!quick) console.log('then: npm run bench:table (BENCHMARKS.md from the results files)');
  return 0;
}

if (require.main === module) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
      process.exitCode = 1;
    },
  );
}
