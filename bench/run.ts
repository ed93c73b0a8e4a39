/**
 * `npm run bench`: every benchmark, each against its baseline in the same run; prints a table
 * and writes the results as JSON (bench/results.json; with --quick or --only, in out/).
 *   --quick      tiny sizes, one run: the smoke `npm test` runs so benchmarks cannot rot
 *   --runs <n>   runs per measurement (medians are quoted; default 5)
 *   --only <a,b> some benchmarks: polling, download, extract, startup, activation, tree, readers, site
 *   --seed <n>   the first run's seed for the seeded benchmarks (polling; default 0x5eed = 24301)
 *   --out <file> where the results go (a partial run's, to be committed: bench/results-download.json)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
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
import type { Bench, BenchResult } from './types';

const BENCHES: Record<string, Bench> = { polling, download, extract, startup, activation, tree, readers, site };
const REPO = resolve(__dirname, '..', '..');

function format(value: number | undefined, unit = ''): string {
  if (value === undefined || Number.isNaN(value)) return '';
  const text = Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 10 ? value.toFixed(1) : value.toFixed(2);
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

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { quick: { type: 'boolean' }, runs: { type: 'string' }, only: { type: 'string' }, seed: { type: 'string' }, out: { type: 'string' } } });
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && !Number.isInteger(seed)) {
    console.error(`--seed takes an integer, not ${values.seed}`);
    return 2;
  }
  const quick = values.quick === true;
  const runs = quick ? 1 : Math.max(1, Number(values.runs ?? 5));
  const names = values.only === undefined ? Object.keys(BENCHES) : values.only.split(',').map((n) => n.trim());
  const unknown = names.filter((n) => !(n in BENCHES));
  if (unknown.length > 0) {
    console.error(`unknown benchmark(s): ${unknown.join(', ')}; there are ${Object.keys(BENCHES).join(', ')}`);
    return 2;
  }
  const started = Date.now();
  const loadAtStart = loadavg();
  const results: BenchResult[] = [];
  for (const name of names) {
    const bench = BENCHES[name];
    if (bench === undefined) continue;
    const t0 = Date.now();
    console.error(`=== ${name}${quick ? ' (quick)' : ''}`);
    results.push(await bench({ quick, runs, ...(seed === undefined ? {} : { seed }), log: (line) => console.error(`  ${line}`) }));
    console.error(`    ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
  const cpu = cpus();
  // The load average (1, 5, 15 minutes) at the start and the end: other work on the machine shows there.
  const machine = { cpu: cpu[0]?.model ?? 'unknown', cores: cpu.length, memoryGiB: Math.round(totalmem() / 1024 ** 3), node: process.version, platform: `${process.platform} ${process.arch}`, load: { start: loadAtStart, end: loadavg() } };
  console.log(`\n${table(results)}\n`);
  for (const r of results) for (const note of r.notes) console.log(`- ${r.name}: ${note}`);
  const seconds = (Date.now() - started) / 1000;
  console.log(`\n${quick ? 'smoke' : 'benchmarks'}: ${seconds.toFixed(0)} s on ${machine.cores} x ${machine.cpu}, ${machine.memoryGiB} GiB, Node ${machine.node}`);
  // Only a full run of everything replaces the recorded figures.
  const file =
    values.out !== undefined ? resolve(process.cwd(), values.out) : quick ? resolve(REPO, 'out', 'bench-smoke.json') : values.only !== undefined ? resolve(REPO, 'out', 'bench-partial.json') : resolve(REPO, 'bench', 'results.json');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ date: new Date().toISOString(), quick, runs, ...(seed === undefined ? {} : { seed }), seconds: Math.round(seconds), machine, results }, null, 2)}\n`);
  console.log(`results written to ${file}`);
  const missed = results.flatMap((r) => r.measures.filter((m) => m.pass === false).map((m) => `${r.name}: ${m.metric}`));
  if (missed.length > 0) console.log(`goals missed (see BENCHMARKS.md for why): ${missed.join('; ')}`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exitCode = 1;
  },
);
