/**
 * Extraction: a tar.gz docs bundle of 20,000 HTML pages of about 10 KB (about 200 MB expanded;
 * quick: 200 pages, about 2 MB) in 100 sections x 4 topics, plus shared CSS and JS, made once
 * with the system `tar -czf`. Extracted by our extractor and by `tar -xzf archive -C dir`, each
 * into a fresh empty folder, runs alternating, medians quoted.
 *
 * Ours runs in a child Node process (the real `extractBundle` from out/src, with the settings'
 * default caps) and times itself around the call, so module loading is not counted; its peak
 * RSS is the child's VmHWM, its CPU time the whole process's (every thread), and the longest
 * stall of its main thread (the extension host's, in the editor) comes from
 * monitorEventLoopDelay. tar is timed around `sh -c 'tar -xzf ...; times'`, whose `times` gives
 * the CPU of tar and the gzip it starts. Everything happens in /dev/shm when there is one (see
 * scratchDir), so the tools are timed, not the disk. One unmeasured round first (full runs).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { median, PROC_STATUS_KB, prng, ratio, scratchDir, type Bench } from './types';

const MiB = 1024 ** 2;
/** The transpiled core, beside this file's own transpiled copy (out/bench -> out/src). */
const EXTRACT_MODULE = resolve(__dirname, '..', 'src', 'core', 'bundle', 'extract', 'extract.js');
const CHILD_ENV = 'DOCS_ADMIN_BENCH_EXTRACT';

interface ChildReport {
  ms: number;
  /** CPU time of the whole child, every thread. */
  cpuMs: number;
  /** The longest the main thread went without turning its event loop. */
  stallMs: number;
  /** CPU time of the main thread alone (Linux; NaN elsewhere). */
  mainCpuMs: number;
  files: number;
  bytes: number;
  rssPeakKb: number;
}

const CHILD_SCRIPT = String.raw`
const { readFileSync } = require('node:fs');
const cfg = JSON.parse(process.env.${CHILD_ENV});
const { extractBundle } = require(cfg.module);
${PROC_STATUS_KB}
/** CPU time of this process's main thread, from /proc (clock ticks of 10 ms). */
const mainThreadCpuMs = () => {
  try {
    const stat = readFileSync('/proc/self/task/' + process.pid + '/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
};
(async () => {
  const loop = require('node:perf_hooks').monitorEventLoopDelay({ resolution: 5 });
  const main0 = mainThreadCpuMs();
  loop.enable();
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  // No caps given: the core's defaults, the settings' and the CLI's (limits.ts), ratio guard included.
  const summary = await extractBundle(cfg.archive, cfg.target);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = process.cpuUsage(cpu0);
  loop.disable();
  process.stdout.write(JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, stallMs: loop.max / 1e6, mainCpuMs: mainThreadCpuMs() - main0, files: summary.files, bytes: summary.bytes, rssPeakKb: kb('VmHWM') }));
})().catch((error) => {
  process.stderr.write(String(error && error.stack || error));
  process.exit(1);
});
`;



const WORDS = (
  'the a to of and in for is on with that by this you can be as are from or it an your at use when ' +
  'bundle export page site deploy build configure option request response server client key token link ' +
  'project folder file archive release version install update delete create list return value default ' +
  'error status field header query path route cache timeout retry limit user team role access policy ' +
  'setting environment variable command output input format json yaml string number boolean array object ' +
  'endpoint webhook event trigger schedule job queue worker agent review commit branch merge repository ' +
  'search index navigation sidebar theme component snippet example guide reference tutorial overview'
).split(' ');

/** A docs site: section-XX/topic-Y/page-ZZ.html, each page ~6-14 KB of varied prose, plus assets. */
interface SiteShape {
  sections: number;
  topics: number;
  pages: number;
  css: number;
  js: number;
}

function sentence(random: () => number, words: number): string {
  const picked: string[] = [];
  for (let i = 0; i < words; i++) {
    // Mostly common words, sometimes an identifier, as reference pages have.
    picked.push(random() < 0.04 ? `<code>${WORDS[Math.floor(random() * WORDS.length)] ?? 'x'}_${Math.floor(random() * 5000)}</code>` : (WORDS[Math.floor(random() * WORDS.length)] ?? 'x'));
  }
  const text = picked.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function page(random: () => number, shape: SiteShape, section: number, topic: number, index: number): string {
  const title = sentence(random, 3 + Math.floor(random() * 4)).slice(0, -1);
  const nav = Array.from({ length: shape.pages }, (_, p) => `      <li><a href="/section-${section}/topic-${topic}/page-${p}">Page ${p} of topic ${topic}</a></li>`).join('\n');
  const head = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${title} | Section ${section} | Docs</title>
  <link rel="stylesheet" href="/_assets/css/site-${index % shape.css}.css">
  <script defer src="/_assets/js/app-${index % shape.js}.js"></script>
</head>
<body>
  <header class="top"><a class="brand" href="/">Docs</a><input type="search" placeholder="Search the docs"></header>
  <nav class="sidebar">
    <ul>
${nav}
    </ul>
  </nav>
  <main>
    <h1>${title}</h1>
`;
  const target = 6_000 + Math.floor(random() * 8_000);
  const body: string[] = [];
  let length = head.length;
  while (length < target) {
    const block =
      random() < 0.2
        ? `    <h2 id="s${body.length}">${sentence(random, 4).slice(0, -1)}</h2>\n`
        : random() < 0.15
          ? `    <pre><code>curl -H "Authorization: Bearer $KEY" https://api.example.com/v1/${WORDS[Math.floor(random() * WORDS.length)] ?? 'x'}/${Math.floor(random() * 1e6)}</code></pre>\n`
          : `    <p>${Array.from({ length: 2 + Math.floor(random() * 4) }, () => sentence(random, 8 + Math.floor(random() * 14))).join(' ')}</p>\n`;
    body.push(block);
    length += block.length;
  }
  return `${head}${body.join('')}  </main>
  <footer>Section ${section}, topic ${topic}, page ${index}. <a href="/">Home</a></footer>
</body>
</html>
`;
}

function asset(random: () => number, kind: 'css' | 'js', index: number): string {
  const lines: string[] = [];
  for (let i = 0; i < 600; i++) {
    const word = WORDS[Math.floor(random() * WORDS.length)] ?? 'x';
    lines.push(
      kind === 'css'
        ? `.${word}-${index}-${i} { margin: ${Math.floor(random() * 32)}px; color: #${Math.floor(random() * 0xffffff).toString(16).padStart(6, '0')}; }`
        : `export function ${word}${index}_${i}(value) { return value === undefined ? ${Math.floor(random() * 1000)} : String(value) + '${word}'; }`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Writes the site; answers the files and bytes written. */
function writeSite(root: string, shape: SiteShape): { files: number; bytes: number } {
  const random = prng(20_000);
  let files = 0;
  let bytes = 0;
  const write = (path: string, text: string): void => {
    writeFileSync(path, text);
    files++;
    bytes += Buffer.byteLength(text);
  };
  for (const kind of ['css', 'js'] as const) {
    const folder = join(root, '_assets', kind);
    mkdirSync(folder, { recursive: true });
    const count = kind === 'css' ? shape.css : shape.js;
    for (let i = 0; i < count; i++) write(join(folder, kind === 'css' ? `site-${i}.css` : `app-${i}.js`), asset(random, kind, i));
  }
  for (let s = 0; s < shape.sections; s++) {
    for (let t = 0; t < shape.topics; t++) {
      const folder = join(root, `section-${s}`, `topic-${t}`);
      mkdirSync(folder, { recursive: true });
      for (let p = 0; p < shape.pages; p++) write(join(folder, `page-${p}.html`), page(random, shape, s, t, p));
    }
  }
  write(join(root, 'index.html'), page(random, shape, 0, 0, 0));
  return { files, bytes };
}

function ours(archive: string, target: string): Promise<ChildReport> {
  const config = { module: EXTRACT_MODULE, archive, target };
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['-e', CHILD_SCRIPT], { env: { ...process.env, [CHILD_ENV]: JSON.stringify(config) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done(JSON.parse(stdout) as ChildReport) : fail(new Error(`the extraction child exited with ${code}: ${stderr.trim()}`))));
  });
}

/** `times` in sh: the shell's own user and system time, then its children's (`0m0.770s 0m0.410s`). */
function childrenCpuMs(times: string): number {
  const lines = times.trim().split('\n');
  const seconds = [...(lines.at(-1) ?? '').matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return seconds.length === 2 ? ((seconds[0] ?? 0) + (seconds[1] ?? 0)) * 1000 : NaN;
}

/** tar -xzf, its wall time around the process and the CPU of tar and its gzip. */
function tarExtract(archive: string, target: string): { ms: number; cpuMs: number } {
  const t0 = process.hrtime.bigint();
  const result = spawnSync('sh', ['-c', 'tar -xzf "$0" -C "$1" && times', archive, target], { encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (result.status !== 0) throw new Error(`tar -xzf failed: ${result.stderr || String(result.error)}`);
  return { ms, cpuMs: childrenCpuMs(result.stdout) };
}

function spread(values: readonly number[]): string {
  return `${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)}`;
}

export const extract: Bench = async (options) => {
  const shape: SiteShape = options.quick ? { sections: 10, topics: 2, pages: 10, css: 2, js: 3 } : { sections: 100, topics: 4, pages: 50, css: 10, js: 15 };
  const runs = Math.max(1, options.runs);
  const dir = scratchDir('docs-admin-bench-extract-');
  try {
    const site = join(dir, 'site');
    options.log(`extract: writing a site of ${shape.sections * shape.topics * shape.pages} pages`);
    const written = writeSite(site, shape);
    const archive = join(dir, 'bundle.tar.gz');
    options.log(`extract: tar -czf of ${written.files} files, ${(written.bytes / MiB).toFixed(1)} MiB`);
    const packed = spawnSync('tar', ['-czf', archive, '-C', site, ...readdirSync(site).sort()], { encoding: 'utf8' });
    if (packed.status !== 0) throw new Error(`tar -czf failed: ${packed.stderr || String(packed.error)}`);
    rmSync(site, { recursive: true, force: true });
    const archiveBytes = statSync(archive).size;

    const oursMs: number[] = [];
    const oursCpu: number[] = [];
    const stalls: number[] = [];
    const mainCpu: number[] = [];
    const tarMs: number[] = [];
    const tarCpu: number[] = [];
    const peaksKb: number[] = [];
    const measureOurs = async (i: number, counted = true): Promise<void> => {
      const target = join(dir, `ours-${i}`);
      mkdirSync(target);
      const report = await ours(archive, target);
      if (report.files !== written.files || report.bytes !== written.bytes) {
        throw new Error(`our extraction wrote ${report.files} files, ${report.bytes} bytes; the bundle holds ${written.files}, ${written.bytes}`);
      }
      rmSync(target, { recursive: true, force: true });
      if (!counted) return;
      oursMs.push(report.ms);
      oursCpu.push(report.cpuMs);
      stalls.push(report.stallMs);
      mainCpu.push(report.mainCpuMs);
      peaksKb.push(report.rssPeakKb);
      options.log(`extract: ours run ${i + 1}/${runs}: ${report.ms.toFixed(0)} ms, CPU ${report.cpuMs.toFixed(0)} ms (main thread ${report.mainCpuMs.toFixed(0)} ms), main thread stalled at most ${report.stallMs.toFixed(0)} ms, peak RSS ${(report.rssPeakKb / 1024).toFixed(0)} MiB`);
    };
    const measureTar = (i: number, counted = true): void => {
      const target = join(dir, `tar-${i}`);
      mkdirSync(target);
      const { ms, cpuMs } = tarExtract(archive, target);
      rmSync(target, { recursive: true, force: true });
      if (!counted) return;
      tarMs.push(ms);
      tarCpu.push(cpuMs);
      options.log(`extract: tar run ${i + 1}/${runs}: ${ms.toFixed(0)} ms, CPU ${cpuMs.toFixed(0)} ms`);
    };
    if (!options.quick) {
      options.log('extract: warm-up round (not measured)');
      await measureOurs(-1, false);
      measureTar(-1, false);
    }
    for (let i = 0; i < runs; i++) {
      if (i % 2 === 0) {
        await measureOurs(i);
        measureTar(i);
      } else {
        measureTar(i);
        await measureOurs(i);
      }
    }

    const oursMedian = median(oursMs);
    const tarMedian = median(tarMs);
    const timeRatio = ratio(oursMedian, tarMedian);
    const peak = Math.max(...peaksKb) / 1024;
    const cpuRatio = ratio(median(oursCpu), median(tarCpu));
    const notes = [
      `${written.files} files (${shape.sections * shape.topics * shape.pages + 1} HTML pages of 6-14 KB of varied prose in ${shape.sections} sections x ${shape.topics} topics, ${shape.css} CSS and ${shape.js} JS files), ${(written.bytes / MiB).toFixed(1)} MiB expanded, ${(archiveBytes / MiB).toFixed(1)} MiB as tar.gz (made with the system tar -czf).`,
      `${runs} run(s) each${options.quick ? '' : ' after one unmeasured round'}, ours and tar alternating, each into a fresh empty folder in ${dirname(dir)}, removed after the run (not timed); medians quoted. Wall: ours ${oursMs.map((ms) => ms.toFixed(0)).join(', ')} ms (${spread(oursMs)}); tar ${tarMs.map((ms) => ms.toFixed(0)).join(', ')} ms (${spread(tarMs)}). CPU: ours ${oursCpu.map((ms) => ms.toFixed(0)).join(', ')} ms; tar and its gzip ${tarCpu.map((ms) => ms.toFixed(0)).join(', ')} ms.`,
      'Ours: extractBundle() with the default caps (100,000 entries, 4096 MiB) in a child Node process, timed inside it around the call (Node start and module loading not counted; worker thread start, staging folder and rename included); tar: `tar -xzf archive -C dir`, timed around the process.',
      `The main thread (the extension host's, in the editor) used ${mainCpu.map((ms) => ms.toFixed(0)).join(', ')} ms of CPU (/proc, 10 ms ticks) and went at most ${spread(stalls)} ms without turning its event loop (monitorEventLoopDelay, per run: ${stalls.map((ms) => ms.toFixed(0)).join(', ')} ms; on a loaded machine that is mostly the wait for a core): the work runs on a worker thread.`,
      `Peak RSS: the child's VmHWM (absolute, the Node runtime included); per run ${peaksKb.map((kb) => (kb / 1024).toFixed(0)).join(', ')} MiB.`,
    ];
    if (options.quick) notes.push('Quick mode: 200 files take a few milliseconds, so starting the worker thread and loading its modules (tens of milliseconds) dominate and the ratio says little; the full run is the measurement.');
    if (timeRatio > 1.5) notes.push(`Time goal missed: ours took ${timeRatio.toFixed(2)}x tar's time (${oursMedian.toFixed(0)} ms vs ${tarMedian.toFixed(0)} ms).`);
    if (peak > 128) notes.push(`Memory goal missed: the extractor's peak RSS reached ${peak.toFixed(0)} MiB.`);
    return {
      name: 'extract',
      measures: [
        { metric: 'extraction time (median)', unit: 'ms', ours: oursMedian, baseline: tarMedian, baselineName: 'tar -xzf', ratio: timeRatio, goal: "<= 1.5x tar's time", pass: timeRatio <= 1.5 },
        { metric: 'CPU time, all threads (median)', unit: 'ms', ours: median(oursCpu), baseline: median(tarCpu), baselineName: 'tar + gzip', ratio: cpuRatio },
        { metric: 'main-thread CPU time (median)', unit: 'ms', ours: median(mainCpu) },
        { metric: 'longest main-thread stall (highest run)', unit: 'ms', ours: Math.max(...stalls) },
        { metric: 'peak RSS (highest run)', unit: 'MiB', ours: peak, goal: '<= 128 MiB', pass: peak <= 128 },
      ],
      notes,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
