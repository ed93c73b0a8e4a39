/**
 * Download: a 1 GiB bundle (quick: 8 MiB) from the simulator's object storage over loopback,
 * into the OS temp folder (a disk, not a RAM disk), three ways in each round, the order turning:
 *
 * - the CLI as a user runs it, a whole process: `node dist/cli.js export download <job> --out
 *   <file>` (Node's start, module loading, the link from the API, the download, the archive
 *   check and the rename all counted), with the default settings (4 connections from 64 MiB);
 * - curl, a whole process: `curl -s -o <file> <link>` on a link of the same job, one connection;
 * - the extension's path in-process: `downloadBundle()` in a child Node process, timed inside
 *   it around the call (what the extension host does after its modules are loaded), against
 *   curl's own transfer time (`%{time_total}`) in the same round.
 *
 * Whole-process wall time from spawn to exit; CPU time and peak RSS of the whole process from
 * GNU time. Ratios are the median of each round's ratio (ours against the curl run of the same
 * round, which saw the same load), with the lowest and highest.
 *
 * Then a store that caps each connection (25 MiB/s) and answers each request 20 ms late (a TCP
 * relay in front of the storage, which the simulator's links then name): the CLI with its 4
 * connections against curl's one, on a 256 MiB bundle (quick: 64 MiB at 100 MiB/s).
 *
 * The dropped connection: a TCP relay in front of the storage closes the first connection once
 * half of what it was asked for has passed, and counts every body byte it passes on in all
 * requests: what the downloader really received, against the bundle's size. (The simulator's
 * `truncate` fault cannot stand in for it at this size: it queues the half in one write and
 * destroys the socket on the next tick, so the drop happens near 0 %, not at 50 %.)
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Bundle } from '../src/core/api/types';
import { PARALLEL_FROM_BYTES } from '../src/core/bundle/download/options';
import { splitRanges } from '../src/core/bundle/download/ranged';
import { BundleLinks } from '../src/core/bundle/links/linkCache';
import { Simulator } from '../test/simulator';
import { rawTar } from '../test/unit/support/archives';
import { CLI, cliEnv, interleaved, settleDisk, timedProcess } from './proc';
import { cappedRelay, droppingRelay } from './relays';
import { median, pairedRatio, PROC_STATUS_KB, spreadOf, type Bench, type Measure } from './types';
import { AdminApiClient } from '../src/core/api/client';

const MiB = 1024 ** 2;
/** The transpiled core, beside this file's own transpiled copy (out/bench -> out/src). */
const CORE = resolve(__dirname, '..', 'src', 'core');
const CHILD_ENV = 'DOCS_ADMIN_BENCH_DOWNLOAD';

interface ChildConfig {
  modules: { download: string; client: string; linkCache: string };
  baseUrl: string;
  projectId: string;
  key: string;
  jobId: string;
  bundle: Bundle;
  target: string;
}

interface ChildReport {
  ms: number;
  bytes: number;
  requests: number;
  resumes: number;
  restarts: number;
  cpuMs: number;
  rssStartKb: number;
  rssPeakKb: number;
}

/**
 * The child: loads the core, then downloads once with what the extension passes (a known link,
 * regeneration through the API, the link cache's clock), no verification, and prints a report.
 */
const CHILD_SCRIPT = String.raw`
const { readFileSync } = require('node:fs');
const cfg = JSON.parse(process.env.${CHILD_ENV});
const { downloadBundle } = require(cfg.modules.download);
const { AdminApiClient } = require(cfg.modules.client);
const { BundleLinks } = require(cfg.modules.linkCache);
${PROC_STATUS_KB}
(async () => {
  const client = new AdminApiClient({ baseUrl: cfg.baseUrl, projectId: cfg.projectId, getKey: () => cfg.key });
  const links = new BundleLinks((jobId, options) => client.generateBundle(jobId, options));
  const known = { bundle: cfg.bundle, receivedAt: Date.now() };
  const rssStartKb = kb('VmRSS');
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const result = await downloadBundle({
    target: cfg.target,
    link: async () => known,
    regenerate: () => links.regenerate(cfg.jobId),
    timeLeft: (link) => links.timeLeft(link),
    verify: undefined,
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = process.cpuUsage(cpu0);
  const rssPeakKb = kb('VmHWM');
  await client.close();
  process.stdout.write(JSON.stringify({ ms, bytes: result.bytes, requests: result.requests, resumes: result.resumes, restarts: result.restarts, cpuMs: (cpu.user + cpu.system) / 1000, rssStartKb, rssPeakKb }));
})().catch((error) => {
  process.stderr.write(String(error && error.stack || error));
  process.exit(1);
});
`;

async function ours(config: ChildConfig): Promise<ChildReport> {
  const { stdout } = await timedProcess(process.execPath, ['-e', CHILD_SCRIPT], { ...process.env, [CHILD_ENV]: JSON.stringify(config) });
  return JSON.parse(stdout) as ChildReport;
}

/** curl, a whole process; and its own transfer time, from `-w %{time_total}` (seconds). */
async function curl(link: string, target: string): Promise<{ ms: number; transferMs: number; cpuMs: number; peakKb: number }> {
  const run = await timedProcess('curl', ['-s', '-o', target, '-w', '%{time_total}', link]);
  const seconds = Number(run.stdout.trim());
  return { ms: run.ms, transferMs: Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : run.ms, cpuMs: run.cpuMs, peakKb: run.peakKb };
}

function sizeOf(path: string): number {
  return statSync(path).size;
}

function mibPerSecond(bytes: number, ms: number): number {
  return bytes / MiB / (ms / 1000);
}

const list = (values: readonly number[], f: (v: number) => string) => values.map(f).join(', ');

/**
 * A bundle of `size` bytes whose start is a real tar.gz (so the CLI's archive check passes: it
 * reads the first header), the rest a 1 MiB random block repeated (nothing compresses).
 */
function bundleOf(size: number): Buffer {
  const content = Buffer.alloc(size, randomBytes(MiB));
  // Longer than the 64 KiB the check reads, so that it reads one whole gzip member.
  gzipSync(rawTar([{ name: 'index.bin', data: randomBytes(256 * 1024) }])).copy(content, 0);
  return content;
}

export const download: Bench = async (options) => {
  const size = options.quick ? 8 * MiB : 1024 * MiB;
  // Single 1 GiB transfers on a shared machine swing 2-3x either way for curl and for us alike,
  // so the ratio needs more rounds than the other benchmarks to settle.
  const rounds = options.quick ? 1 : Math.max(9, options.runs);
  const notes: string[] = [];
  if (spawnSync('which', ['curl'], { encoding: 'utf8' }).status !== 0) {
    return { name: 'download', measures: [], notes: ['curl is not installed: the download benchmark, measured against it, did not run.'] };
  }

  options.log(`download: building a ${size / MiB} MiB bundle`);
  const content = bundleOf(size);
  const dir = mkdtempSync(join(tmpdir(), 'docs-admin-bench-download-'));
  const sim = await Simulator.start({ linkTtlSeconds: 3600 });
  const client = new AdminApiClient({ baseUrl: sim.baseUrl, projectId: sim.projectId, getKey: () => sim.key });
  try {
    sim.setBundleContent(content);
    const jobId = String(sim.addExportJob({ queuedMs: 0, durationMs: 0, createdAt: sim.now() - 60_000 }).jobId);
    const links = new BundleLinks((id, callOptions) => client.generateBundle(id, callOptions));
    const link = await links.regenerate(jobId);
    const config = (target: string, bundle: Bundle = link.bundle): ChildConfig => ({
      modules: { download: join(CORE, 'bundle', 'download', 'download.js'), client: join(CORE, 'api', 'client.js'), linkCache: join(CORE, 'bundle', 'links', 'linkCache.js') },
      baseUrl: sim.baseUrl,
      projectId: sim.projectId,
      key: sim.key,
      jobId,
      bundle,
      target,
    });
    /** The size the store serves now. */
    let expected = size;
    const cliDownload = async (target: string) => {
      const run = await timedProcess(process.execPath, [CLI, 'export', 'download', jobId, '--out', target], cliEnv(sim));
      if (sizeOf(target) !== expected) throw new Error(`the CLI saved ${sizeOf(target)} bytes of ${expected}`);
      rmSync(target, { force: true });
      settleDisk();
      return run;
    };

    const cli = { ms: [] as number[], cpuMs: [] as number[], peakKb: [] as number[] };
    const base = { ms: [] as number[], transferMs: [] as number[], cpuMs: [] as number[], peakKb: [] as number[] };
    const inproc = { ms: [] as number[], cpuMs: [] as number[], growthKb: [] as number[], peakKb: [] as number[] };
    let counted = false;
    const steps = [
      async (round: number) => {
        const run = await cliDownload(join(dir, `cli-${round}.tar.gz`));
        if (!counted) return;
        cli.ms.push(run.ms);
        cli.cpuMs.push(run.cpuMs);
        cli.peakKb.push(run.peakKb);
        options.log(`download: CLI (whole process) ${mibPerSecond(size, run.ms).toFixed(0)} MiB/s, CPU ${run.cpuMs.toFixed(0)} ms, peak RSS ${(run.peakKb / 1024).toFixed(0)} MiB`);
      },
      async (round: number) => {
        const target = join(dir, `curl-${round}.tar.gz`);
        const run = await curl(link.bundle.bundleUrl, target);
        if (sizeOf(target) !== size) throw new Error(`curl saved ${sizeOf(target)} bytes of ${size}`);
        rmSync(target, { force: true });
        settleDisk();
        if (!counted) return;
        base.ms.push(run.ms);
        base.transferMs.push(run.transferMs);
        base.cpuMs.push(run.cpuMs);
        base.peakKb.push(run.peakKb);
        options.log(`download: curl (whole process) ${mibPerSecond(size, run.ms).toFixed(0)} MiB/s, CPU ${run.cpuMs.toFixed(0)} ms`);
      },
      async (round: number) => {
        const target = join(dir, `inproc-${round}.tar.gz`);
        const report = await ours(config(target));
        if (report.bytes !== size || sizeOf(target) !== size) throw new Error(`our download saved ${sizeOf(target)} bytes of ${size}`);
        rmSync(target, { force: true });
        settleDisk();
        if (!counted) return;
        inproc.ms.push(report.ms);
        inproc.cpuMs.push(report.cpuMs);
        inproc.growthKb.push(report.rssPeakKb - report.rssStartKb);
        inproc.peakKb.push(report.rssPeakKb);
        options.log(`download: in-process ${mibPerSecond(size, report.ms).toFixed(0)} MiB/s, CPU ${report.cpuMs.toFixed(0)} ms, RSS ${(report.rssStartKb / 1024).toFixed(0)} -> peak ${(report.rssPeakKb / 1024).toFixed(0)} MiB`);
      },
    ];
    // One unmeasured round first in full mode: the first 1 GiB written pays for page-cache growth.
    if (!options.quick) {
      options.log('download: warm-up round (not measured)');
      await interleaved(1, steps);
    }
    counted = true;
    await interleaved(rounds, steps);

    // A connection dropped half-way through what it asked for.
    const firstAsk = size >= PARALLEL_FROM_BYTES ? (splitRanges(size, 4)[0]?.end ?? size - 1) + 1 : size;
    const half = Math.floor(firstAsk / 2);
    const relay = await droppingRelay(new URL(sim.storageBaseUrl), half);
    let drop: ChildReport;
    let sentBytes: number;
    let gets: number;
    try {
      sim.clearRequests();
      const dropTarget = join(dir, 'ours-drop.tar.gz');
      drop = await ours(config(dropTarget, { ...link.bundle, bundleUrl: relay.via(link.bundle.bundleUrl) }));
      if (drop.bytes !== size || sizeOf(dropTarget) !== size) throw new Error(`after the drop our download saved ${sizeOf(dropTarget)} bytes of ${size}`);
      rmSync(dropTarget, { force: true });
      sentBytes = relay.bodyBytes;
      gets = sim.requests.filter((r) => r.origin === 'storage' && r.route === 'storage.get').length;
      options.log(`download: drop at 50 %: ${gets} GET(s) over ${relay.connections} connection(s); ${sentBytes} body bytes received for ${size}`);
    } finally {
      await relay.close();
    }
    const extraPercent = ((sentBytes - size) / size) * 100;

    // A store that caps each connection and answers late.
    const capped = { size: options.quick ? 64 * MiB : 256 * MiB, rate: (options.quick ? 100 : 25) * MiB, latencyMs: 20 };
    sim.setBundleContent(size >= capped.size ? content.subarray(0, capped.size) : bundleOf(capped.size));
    expected = capped.size;
    const slow = await cappedRelay(new URL(sim.storageBaseUrl), capped.rate, capped.latencyMs);
    const cappedCli: number[] = [];
    const cappedCurl: number[] = [];
    try {
      sim.setLinkOrigin(slow.origin);
      const slowLink = (await links.regenerate(jobId)).bundle.bundleUrl;
      await interleaved(options.quick ? 1 : 3, [
        async (round) => {
          const run = await cliDownload(join(dir, `capped-cli-${round}.tar.gz`));
          cappedCli.push(run.ms);
          options.log(`download: capped store, CLI ${mibPerSecond(capped.size, run.ms).toFixed(0)} MiB/s`);
        },
        async (round) => {
          const target = join(dir, `capped-curl-${round}.tar.gz`);
          const run = await curl(slowLink, target);
          if (sizeOf(target) !== capped.size) throw new Error(`curl saved ${sizeOf(target)} bytes of ${capped.size}`);
          rmSync(target, { force: true });
          settleDisk();
          cappedCurl.push(run.ms);
          options.log(`download: capped store, curl ${mibPerSecond(capped.size, run.ms).toFixed(0)} MiB/s`);
        },
      ]);
    } finally {
      sim.setLinkOrigin(undefined);
      await slow.close();
    }

    const gib = size / 1024 ** 3;
    const rate = (ms: number[], bytes = size) => ms.map((v) => mibPerSecond(bytes, v));
    // Throughput ratios: curl's time over ours, round by round.
    const wholeRatio = pairedRatio(base.ms, cli.ms);
    const inprocRatio = pairedRatio(base.transferMs, inproc.ms);
    const cappedRatio = pairedRatio(cappedCurl, cappedCli);
    const peak = spreadOf(cli.peakKb.map((kb) => kb / 1024));
    const growth = Math.max(...inproc.growthKb) / 1024;
    const measures: Measure[] = [
      { metric: 'CLI throughput, whole process, on disk', unit: 'MiB/s', ...spreadOf(rate(cli.ms)), baseline: median(rate(base.ms)), baselineName: 'curl, whole process', ...wholeRatio, goal: '>= 1.0x curl', pass: wholeRatio.ratio >= 1 },
      { metric: 'CLI CPU time per GiB, whole process', unit: 'ms', ...spreadOf(cli.cpuMs.map((ms) => ms / gib)), baseline: median(base.cpuMs) / gib, baselineName: 'curl', ...pairedRatio(cli.cpuMs, base.cpuMs) },
      { metric: 'CLI peak RSS, whole process', unit: 'MiB', ...peak, baseline: median(base.peakKb) / 1024, baselineName: 'curl', goal: '<= 96 MiB', pass: peak.max <= 96 },
      { metric: 'throughput, capped store (25 MiB/s per connection, 20 ms), CLI', unit: 'MiB/s', ...spreadOf(rate(cappedCli, capped.size)), baseline: median(rate(cappedCurl, capped.size)), baselineName: 'curl', ...cappedRatio, goal: '>= 3x curl', pass: cappedRatio.ratio >= 3 },
      { metric: 'extension path throughput, in-process', unit: 'MiB/s', ...spreadOf(rate(inproc.ms)), baseline: median(rate(base.transferMs)), baselineName: "curl's transfer time", ...inprocRatio },
      { metric: 'extension path RSS growth (highest run)', unit: 'MiB', ours: growth, goal: '<= 64 MiB', pass: growth <= 64 },
      { metric: 'extra bytes after a drop at 50 %', unit: '%', ours: extraPercent, goal: '<= 1 %', pass: extraPercent <= 1 },
    ];
    if (options.quick) notes.push('Quick mode: 8 MiB (one connection: below the 64 MiB threshold) takes tens of milliseconds, so process start dominates; the capped store runs at 100 MiB/s on 64 MiB. The full run is the measurement.');
    for (const m of measures) if (m.pass === false) notes.push(`Goal missed: ${m.metric}: ${m.ratio === undefined ? m.ours.toFixed(2) : `${m.ratio.toFixed(2)}x`} (goal ${m.goal ?? ''}).`);
    notes.push(
      `${size / MiB} MiB bundle (a real tar.gz head, then a 1 MiB random block repeated, so nothing compresses) served by the simulator over loopback; ${rounds} round(s)${options.quick ? '' : ' after one unmeasured round'} of CLI, curl and the in-process path, the order turning each round; files written to ${tmpdir()} (a disk), removed after each run and the disk synced (untimed).`,
      `CLI, whole process: ${list(rate(cli.ms), (v) => v.toFixed(0))} MiB/s; CPU ${list(cli.cpuMs, (v) => (v / 1000).toFixed(2))} s; peak RSS ${list(cli.peakKb, (kb) => (kb / 1024).toFixed(0))} MiB. curl, whole process: ${list(rate(base.ms), (v) => v.toFixed(0))} MiB/s; CPU ${list(base.cpuMs, (v) => (v / 1000).toFixed(2))} s; peak RSS ${list(base.peakKb, (kb) => (kb / 1024).toFixed(0))} MiB.`,
      `In-process (downloadBundle() in a child, verify off, timed around the call): ${list(rate(inproc.ms), (v) => v.toFixed(0))} MiB/s against curl's own %{time_total} ${list(rate(base.transferMs), (v) => v.toFixed(0))} MiB/s; RSS growth (VmHWM at the end minus VmRSS before the call) ${list(inproc.growthKb, (kb) => (kb / 1024).toFixed(0))} MiB.`,
      `Capped store: a relay holding each connection to ${capped.rate / MiB} MiB/s and passing each request on ${capped.latencyMs} ms late, ${capped.size / MiB} MiB: CLI ${list(rate(cappedCli, capped.size), (v) => v.toFixed(0))} MiB/s, curl ${list(rate(cappedCurl, capped.size), (v) => v.toFixed(0))} MiB/s.`,
      `Drop at 50 %: a TCP relay ended the first connection after ${half} body bytes (half its ask); the in-process downloader made ${drop.requests} request(s) (${drop.resumes} resume(s), ${drop.restarts} restart(s)); body bytes passed on in all: ${sentBytes} for ${size}.`,
    );
    return { name: 'download', measures, notes };
  } finally {
    await client.close();
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
};
