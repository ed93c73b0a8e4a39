/**
 * BENCHMARKS.md, made from the committed results files (`bench/results*.json`) so that it cannot
 * say anything they do not: one table of every measure, each row naming its file, the machine's
 * 1-minute load average at the start and the end of its run, its goal and whether it was met;
 * and for each goal missed, the profile that explains it (bench/misses.json). The earlier rounds'
 * figures live in bench/HISTORY.md, and their files in bench/history/.
 *
 *   npm run bench:table            writes BENCHMARKS.md
 *   npm run bench:table -- --check fails when BENCHMARKS.md is not what the files make
 *
 * test/unit/benchmarkClaims.test.ts checks the same, and what the README may quote.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BenchResult, Measure } from './types';
import { formatValue } from './types';

/** A results file as bench/run.ts (and scripts/check-package.mjs --out) write them. */
export interface ResultsFile {
  date: string;
  quick: boolean;
  /** Measured with --loaded: the load average at the start was above the gate. */
  loaded?: boolean;
  commit?: string;
  dirty?: boolean;
  runs: number;
  seconds: number;
  machine: { cpu: string; cores: number; memoryGiB: number; node: string; platform: string; load?: { start: number[]; end: number[] }; loadGate?: number };
  environment?: string;
  results: BenchResult[];
}

/** Why a goal is missed: the profile that shows it, and what it shows. */
export interface Miss {
  benchmark: string;
  /** A regular expression the measure's metric matches (e.g. "^https? (512|1024) MiB: CLI CPU time"). */
  metric: string;
  /** A file under bench/profiles/ (its load is written in it). */
  profile: string;
  why: string;
}

export interface Named<T> {
  /** Relative to the repository, e.g. bench/results.json. */
  path: string;
  content: T;
}

const REPO = resolve(__dirname, '..', '..');

/** The results files of the current code: bench/results*.json (bench/history/ holds the others). */
export function currentResults(repo = REPO): Named<ResultsFile>[] {
  return readdirSync(join(repo, 'bench'))
    .filter((name) => /^results.*\.json$/.test(name))
    .sort()
    .map((name) => ({ path: `bench/${name}`, content: JSON.parse(readFileSync(join(repo, 'bench', name), 'utf8')) as ResultsFile }));
}

export function knownMisses(repo = REPO): Miss[] {
  const path = join(repo, 'bench', 'misses.json');
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as { misses: Miss[] }).misses : [];
}

/** How a value is printed, with its unit (the runner's rule: 0 decimals from 100, 1 from 10, else 2). */
export function withUnit(value: number, unit: string): string {
  return unit === '' ? formatValue(value) : `${formatValue(value)} ${unit}`;
}

/** "median (min-max)", the range left out when there is none. */
export function spread(value: number, min: number | undefined, max: number | undefined, suffix = ''): string {
  const range = min !== undefined && max !== undefined && min !== max ? ` (${formatValue(min)}-${formatValue(max)})` : '';
  return `${formatValue(value)}${suffix}${range}`;
}

/** The 1-minute load average at the start and the end. */
export function loadOf(file: ResultsFile): string {
  const load = file.machine.load;
  if (load === undefined) return 'not recorded';
  return `${(load.start[0] ?? NaN).toFixed(2)} -> ${(load.end[0] ?? NaN).toFixed(2)}`;
}

export function missFor(misses: readonly Miss[], benchmark: string, m: Measure): Miss | undefined {
  return misses.find((x) => x.benchmark === benchmark && new RegExp(x.metric).test(m.metric));
}

/** A table cell: no line break, no pipe. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

function row(cells: string[]): string {
  return `| ${cells.map(cell).join(' | ')} |`;
}

function measureRow(file: Named<ResultsFile>, r: BenchResult, m: Measure, misses: readonly Miss[]): string {
  const ours = m.min === undefined ? withUnit(m.ours, m.unit) : `${spread(m.ours, m.min, m.max)} ${m.unit}`.trim();
  const baseline = m.baseline === undefined ? '' : `${withUnit(m.baseline, m.unit)}${m.baselineName === undefined ? '' : ` (${m.baselineName})`}`;
  const ratio = m.ratio === undefined ? '' : spread(m.ratio, m.ratioMin, m.ratioMax, 'x');
  const met = m.pass === undefined ? '' : m.pass ? 'met' : missFor(misses, r.name, m) === undefined ? 'MISSED, no profile yet' : 'missed (below)';
  const loaded = file.content.loaded === true ? ', --loaded' : '';
  return row([r.name, m.metric, ours, baseline, ratio, m.goal ?? '', met, `${file.path} (load ${loadOf(file.content)}${loaded})`]);
}

/** The page, from the files and the misses' explanations. */
export function benchmarksPage(files: readonly Named<ResultsFile>[], misses: readonly Miss[]): string {
  const out: string[] = [
    '# Benchmarks',
    '',
    '<!-- Made by `npm run bench:table` (bench/table.ts) from the results files; a unit test fails when this page and the files differ. -->',
    '',
    'What the current code measures, and nothing else: every figure below is in a committed results file (`bench/results*.json`), named on its row, with the machine\'s 1-minute load average at the start and the end of the run that wrote it. A goal missed names the profile that explains it. How each benchmark measures is written at the top of its source (`bench/*.ts`); the earlier rounds, with their dates and the builds they measured, are in [bench/HISTORY.md](bench/HISTORY.md).',
    '',
    'To record: `npm run bench` alone on a quiet machine (it refuses to start when the 1-minute load average is above 0.75 per core, 1.5 on 2 cores, unless `--loaded`, which the file and this page then say), `node scripts/check-package.mjs --out bench/results-package.json` for the package\'s size, then `npm run bench:table`. A results file whose build no longer ships moves to `bench/history/` (its figures to bench/HISTORY.md, with their date).',
    '',
  ];
  const current = files.filter((f) => !f.content.quick);
  if (current.length === 0) {
    out.push('**No results of the current code are committed yet.** The figures of earlier builds are in [bench/HISTORY.md](bench/HISTORY.md); none of them is quoted as true of this one.', '');
    return `${out.join('\n')}\n`;
  }
  out.push('## The runs', '', row(['results file', 'date (UTC)', 'commit', 'machine', 'runs', 'load, 1 min: start -> end', 'machine loaded']), '|---|---|---|---|---|---|---|');
  for (const f of current) {
    const c = f.content;
    const gate = c.machine.loadGate ?? 0.75 * c.machine.cores;
    const busy = c.loaded === true ? `yes: run with --loaded (gate ${gate})` : (c.machine.load?.start[0] ?? 0) > gate ? `yes (above ${gate})` : 'no';
    const commit = c.commit === undefined ? 'not recorded' : `${c.commit.slice(0, 10)}${c.dirty === true ? ' (with changes)' : ''}`;
    out.push(row([`\`${f.path}\``, c.date.replace('T', ' ').slice(0, 16), commit, `${c.machine.cores} x ${c.machine.cpu}, Node ${c.machine.node}`, String(c.runs), loadOf(c), busy]));
  }
  out.push('', '## Results', '', row(['benchmark', 'measure', 'ours: median (min-max)', 'baseline', 'ratio: median (min-max)', 'goal', 'met', 'results file (1-minute load average: start -> end)']), '|---|---|---|---|---|---|---|---|');
  const missed: string[] = [];
  for (const f of current) {
    for (const r of f.content.results) {
      for (const m of r.measures) {
        out.push(measureRow(f, r, m, misses));
        if (m.pass !== false) continue;
        const miss = missFor(misses, r.name, m);
        // The figure the goal is about: a ratio for a goal in "x", else the value in its unit.
        const figure = m.ratio !== undefined && /\d\s*x\b/.test(m.goal ?? '') ? `${formatValue(m.ratio)}x` : withUnit(m.ours, m.unit);
        missed.push(`- **${r.name}: ${m.metric}**: ${figure} against ${m.goal ?? 'its goal'} (\`${f.path}\`, load ${loadOf(f.content)}). ${miss === undefined ? 'No profile explains it yet.' : `${miss.why} Profile: \`${miss.profile}\`.`}`);
      }
    }
  }
  if (missed.length > 0) out.push('', '## Goals missed, and why', '', ...missed);
  const notes = current.flatMap((f) => f.content.results.flatMap((r) => r.notes.map((n) => `- ${r.name} (\`${f.path}\`): ${n.replace(/\s+/g, ' ')}`)));
  if (notes.length > 0) out.push('', '## What each run saw', '', ...notes);
  return `${out.join('\n')}\n`;
}

if (require.main === module) {
  const page = benchmarksPage(currentResults(), knownMisses());
  const target = join(REPO, 'BENCHMARKS.md');
  if (process.argv.includes('--check')) {
    const same = readFileSync(target, 'utf8') === page;
    if (!same) console.error('BENCHMARKS.md is not what the results files make: run npm run bench:table.');
    process.exitCode = same ? 0 : 1;
  } else {
    writeFileSync(target, page);
    console.log(`BENCHMARKS.md written from ${currentResults().length} results file(s).`);
  }
}
