/**
 * The download's benchmark figures of issue 26, now history (bench/HISTORY.md), are those of
 * `bench/history/results-download.json`: each is recounted here from the file, formatted as the
 * text writes it, and looked up in the text (as benchmarkClaimsHistory.test.ts does for polling,
 * extraction and startup). A figure changed in the text without the file fails. So does a page
 * that calls a loaded run quiet: when the load average the file recorded is above the machine's
 * cores, the text must say the machine was loaded.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BenchResult, Measure } from '../../bench/types';

const ROOT = resolve(__dirname, '../../..');
const read = (path: string) => readFileSync(resolve(ROOT, path), 'utf8');
const plain = (text: string) => text.replace(/\*\*/g, '').replace(/\s+/g, ' ');

interface DownloadResults {
  date: string;
  seconds: number;
  machine: { cpu: string; cores: number; memoryGiB: number; node: string; load: { start: number[]; end: number[] } };
  results: BenchResult[];
}

const file = JSON.parse(read('bench/history/results-download.json')) as DownloadResults;
const download = file.results.find((r) => r.name === 'download');
const benchmarks = plain(read('bench/HISTORY.md'));

function measure(prefix: string): Measure {
  const found = download?.measures.find((m) => m.metric.startsWith(prefix));
  assert.ok(found !== undefined, `no download measure starting "${prefix}"`);
  return found;
}

function includes(doc: string, text: string, fragment: string): void {
  assert.ok(text.includes(fragment), `${doc} should say "${fragment}"`);
}

const r0 = (v: number | undefined) => (v ?? NaN).toFixed(0);
const f1 = (v: number | undefined) => (v ?? NaN).toFixed(1);
const f2 = (v: number | undefined) => (v ?? NaN).toFixed(2);
/** A peak RSS growth: one decimal below 100 MiB. */
const mib = (v: number | undefined) => ((v ?? NaN) >= 100 ? r0(v) : f1(v));
const ratio = (m: Measure) => `${f2(m.ratio)}x (${f2(m.ratioMin)}-${f2(m.ratioMax)})`;
const met = (m: Measure) => (m.pass === true ? 'yes' : 'no');
const hhmm = (date: Date) => date.toISOString().slice(11, 16);

/** The four whole-process cases, as the file names them and as the text does. */
const CASES = [
  { scheme: 'http', size: 512, label: 'http 512 MiB' },
  { scheme: 'https', size: 512, label: 'https 512 MiB' },
  { scheme: 'http', size: 1024, label: 'http 1 GiB' },
  { scheme: 'https', size: 1024, label: 'https 1 GiB' },
].map((c) => {
  const prefix = `${c.scheme} ${c.size} MiB: CLI`;
  const note = download?.notes.find((n) => n.startsWith(`${c.scheme} ${c.size} MiB (`)) ?? '';
  const pairs = (/wall-time ratio per pair ([\d., ]+)\./.exec(note)?.[1] ?? '').split(',').map((v) => Number(v.trim()));
  return { ...c, wall: measure(`${prefix} wall time`), cpu: measure(`${prefix} CPU time`), rss: measure(`${prefix} peak RSS`), pairs };
});

describe("the download's figures of issue 26 in bench/HISTORY.md are those of bench/history/results-download.json", () => {
  it('has every measure the text quotes, each with its per-pair ratios', () => {
    assert.ok(download !== undefined, 'a download benchmark in the file');
    for (const c of CASES) {
      assert.ok(c.pairs.length >= 5 && c.pairs.every(Number.isFinite), `${c.label}: the per-pair ratios in the notes`);
      assert.equal(f2(Math.min(...c.pairs)), f2(c.wall.ratioMin), `${c.label}: the lowest pair is the measure's`);
    }
  });

  it("bench/HISTORY.md says when, how long and on what the run was, and that the machine was loaded when the file's load average says so", () => {
    const end = new Date(file.date);
    const start = new Date(end.getTime() - file.seconds * 1000);
    includes('bench/HISTORY.md', benchmarks, `${file.seconds} s, ${hhmm(start)}-${hhmm(end)} UTC`);
    const { machine } = file;
    includes('bench/HISTORY.md', benchmarks, `${machine.cores} x ${machine.cpu}, ${machine.memoryGiB} GiB, Node ${machine.node}`);
    includes('bench/HISTORY.md', benchmarks, `load average ${f1(machine.load.start[0])} at the start and ${f1(machine.load.end[0])} at the end`);
    const loaded = Math.max(machine.load.start[0] ?? 0, machine.load.end[0] ?? 0) > machine.cores;
    const section = benchmarks.slice(benchmarks.indexOf('## Download (issue 26)'), benchmarks.indexOf('## Readers'));
    assert.equal(/The machine was (?:not quiet|loaded|heavily loaded)/.test(section), loaded, loaded ? 'a loaded run is said to be one' : 'a quiet run is not called loaded');
  });

  it("bench/HISTORY.md's table: each size and scheme's wall time, CPU and peak RSS against curl, with the spread and the pairs at or below 1.0x", () => {
    for (const c of CASES) {
      const atOrBelow = c.pairs.filter((p) => p <= 1.0).length;
      includes('bench/HISTORY.md', benchmarks, `| ${c.label}: wall time | ${r0(c.wall.ours)} ms (${r0(c.wall.min)}-${r0(c.wall.max)}) | ${r0(c.wall.baseline)} ms | ${ratio(c.wall)}; ${atOrBelow} of ${c.pairs.length} | <= 1.0x | ${met(c.wall)} |`);
      includes('bench/HISTORY.md', benchmarks, `| ${c.label}: CPU time | ${r0(c.cpu.ours)} ms (${r0(c.cpu.min)}-${r0(c.cpu.max)}) | ${r0(c.cpu.baseline)} ms | ${ratio(c.cpu)} | <= 1.5x | ${met(c.cpu)} |`);
      includes('bench/HISTORY.md', benchmarks, `| ${c.label}: peak RSS | ${r0(c.rss.ours)} MiB (${r0(c.rss.min)}-${r0(c.rss.max)}) | ${r0(c.rss.baseline)} MiB | | <= 96 MiB | ${met(c.rss)} |`);
    }
  });

  it("bench/HISTORY.md's table: the capped store, the drop and the editor in its extension host", () => {
    const capped = measure('https, capped store');
    includes('bench/HISTORY.md', benchmarks, `| ${f1(capped.ours)} MiB/s (${f1(capped.min)}-${f1(capped.max)}) | ${f1(capped.baseline)} MiB/s (one connection) | ${ratio(capped)} | >= 3x | ${met(capped)} |`);
    const drop = measure('https, bytes passed on beyond the bundle');
    includes('bench/HISTORY.md', benchmarks, `| ${f2(drop.ours)} % | | | <= 1 % | ${met(drop)} |`);
    const wall = measure('editor (extension host), https: Download Bundle wall time');
    includes('bench/HISTORY.md', benchmarks, `| ${r0(wall.ours)} ms (${r0(wall.min)}-${r0(wall.max)}) | ${r0(wall.baseline)} ms (spawned from that host) | ${ratio(wall)} |`);
    const cpu = measure('editor (extension host), https: CPU time');
    includes('bench/HISTORY.md', benchmarks, `| ${r0(cpu.ours)} ms (${r0(cpu.min)}-${r0(cpu.max)}) | ${r0(cpu.baseline)} ms | ${ratio(cpu)} |`);
    const rss = measure('editor (extension host), https: peak RSS growth');
    includes('bench/HISTORY.md', benchmarks, `| ${mib(rss.ours)} MiB (${mib(rss.min)}-${mib(rss.max)}) | | | <= 64 MiB (issue 16's) | ${met(rss)} |`);
  });

  it('"Goals not met" quotes the same medians and spreads', () => {
    const span = (values: number[], format: (v: number) => string) => `${format(Math.min(...values))}-${format(Math.max(...values))}`;
    const walls = CASES.map((c) => c.wall.ratio ?? NaN);
    const cpus = CASES.map((c) => c.cpu.ratio ?? NaN);
    const rss = CASES.map((c) => c.rss.ours);
    const pairs = CASES.flatMap((c) => c.pairs);
    const atOrBelow = pairs.filter((p) => p <= 1.0).length;
    includes('bench/HISTORY.md', benchmarks, `Download CPU <= 1.5x curl's: ${span(cpus, f2)}x (medians of the four sizes and schemes)`);
    includes('bench/HISTORY.md', benchmarks, `Download wall time <= 1.0x curl's: ${span(walls, f2)}x (medians; pairs ${span(pairs, f2)}, ${atOrBelow} of ${pairs.length} at or below 1.0x)`);
    const lowest = Math.min(...CASES.map((c) => c.rss.min ?? NaN));
    const highest = Math.max(...CASES.map((c) => c.rss.max ?? NaN));
    includes('bench/HISTORY.md', benchmarks, `Download peak RSS <= 96 MiB: ${span(rss, r0)} MiB (medians; ${r0(lowest)}-${r0(highest)})`);
    const capped = measure('https, capped store');
    includes('bench/HISTORY.md', benchmarks, `Capped store >= 3x curl: ${ratio(capped)}`);
    const editor = measure('editor (extension host), https: peak RSS growth');
    includes('bench/HISTORY.md', benchmarks, `(issue 16's goal): ${mib(editor.ours)} MiB (${mib(editor.min)}-${mib(editor.max)})`);
  });
});
