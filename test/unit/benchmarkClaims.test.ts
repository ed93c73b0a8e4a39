/**
 * Every benchmark figure the project states is in a committed results file of the current code
 * (issue 37): BENCHMARKS.md is what bench/table.ts makes of `bench/results*.json` and nothing
 * else; each file says when it ran, on which commit, and the machine's load at its start and
 * end, and one whose load was above the gate says it was run with --loaded; a goal missed names
 * a committed profile that explains it; and the README (and the guides in docs/) quote no
 * measured figure that no current results file holds.
 *
 * The earlier rounds' figures are checked against their own files in benchmarkClaimsHistory and
 * benchmarkClaimsDownload.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../../bench/run';
import { benchmarksPage, currentResults, knownMisses, missFor, withUnit, type Named, type ResultsFile } from '../../bench/table';
import { formatValue, type Bench } from '../../bench/types';

const ROOT = resolve(__dirname, '../../..');
const read = (path: string) => readFileSync(resolve(ROOT, path), 'utf8');

/** Every figure a results file holds, as the table prints it (with and without its unit), and its goals' figures. */
function figuresOf(files: readonly Named<ResultsFile>[]): Set<string> {
  const figures = new Set<string>();
  for (const f of files) {
    for (const r of f.content.results) {
      for (const m of r.measures) {
        for (const v of [m.ours, m.min, m.max, m.baseline]) {
          if (v === undefined) continue;
          figures.add(withUnit(v, m.unit));
          figures.add(formatValue(v));
        }
        for (const v of [m.ratio, m.ratioMin, m.ratioMax]) if (v !== undefined) figures.add(`${formatValue(v)}x`);
        for (const goal of (m.goal ?? '').matchAll(/(\d+(?:\.\d+)?) ?(x|ms|s|MiB|KiB|%)/g)) figures.add(goal[2] === 'x' ? `${goal[1]}x` : `${goal[1]} ${goal[2]}`);
      }
    }
  }
  return figures;
}

/** Measured-looking figures: a ratio (1.5x), or a number with a unit of time, size or share. */
const FIGURE = /(?<![\w.-])(\d+(?:[.,]\d+)*)(?:-(\d+(?:\.\d+)?))?(?: ?(ms|s|MiB\/s|MiB|KiB|GiB|MB|KB|%)|(x))(?![\w])/g;

/** The sentences of a Markdown text that name BENCHMARKS.md, the history or a results file. */
function citingSentences(text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?|])\s+/)
    .filter((sentence) => /BENCHMARKS\.md|HISTORY\.md|bench\/results/.test(sentence));
}

/** The figures of a sentence, each as the table would print it ("1.50x", "96.0 MiB"), ranges split. */
function figuresIn(sentence: string): string[] {
  const found: string[] = [];
  for (const m of sentence.matchAll(FIGURE)) {
    const unit = m[4] ?? m[3] ?? '';
    for (const n of [m[1], m[2]]) {
      if (n === undefined) continue;
      const value = Number(n.replace(/,/g, ''));
      found.push(unit === 'x' ? `${n}x` : `${n} ${unit}`, unit === 'x' ? `${formatValue(value)}x` : withUnit(value, unit));
    }
  }
  return found;
}

describe('benchmark figures are those of the committed results files of the current code', () => {
  const files = currentResults(ROOT);
  const misses = knownMisses(ROOT);

  it('BENCHMARKS.md is what bench/table.ts makes of bench/results*.json and bench/misses.json (npm run bench:table)', () => {
    assert.equal(read('BENCHMARKS.md'), benchmarksPage(files, misses), 'BENCHMARKS.md differs from what the results files make: run npm run bench:table');
  });

  it('each current results file says when it ran, on which commit, and the load at its start and end; above the gate only with --loaded', () => {
    for (const { path, content: c } of files) {
      assert.equal(c.quick, false, `${path}: a smoke run is not a result`);
      assert.ok(!Number.isNaN(Date.parse(c.date)), `${path}: its date`);
      assert.match(c.commit ?? '', /^[0-9a-f]{40}$/, `${path}: the commit it measured`);
      const load = c.machine.load;
      assert.ok(load !== undefined && load.start.length === 3 && load.end.length === 3, `${path}: the load average (1, 5, 15 min) at the start and the end`);
      const gate = c.machine.loadGate ?? 0.75 * c.machine.cores;
      if ((load.start[0] ?? 0) > gate && c.results.some((r) => r.name !== 'package')) assert.equal(c.loaded, true, `${path}: a load of ${load.start[0]} at the start, above ${gate}, without --loaded`);
    }
  });

  it('every goal missed names a committed profile that explains it, and every explanation is of a committed profile', () => {
    for (const { path, content } of files) {
      for (const r of content.results) {
        for (const m of r.measures.filter((x) => x.pass === false)) {
          const miss = missFor(misses, r.name, m);
          assert.ok(miss !== undefined, `${path}: ${r.name}: ${m.metric} misses ${m.goal ?? 'its goal'}: bench/misses.json must name the profile that explains it`);
        }
      }
    }
    for (const miss of misses) {
      assert.match(miss.profile, /^bench\/profiles\/[\w.-]+$/, miss.profile);
      assert.ok(existsSync(join(ROOT, miss.profile)), `${miss.profile} is committed`);
      assert.match(read(miss.profile), /load average/i, `${miss.profile} says the machine's load`);
    }
  });

  it('the README and the guides in docs/ quote no measured figure that no current results file holds', () => {
    const held = figuresOf(files);
    const docs = existsSync(join(ROOT, 'docs')) ? readdirSync(join(ROOT, 'docs')).filter((n) => n.endsWith('.md')).map((n) => `docs/${n}`) : [];
    for (const path of ['README.md', ...docs]) {
      const text = read(path);
      for (const sentence of citingSentences(text)) {
        const figures = figuresIn(sentence);
        for (let i = 0; i < figures.length; i += 2) {
          const [asWritten = '', asPrinted = ''] = [figures[i], figures[i + 1]];
          assert.ok(held.has(asWritten) || held.has(asPrinted), `${path} quotes ${asWritten} beside the benchmarks, and no current results file holds it: "${sentence.slice(0, 300)}"`);
        }
      }
      // A ratio anywhere is a measurement or a goal: it must be in a current results file too.
      for (const ratio of text.matchAll(/(?<![\w.`-])(\d+\.\d+)x(?![\w])/g)) {
        const value = ratio[1] ?? '';
        assert.ok(held.has(`${value}x`) || held.has(`${formatValue(Number(value))}x`), `${path} quotes the ratio ${value}x, which no current results file holds`);
      }
    }
  });

  it('the check reads figures as written: a sentence quoting one that no file holds fails', () => {
    const held = figuresOf([]);
    const figures = figuresIn('The price of the proof: 1.3-1.8x its wall time, a peak of 117 MiB ([BENCHMARKS.md](BENCHMARKS.md)).');
    assert.deepEqual(figures.filter((_, i) => i % 2 === 0), ['1.3x', '1.8x', '117 MiB']);
    assert.ok(figures.every((f) => !held.has(f)));
    assert.equal(citingSentences('Fast. It took 9 ms, see bench/results-startup.json. Slow.').length, 1);
  });
});

describe('a benchmark refuses a loaded machine unless told (bench/run.ts)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'docs-admin-bench-gate-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A benchmark of one measure, so that the runner's gate is what is tested. */
  const benches: Record<string, Bench> = { probe: () => Promise.resolve({ name: 'probe', measures: [{ metric: 'a figure', unit: 'ms', ours: 1, goal: '<= 2 ms', pass: true }], notes: [] }) };
  const busy = { loadavg: () => [3.2, 2.5, 1.9], cores: 2, benches };

  it('a 1-minute load average above 0.75 per core: nothing measured, no file written, exit 2', async () => {
    const out = join(dir, 'results-probe.json');
    assert.equal(await main(['--only', 'probe', '--out', out], busy), 2);
    assert.equal(existsSync(out), false);
  });

  it('with --loaded: measured, and the file says it was loaded, with the load at its start and end', async () => {
    const out = join(dir, 'results-probe.json');
    assert.equal(await main(['--only', 'probe', '--out', out, '--loaded'], busy), 0);
    const file = JSON.parse(readFileSync(out, 'utf8')) as ResultsFile;
    assert.equal(file.loaded, true);
    assert.deepEqual(file.machine.load, { start: [3.2, 2.5, 1.9], end: [3.2, 2.5, 1.9] });
    assert.equal(file.machine.loadGate, 1.5);
    assert.match(file.commit ?? '', /^[0-9a-f]{40}$/);
    const page = benchmarksPage([{ path: 'bench/results-probe.json', content: file }], []);
    assert.match(page, /\| `bench\/results-probe\.json` \| .* \| 3\.20 -> 3\.20 \| yes: run with --loaded \(gate 1\.5\) \|/);
    assert.match(page, /\| probe \| a figure \| 1\.00 ms \| .* \| bench\/results-probe\.json \(load 3\.20 -> 3\.20, --loaded\) \|/, 'each row says its load, and that it was measured loaded');
  });

  it('a quiet machine: measured, not marked loaded', async () => {
    const out = join(dir, 'results-probe.json');
    assert.equal(await main(['--only', 'probe', '--out', out], { loadavg: () => [0.4, 0.5, 0.6], cores: 2, benches }), 0);
    assert.equal((JSON.parse(readFileSync(out, 'utf8')) as ResultsFile).loaded, false);
  });
});
