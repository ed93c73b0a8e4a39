/**
 * Extraction: a tar.gz docs bundle of 20,000 HTML pages of about 10 KB (about 200 MB expanded;
 * quick: 200 pages, about 2 MB) in 100 sections x 4 topics, plus shared CSS and JS, made once
 * with the system `tar -czf`. Extracted, each into a fresh folder, the order turning each round:
 *
 * - on the disk a user extracts to (the OS temp folder), by the CLI as a whole process
 *   (`node dist/cli.js export extract`), by `tar -xzf` as a whole process, and by the extension's
 *   path in-process (`extractBundle()` in a child Node process, timed inside it, with its
 *   main-thread CPU and longest stall: the extension host's, in the editor);
 * - on a RAM disk (/dev/shm), when there is one, by the CLI and tar again: labelled, beside.
 *
 * Whole processes are timed from spawn to exit, their CPU time and peak RSS (children included:
 * tar's gzip) from GNU time. Ratios: the median of each round's ratio, with the lowest and highest.
 *
 * Nothing extracted on disk is removed until the benchmark ends (the site written to make the
 * archive neither): each run's folder is kept, then all are removed together. A profile showed
 * why (`perf record -g`, 2026-11-24): this VM's root file system is ext4 without a journal
 * (`/proc/fs/jbd2` empty), and there ext4's inode allocator skips every inode deleted in the last
 * 60-300 s (`recently_deleted()` in `find_inode_bit`, fs/ext4/ialloc.c), reading the inode table
 * block of each to find out: creating 20,000 files right after deleting 20,000 spent ~80 % of its
 * time in find_get_block_common / recently_deleted / ext4_get_group_desc / find_inode_bit. With
 * each run's tree removed before the next, every run paid for the one before: `tar -xzf` took
 * ~14 s instead of ~1.5 s, and the comparison measured the deletions, not the tools. When the
 * disk has no room for every run's folder (plus a margin), the runs fall back to removing their
 * folder, and a note says so. The RAM disk (tmpfs has no such rule, and kept folders would hold
 * memory) still removes each run's folder.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CLI, interleaved, settleDisk, timedProcess, type ProcessRun } from './proc';
import { median, pairedRatio, PROC_STATUS_KB, prng, spreadOf, type Bench, type Measure } from './types';

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

/** A RAM disk, when there is one. */
function ramDisk(): string | undefined {
  try {
    return existsSync('/dev/shm') ? mkdtempSync(join('/dev/shm', 'docs-admin-bench-extract-')) : undefined;
  } catch {
    return undefined;
  }
}

interface Where {
  label: string;
  dir: string;
  archive: string;
  cli: ProcessRun[];
  tar: ProcessRun[];
  /** Each run's folder is kept until the end (see the top of this file), not removed after the run. */
  keep: boolean;
}

/** Room left for the margin beyond every kept run: 2 GiB and 5 % of the inodes. */
const MARGIN_BYTES = 2 * 1024 ** 3;

/** Whether the disk holding `dir` has room for `runs` extractions of `files` files and `bytes` bytes, plus a margin. */
function roomForAll(dir: string, runs: number, files: number, bytes: number): boolean {
  try {
    const s = statfsSync(dir);
    // Each file takes at least one block; a page of 6-14 KB takes 2-4.
    const perRun = bytes + files * s.bsize;
    return s.bavail * s.bsize >= runs * perRun + MARGIN_BYTES && s.ffree >= runs * files + s.files * 0.05;
  } catch {
    return false;
  }
}

const list = (values: readonly number[]) => values.map((v) => v.toFixed(0)).join(', ');

export const extract: Bench = async (options) => {
  const shape: SiteShape = options.quick ? { sections: 10, topics: 2, pages: 10, css: 2, js: 3 } : { sections: 100, topics: 4, pages: 50, css: 10, js: 15 };
  const runs = Math.max(1, options.runs);
  // The disk a user extracts to: the OS temp folder (not a RAM disk); a RAM disk beside it, labelled.
  const disk = mkdtempSync(join(tmpdir(), 'docs-admin-bench-extract-'));
  const ram = ramDisk();
  try {
    const site = join(disk, 'site');
    options.log(`extract: writing a site of ${shape.sections * shape.topics * shape.pages} pages`);
    const written = writeSite(site, shape);
    const archive = join(disk, 'bundle.tar.gz');
    options.log(`extract: tar -czf of ${written.files} files, ${(written.bytes / MiB).toFixed(1)} MiB`);
    const packed = spawnSync('tar', ['-czf', archive, '-C', site, ...readdirSync(site).sort()], { encoding: 'utf8' });
    if (packed.status !== 0) throw new Error(`tar -czf failed: ${packed.stderr || String(packed.error)}`);
    const archiveBytes = statSync(archive).size;
    // Every run on disk, the warm-up round's included (the CLI, tar and the in-process path), and the site.
    const diskRuns = 3 * (runs + (options.quick ? 0 : 1));
    const keep = roomForAll(disk, diskRuns + 1, written.files, written.bytes);
    // The site stays too when the runs' folders do: removed now, its 20,000 inodes would slow the first runs.
    if (!keep) rmSync(site, { recursive: true, force: true });
    const places: Where[] = [{ label: `on disk (${tmpdir()})`, dir: disk, archive, cli: [], tar: [], keep }];
    if (ram !== undefined) {
      copyFileSync(archive, join(ram, 'bundle.tar.gz'));
      places.push({ label: 'RAM disk (/dev/shm)', dir: ram, archive: join(ram, 'bundle.tar.gz'), cli: [], tar: [], keep: false });
    }

    const inproc: ChildReport[] = [];
    let counted = false;
    let n = 0;
    const fresh = (where: Where, tool: string) => join(where.dir, `${tool}-${n++}`);
    /** After a run: its folder removed unless kept (see the top of this file), then the disk synced, untimed. */
    const done = (where: Where, target: string) => {
      if (!where.keep) rmSync(target, { recursive: true, force: true });
      settleDisk();
    };
    const check = (files: number, bytes: number, who: string) => {
      if (files !== written.files || bytes !== written.bytes) throw new Error(`${who} wrote ${files} files, ${bytes} bytes; the bundle holds ${written.files}, ${written.bytes}`);
    };
    const steps = places.flatMap((where) => [
      async () => {
        const target = fresh(where, 'cli');
        const run = await timedProcess(process.execPath, [CLI, 'export', 'extract', where.archive, '--dir', target, '--json']);
        const summary = JSON.parse(run.stdout) as { files: number; bytes: number };
        check(summary.files, summary.bytes, 'the CLI');
        done(where, target);
        if (!counted) return;
        where.cli.push(run);
        options.log(`extract: CLI ${where.label}: ${run.ms.toFixed(0)} ms, CPU ${run.cpuMs.toFixed(0)} ms, peak RSS ${(run.peakKb / 1024).toFixed(0)} MiB`);
      },
      async () => {
        const target = fresh(where, 'tar');
        mkdirSync(target);
        const run = await timedProcess('tar', ['-xzf', where.archive, '-C', target]);
        done(where, target);
        if (!counted) return;
        where.tar.push(run);
        options.log(`extract: tar ${where.label}: ${run.ms.toFixed(0)} ms, CPU ${run.cpuMs.toFixed(0)} ms, peak RSS ${(run.peakKb / 1024).toFixed(0)} MiB`);
      },
      ...(where.dir === disk
        ? [
            async () => {
              const target = fresh(where, 'inproc');
              mkdirSync(target);
              const report = await ours(where.archive, target);
              check(report.files, report.bytes, 'our extraction');
              done(where, target);
              if (!counted) return;
              inproc.push(report);
              options.log(`extract: in-process ${where.label}: ${report.ms.toFixed(0)} ms, CPU ${report.cpuMs.toFixed(0)} ms (main thread ${report.mainCpuMs.toFixed(0)} ms), stalled at most ${report.stallMs.toFixed(0)} ms, peak RSS ${(report.rssPeakKb / 1024).toFixed(0)} MiB`);
            },
          ]
        : []),
    ]);
    if (!options.quick) {
      options.log('extract: warm-up round (not measured)');
      await interleaved(1, steps);
    }
    counted = true;
    await interleaved(runs, steps);

    const measures: Measure[] = [];
    const notes = [
      `${written.files} files (${shape.sections * shape.topics * shape.pages + 1} HTML pages of 6-14 KB of varied prose in ${shape.sections} sections x ${shape.topics} topics, ${shape.css} CSS and ${shape.js} JS files), ${(written.bytes / MiB).toFixed(1)} MiB expanded, ${(archiveBytes / MiB).toFixed(1)} MiB as tar.gz (made with the system tar -czf).`,
      `${runs} round(s)${options.quick ? '' : ' after one unmeasured round'}, the order of the tools turning each round, each into a fresh folder, the disk synced after each run (\`sync\`, not timed), so no run pays for the write-back of the one before.`,
      keep
        ? 'On disk, every run\'s folder (and the site the archive was made from) is kept until the benchmark ends, then all are removed: on ext4 without a journal, inodes deleted in the last 60-300 s are skipped, one inode-table read each, when files are created (recently_deleted(), fs/ext4/ialloc.c), so removing a run\'s folder made the next run pay for it.'
        : `Not enough room on disk (${tmpdir()}) to keep every run's folder: each was removed after its run, as before, so on a file system that delays reusing deleted inodes (ext4 without a journal) every run pays for the deletions before it, and the times are those of a disk busy with them.`,
      'CLI: `node dist/cli.js export extract <archive> --dir <dir>`, a whole process (Node start, module loading, worker thread, staging folder, rename); tar: `tar -xzf <archive> -C <dir>`, a whole process; wall from spawn to exit, CPU and peak RSS of the process and its children (tar\'s gzip) from GNU time.',
    ];
    for (const where of places) {
      const ms = where.cli.map((r) => r.ms);
      const tarMs = where.tar.map((r) => r.ms);
      const onDisk = where.dir === disk;
      const r = pairedRatio(ms, tarMs);
      measures.push({ metric: `CLI extraction time, whole process, ${where.label}`, unit: 'ms', ...spreadOf(ms), baseline: median(tarMs), baselineName: 'tar -xzf', ...r, ...(onDisk ? { goal: "<= 1.5x tar's time", pass: r.ratio <= 1.5 } : {}) });
      notes.push(`${where.label}: CLI ${list(ms)} ms (CPU ${list(where.cli.map((x) => x.cpuMs))} ms); tar ${list(tarMs)} ms (CPU ${list(where.tar.map((x) => x.cpuMs))} ms).`);
      if (onDisk) {
        const cpu = where.cli.map((x) => x.cpuMs);
        measures.push({ metric: 'CLI CPU time, whole process, on disk', unit: 'ms', ...spreadOf(cpu), baseline: median(where.tar.map((x) => x.cpuMs)), baselineName: 'tar + gzip', ...pairedRatio(cpu, where.tar.map((x) => x.cpuMs)) });
        const peak = spreadOf(where.cli.map((x) => x.peakKb / 1024));
        measures.push({ metric: 'CLI peak RSS, whole process', unit: 'MiB', ...peak, baseline: median(where.tar.map((x) => x.peakKb / 1024)), baselineName: 'tar', goal: '<= 128 MiB', pass: peak.max <= 128 });
      }
    }
    const diskTar = places[0]?.tar.map((r) => r.ms) ?? [];
    const inMs = inproc.map((r) => r.ms);
    measures.push(
      { metric: 'extension path, in-process, on disk', unit: 'ms', ...spreadOf(inMs), baseline: median(diskTar), baselineName: 'tar -xzf', ...pairedRatio(inMs, diskTar) },
      { metric: 'extension path: main-thread CPU time', unit: 'ms', ...spreadOf(inproc.map((r) => r.mainCpuMs)) },
      { metric: 'extension path: longest main-thread stall (highest run)', unit: 'ms', ours: Math.max(...inproc.map((r) => r.stallMs)) },
    );
    notes.push(
      `Extension path: extractBundle() with the default caps (100,000 entries, 4096 MiB, 100:1 after 64 MiB) in a child Node process, on disk, timed inside it around the call (Node start and module loading not counted): ${list(inMs)} ms; peak RSS (VmHWM) ${list(inproc.map((r) => r.rssPeakKb / 1024))} MiB. Its main thread (the extension host's, in the editor) used ${list(inproc.map((r) => r.mainCpuMs))} ms of CPU (/proc, 10 ms ticks) and went at most ${list(inproc.map((r) => r.stallMs))} ms without turning its event loop (monitorEventLoopDelay; on a loaded machine mostly the wait for a core).`,
    );
    if (options.quick) notes.push('Quick mode: 200 files take a few milliseconds, so Node start and the worker thread dominate and the ratios say little; the full run is the measurement.');
    for (const m of measures) if (m.pass === false) notes.push(`Goal missed: ${m.metric}: ${m.ratio === undefined ? m.ours.toFixed(0) : `${m.ratio.toFixed(2)}x`} (goal ${m.goal ?? ''}).`);
    return { name: 'extract', measures, notes };
  } finally {
    rmSync(disk, { recursive: true, force: true });
    if (ram !== undefined) rmSync(ram, { recursive: true, force: true });
  }
};
