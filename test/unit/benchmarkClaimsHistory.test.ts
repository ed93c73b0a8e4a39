/**
 * The earlier rounds' figures that bench/HISTORY.md quotes (BENCHMARKS.md until issue 37) are
 * those of their results files, now in bench/history/ (issue 28, part 3): each is recounted here
 * from `bench/history/results*.json` or the committed profile, formatted as the text writes it,
 * and looked up in the text. A figure changed in the history without its file fails.
 *
 * The download's figures of issue 26 are recounted in benchmarkClaimsDownload.test.ts; the
 * current results, BENCHMARKS.md and what the README may quote in benchmarkClaims.test.ts.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BenchResult, Measure } from '../../bench/types';
import { median } from '../../bench/types';

const ROOT = resolve(__dirname, '../../..');
const read = (path: string) => readFileSync(resolve(ROOT, path), 'utf8');
/** The text as a reader sees it: no emphasis, no line breaks inside a sentence or a table cell. */
const plain = (text: string) => text.replace(/\*\*/g, '').replace(/\s+/g, ' ');

interface ResultsFile {
  date: string;
  seconds: number;
  results: BenchResult[];
}
const results = (path: string) => JSON.parse(read(path)) as ResultsFile;

function bench(file: ResultsFile, name: string): BenchResult {
  const found = file.results.find((r) => r.name === name);
  assert.ok(found !== undefined, `no ${name} benchmark in the results`);
  return found;
}

function measure(b: BenchResult, metric: string, baselineName?: string): Measure {
  const found = b.measures.find((m) => m.metric === metric && (baselineName === undefined || m.baselineName === baselineName));
  assert.ok(found !== undefined, `no measure "${metric}"${baselineName === undefined ? '' : ` against ${baselineName}`}`);
  return found;
}

/** As `npm run bench` prints a value: 0 decimals from 100, 1 from 10, else 2. */
function fmt(value: number): string {
  return Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 10 ? value.toFixed(1) : value.toFixed(2);
}

/** A ratio to two decimals; three when two would put it on the other side of the 0.5x goal. */
function x(value: number | undefined): string {
  assert.ok(value !== undefined && Number.isFinite(value), 'a ratio');
  const two = value.toFixed(2);
  return (Number(two) <= 0.5) !== (value <= 0.5) ? `${value.toFixed(3)}x` : `${two}x`;
}

const noteOf = (b: BenchResult, pattern: RegExp): RegExpExecArray => {
  for (const note of b.notes) {
    const m = pattern.exec(note);
    if (m !== null) return m;
  }
  assert.fail(`no note of ${b.name} matches ${pattern}`);
};
const numbers = (list: string) => list.split(',').map((v) => Number(v.trim()));

function includes(doc: string, text: string, fragment: string): void {
  assert.ok(text.includes(fragment), `${doc} should say "${fragment}"`);
}

describe('the earlier rounds in bench/HISTORY.md are those of their results files in bench/history/', () => {
  const full = results('bench/history/results.json');
  const seed1 = results('bench/history/results-polling-seed1.json');
  const seed1Before = results('bench/history/results-polling-seed1-before.json');
  const pollingAlone = results('bench/history/results-polling.json');
  const benchmarks = plain(read('bench/HISTORY.md'));
  const polling = bench(full, 'polling');
  const POLLER = 'fixed 10 s poller';

  /** A workload's requests, p50 and p95 measures (the steady one has no prefix). */
  const workload = (file: ResultsFile, name: string, kind = 'export') => {
    const b = bench(file, 'polling');
    const prefix = name === 'steady' ? '' : `${name}: `;
    const jobs = kind === 'export' ? '20 export jobs' : '50 agent jobs';
    const p50 = kind === 'export' || name !== 'steady' ? `${kind} detection latency p50` : 'agent detection latency p50 (focused)';
    return {
      requests: measure(b, `${prefix}requests, ${jobs}`, POLLER),
      p50: measure(b, `${prefix}${p50}`, POLLER),
      p95: measure(b, `${prefix}${kind} detection latency p95`, POLLER),
    };
  };

  describe('bench/HISTORY.md', () => {
    it('names the full run it quotes (bench/results.json)', () => {
      const end = new Date(full.date).toISOString().slice(11, 16);
      includes('bench/HISTORY.md', benchmarks, `one full \`npm run bench\` (${full.seconds} s, ending ${end} UTC`);
    });

    it("quotes startup as the CLI's time over node -e 0, recounted from the per-round times", () => {
      const startup = bench(full, 'startup');
      const m = noteOf(startup, /node -e 0: ([\d, ]+) ms; --version: ([\d, ]+) ms; export status: ([\d, ]+) ms/);
      const [node = [], version = [], status = []] = [m[1], m[2], m[3]].map((list) => numbers(list ?? ''));
      const over = (runs: number[]) => {
        const d = runs.map((v, i) => v - (node[i] ?? NaN));
        return `${median(d)} ms (${Math.min(...d)}${Math.min(...d) < 0 ? ' to ' : '-'}${Math.max(...d)})`;
      };
      const time = (m: Measure) => `${fmt(m.ours)} ms (${fmt(m.min ?? NaN)}-${fmt(m.max ?? NaN)})`;
      const versionOver = over(version);
      const rss = measure(startup, 'docs-admin --version, peak RSS');
      includes('bench/HISTORY.md', benchmarks, `${time(measure(startup, 'docs-admin --version, whole process'))}; ${versionOver}; ${fmt(rss.ours)} MiB`);
      includes('bench/HISTORY.md', benchmarks, `${time(measure(startup, 'docs-admin export status <job>, whole process (one API call)'))}; ${over(status)}`);
      includes('bench/HISTORY.md', benchmarks, `its time over \`node -e 0\` in the same round: ${versionOver.split(' ')[0]} ms here (the median of the ${node.length} rounds' differences`);
      const ratio = measure(startup, 'docs-admin --version, whole process');
      includes('bench/HISTORY.md', benchmarks, `${x(ratio.ratio)} (${fmt(ratio.ratioMin ?? NaN)}-${fmt(ratio.ratioMax ?? NaN)}) | <= 1.3x`);
    });

    it('gives every polling workload its requests, p50 and p95, and the held-out seed before and after (results.json, results-polling-seed1*.json)', () => {
      const s = (m: Measure) => `${fmt(m.ours)} s`;
      const spread = (m: Measure) => (m.min === undefined ? '' : ` (${fmt(m.min)}-${fmt(m.max ?? NaN)})`);
      const row = (label: string, w: ReturnType<typeof workload>, pollerNote = '') =>
        `| polling | ${label}: requests; p50; p95 | ${fmt(w.requests.ours)}${spread(w.requests)}; ${s(w.p50)}; ${s(w.p95)} | ${fmt(w.requests.baseline ?? NaN)}; ${fmt(w.p50.baseline ?? NaN)} s; ${fmt(w.p95.baseline ?? NaN)} s${pollerNote} | ${w.requests.ratio === undefined ? '' : x(w.requests.ratio)}; ${x(w.p50.ratio)}; ${x(w.p95.ratio)} |`;
      includes('bench/HISTORY.md', benchmarks, row('steady exports', workload(full, 'steady'), ' (fixed 10 s)'));
      for (const name of ['long queue', 'stalls', 'bursts', 'uneven']) includes('bench/HISTORY.md', benchmarks, row(name, workload(full, name)));
      const [before, after] = [workload(seed1Before, 'bursts'), workload(seed1, 'bursts')];
      const arrow = (a: string, b: string) => `${a} -> ${b}`;
      includes(
        'BENCHMARKS.md',
        benchmarks,
        `| ${arrow(fmt(before.requests.ours), fmt(after.requests.ours))}; ${arrow(fmt(before.p50.ours), s(after.p50))}; ${arrow(fmt(before.p95.ours), s(after.p95))} | ${fmt(after.requests.baseline ?? NaN)}; ${fmt(after.p50.baseline ?? NaN)} s; ${fmt(after.p95.baseline ?? NaN)} s | ${arrow(x(before.requests.ratio), x(after.requests.ratio))}; ${arrow(x(before.p50.ratio), x(after.p50.ratio))}; ${arrow(x(before.p95.ratio), x(after.p95.ratio))} |`,
      );
      const [stalls, bursts, stalls1] = [workload(full, 'stalls'), workload(full, 'bursts'), workload(seed1, 'stalls')];
      includes('bench/HISTORY.md', benchmarks, `p95 of stalls and bursts: ${x(stalls.p95.ratio)} and ${x(bursts.p95.ratio)} the 10 s poller's (${s(stalls.p95)} and ${s(bursts.p95)} against ${s({ ...stalls.p95, ours: stalls.p95.baseline ?? NaN })} and ${s({ ...bursts.p95, ours: bursts.p95.baseline ?? NaN })}); on the held-out seed ${x(stalls1.p95.ratio)} and ${x(after.p95.ratio)}`);
    });

    it("quotes the bursts workload's reads by phase and its stretch at 100 % from results-polling.json, which matches the full run", () => {
      const alone = bench(pollingAlone, 'polling');
      for (const m of polling.measures) {
        const same = alone.measures.find((a) => a.metric === m.metric && a.baselineName === m.baselineName);
        assert.deepEqual(same, m, `${m.metric}: the polling rerun and the full run agree`);
      }
      const phases = noteOf(alone, /^bursts: of our (\d+) export requests .*?, (\d+) found the job queued, (\d+) running below 100 %, (\d+) at 100 % and still running, (\d+) ended/);
      includes('bench/HISTORY.md', benchmarks, `of the ${phases[1]}, ${phases[2]} found the job queued, ${phases[3]} running below 100 %, ${phases[4]} at 100 % and still running, ${phases[5]} ended`);
      includes('bench/HISTORY.md', benchmarks, `${phases[2]} of the ${phases[1]} reads found the job queued`);
      const stretch = noteOf(alone, /^bursts: .*by the plan, (\d+) of (\d+) exports reach 100 % before their end and run on there for ([\d.]+) s \(median; ([\d.]+)-([\d.]+) s\)/);
      const r = (v: string | undefined) => String(Math.round(Number(v)));
      includes('bench/HISTORY.md', benchmarks, `by the plan of the recorded seeds, ${r(stretch[3])} s at the median, ${r(stretch[4])}-${r(stretch[5])} s`);
      includes('bench/HISTORY.md', benchmarks, `by the plan, ${r(stretch[3])} s at the median, ${r(stretch[4])}-${r(stretch[5])} s`);
      const stalls = noteOf(alone, /^stalls: .*by the plan, (\d+) of (\d+) exports reach 100 % before their end and run on there for ([\d.]+) s/);
      includes('bench/HISTORY.md', benchmarks, `stalls: by the plan ${stalls[1]} of ${stalls[2]} exports stand there, ${r(stalls[3])} s at the median; bursts: all ${stretch[2]}, ${r(stretch[3])} s`);
      assert.equal(stretch[1], stretch[2], 'all the bursts exports stand at 100 %');
      const slowest = (name: string) => {
        const m = noteOf(alone, new RegExp(`^${name}: .*the slowest tenth of the ends \\((\\d+), seen ([\\d.]+) s \\(median; [\\d.-]+ s\\) late\\) came after a stand at 100 % of ([\\d.]+) s \\(median; ([\\d.]+)-([\\d.]+) s\\), (\\d+) of them a minute or longer`));
        assert.equal(m[6], m[1], `${name}: every one of the slowest stood a minute or longer`);
        return m;
      };
      const [st, bu] = [slowest('stalls'), slowest('bursts')];
      includes('bench/HISTORY.md', benchmarks, `the slowest tenth of the stalls' ends (${st[1]}, seen ${st[2]} s late at the median) came after a stand of ${r(st[3])} s (median; ${r(st[4])}-${r(st[5])} s), the bursts' (${bu[1]}, ${bu[2]} s late) after ${r(bu[3])} s (${r(bu[4])}-${r(bu[5])} s): every one a minute or longer`);
    });

    it("quotes extraction's ratios and tar's range from bench/results.json, not a hand-timed run", () => {
      const extract = bench(full, 'extract');
      const cli = measure(extract, 'CLI extraction time, whole process, on disk (/tmp)');
      const editor = measure(extract, 'extension path, in-process, on disk');
      const range = (m: Measure) => `${x(m.ratio)} (${fmt(m.ratioMin ?? NaN)}-${fmt(m.ratioMax ?? NaN)})`;
      includes('bench/HISTORY.md', benchmarks, `whole process: ${range(cli)} in the full run`);
      includes('bench/HISTORY.md', benchmarks, `took ${range(editor)} \`tar -xzf\`'s whole-process time in the same run`);
      includes('bench/HISTORY.md', benchmarks, `| ${range(editor)} |`);
      includes('bench/HISTORY.md', benchmarks, `| ${range(cli)} | <= 1.0x |`);
      const tar = numbers(noteOf(extract, /on disk \(\/tmp\): CLI [\d, ]+ ms \(CPU [\d, ]+ ms\); tar ([\d, ]+) ms/)[1] ?? '');
      includes('bench/HISTORY.md', benchmarks, `tar took ${(Math.min(...tar) / 1000).toFixed(2)}-${(Math.max(...tar) / 1000).toFixed(2)} s in the full run`);
      const cpu = measure(extract, 'CLI CPU time, whole process, on disk');
      const cores = (c: number, wall: number) => (c / wall).toFixed(1);
      includes('bench/HISTORY.md', benchmarks, `kept ${cores(cpu.ours, cli.ours)} cores busy on average (${cpu.ours} ms of CPU in ${Math.round(cli.ours)} ms, medians) and tar with gzip ${cores(cpu.baseline ?? NaN, cli.baseline ?? NaN)} (${cpu.baseline} in ${Math.round(cli.baseline ?? NaN)} ms)`);
      assert.doesNotMatch(benchmarks, /hand-timed/);
    });

    it('quotes the extraction profile as bench/profiles/2026-11-24-extract.txt has it', () => {
      const profile = read('bench/profiles/2026-11-24-extract.txt');
      const sections = profile.split('\n== ');
      const byProcess = (title: string) => {
        const section = sections.find((s) => s.startsWith(title)) ?? '';
        const events = Number(/Event count \(approx\.\): (\d+)/.exec(section)?.[1]) / 1e9;
        const share = (proc: string, object?: string) =>
          [...section.matchAll(/^\s+([\d.]+)%\s+(\S+)\s+(.+?)\s*$/gm)].filter((m) => m[2] === proc && (object === undefined || m[3] === object)).reduce((n, m) => n + Number(m[1]), 0) / 100;
        return { events, share };
      };
      const tar = byProcess('perf record -g -- tar');
      const s2 = (v: number) => `${v.toFixed(2)} s`;
      includes('bench/HISTORY.md', benchmarks, `\`tar -xzf\` used ${s2(tar.events)} of CPU in two processes that run at once: tar ${s2(tar.events * tar.share('tar'))}, ${s2(tar.events * tar.share('tar', '[kernel.kallsyms]'))} of it in the kernel`);
      includes('bench/HISTORY.md', benchmarks, `gzip ${s2(tar.events * tar.share('gzip'))}, ${s2(tar.events * tar.share('gzip', 'gzip'))} of it in its own code inflating`);
      const cli = byProcess('perf record -g -- node');
      includes('bench/HISTORY.md', benchmarks, `The CLI used ${s2(cli.events)}: ${s2(cli.events * cli.share('node', '[kernel.kallsyms]'))} in the kernel`);
      const inflateMs = Number(/node inflate \d+ ([\d.]+) ms/.exec(profile)?.[1]);
      const gzipWall = /gzip -dc: ([\d.]+) s wall/.exec(profile)?.[1];
      includes('bench/HISTORY.md', benchmarks, `Node's zlib inflates the archive in ${(inflateMs / 1000).toFixed(2)} s (${Math.round(inflateMs)} ms) where \`gzip -dc\` takes ${gzipWall} s`);
    });

    it('says the same peak RSS growth as the previous-method table it points to ("in the run above")', () => {
      const table = /\| download \| peak RSS growth \| (\d+) MiB \|/.exec(benchmarks);
      const sentence = /; (\d+) in the run above\)/.exec(benchmarks);
      assert.ok(table !== null && sentence !== null, 'both are there');
      assert.equal(sentence[1], table[1]);
    });
  });
});
