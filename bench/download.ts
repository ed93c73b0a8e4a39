/**
 * Download: a 1 GiB bundle (quick: 8 MiB) from the simulator's object storage over loopback,
 * fetched by our downloader and by `curl -s -o <file> <link>` from the same presigned link.
 *
 * Ours runs in a child Node process (the real `downloadBundle`, client and link cache from
 * out/src), so the peak RSS it reports (VmHWM) is its own and not the simulator's, which holds
 * the whole bundle in one Buffer in this process. Both tools time the transfer themselves: the
 * child around `downloadBundle()`, curl with `-w %{time_total}`; neither counts process start.
 * Runs alternate ours and curl, after an unmeasured round. The ratio is the median of each
 * pair's ratio (ours against the curl run next to it): on a shared machine the load changes from
 * one second to the next, and a pair sees the same load, where medians of each side taken
 * apart need not. CPU time too: the child's own (process.cpuUsage), curl's from `times` in the
 * shell that runs it. The simulator serves both from this process. Files go to /dev/shm when
 * there is one.
 *
 * The dropped connection: a TCP relay in front of the storage closes the first connection once
 * half the body has passed, and counts every body byte it passes on in all requests: what the
 * downloader really received, against the bundle's size. (The simulator's `truncate` fault
 * cannot stand in for it at this size: it queues the half in one write and destroys the socket
 * on the next tick, so only the few MiB the kernel took in time ever leave, and the drop
 * happens near 0 %, not at 50 %.)
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync, statSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import type { Bundle } from '../src/core/api/types';
import { BundleLinks } from '../src/core/bundle/links/linkCache';
import { Simulator } from '../test/simulator';
import { median, PROC_STATUS_KB, ratio, scratchDir, type Bench, type Measure } from './types';
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

/** Runs a command without blocking this process (the simulator serves from it meanwhile). */
function run(command: string, args: string[], env?: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string; ms: number }> {
  return new Promise((done, fail) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(command, args, { env: env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', fail);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code === 0) done({ stdout, stderr, ms });
      else fail(new Error(`${command} exited with ${code}: ${stderr.trim()}`));
    });
  });
}

async function ours(config: ChildConfig): Promise<ChildReport> {
  const { stdout } = await run(process.execPath, ['-e', CHILD_SCRIPT], { ...process.env, [CHILD_ENV]: JSON.stringify(config) });
  return JSON.parse(stdout) as ChildReport;
}

interface Relay {
  /** The link, through the relay. */
  via(link: string): string;
  /** Response body bytes passed on to the client, every connection counted. */
  readonly bodyBytes: number;
  readonly connections: number;
  close(): Promise<void>;
}

/**
 * A loopback TCP relay to the storage that ends the first connection (a FIN, as a server or
 * proxy that gives up does) once `cutAfter` body bytes have passed, and counts the body bytes
 * it passes on. The link's signature does not cover the host, so the same link works through it.
 */
async function droppingRelay(storage: URL, cutAfter: number): Promise<Relay> {
  const sockets = new Set<Socket>();
  const state = { bodyBytes: 0, connections: 0 };
  const server = createServer((client) => {
    const first = ++state.connections === 1;
    const upstream = connect(Number(storage.port), storage.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('end', () => client.end());
    client.on('drain', () => upstream.resume());
    client.pipe(upstream);
    let head = Buffer.alloc(0);
    let inBody = false;
    let passed = 0;
    upstream.on('data', (chunk: Buffer) => {
      let body = chunk;
      if (!inBody) {
        // One response per connection here: the headers end at the first blank line.
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) {
          client.write(chunk);
          return;
        }
        inBody = true;
        body = head.subarray(end + 4);
        client.write(chunk.subarray(0, chunk.length - body.length));
      }
      if (first && passed + body.length >= cutAfter) {
        const part = body.subarray(0, cutAfter - passed);
        passed += part.length;
        state.bodyBytes += part.length;
        upstream.destroy();
        client.end(part);
        return;
      }
      passed += body.length;
      state.bodyBytes += body.length;
      if (!client.write(body)) upstream.pause();
    });
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(0, storage.hostname, () => done());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    via(link) {
      const url = new URL(link);
      url.port = String(port);
      return url.href;
    },
    get bodyBytes() {
      return state.bodyBytes;
    },
    get connections() {
      return state.connections;
    },
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}

/**
 * curl's own transfer time (ms), from `-w %{time_total}` (seconds), and its CPU time from `times`
 * in the shell that ran it (its second line: the children's user and system time).
 */
async function curl(link: string, target: string): Promise<{ ms: number; cpuMs: number }> {
  const { stdout, ms } = await run('sh', ['-c', 'curl -s -o "$0" -w "%{time_total}\\n" "$1" && times', target, link]);
  const lines = stdout.trim().split('\n');
  const seconds = Number(lines[0]);
  const cpu = [...(lines.at(-1) ?? '').matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return { ms: Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : ms, cpuMs: cpu.length === 2 ? ((cpu[0] ?? 0) + (cpu[1] ?? 0)) * 1000 : NaN };
}

function spread(values: readonly number[], digits = 0): string {
  return values.length === 0 ? '' : `${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)}`;
}

/**
 * A scratch folder, in RAM (/dev/shm) when there is one: on a VM disk, write-back of earlier
 * runs makes timings drift from run to run, which measures the disk, not the tool.
 */

function sizeOf(path: string): number {
  return statSync(path).size;
}

/** The first byte a `Range: bytes=a-` header asks for; 0 without one. */
function rangeStart(header: string | undefined): number {
  const m = header === undefined ? null : /^bytes=(\d+)-/.exec(header.trim());
  return m ? Number(m[1]) : 0;
}

function mibPerSecond(bytes: number, ms: number): number {
  return bytes / MiB / (ms / 1000);
}

export const download: Bench = async (options) => {
  const size = options.quick ? 8 * MiB : 1024 * MiB;
  // Single 1 GiB transfers on this kind of shared machine swing 2-3x either way for curl and
  // for us alike (the CPU both spend per GiB swings with them), so the ratio needs more pairs
  // than the other benchmarks to settle: at least 15.
  const runs = options.quick ? 1 : Math.max(15, options.runs);
  const notes: string[] = [];
  const hasCurl = spawnSync('which', ['curl'], { encoding: 'utf8' }).status === 0;
  if (!hasCurl) notes.push('curl is not installed: the throughput baseline was skipped.');

  options.log(`download: building a ${size / MiB} MiB bundle (a 1 MiB random block, repeated)`);
  const content = Buffer.alloc(size, randomBytes(MiB));
  const dir = scratchDir('docs-admin-bench-download-');
  const sim = await Simulator.start({ linkTtlSeconds: 3600 });
  const client = new AdminApiClient({ baseUrl: sim.baseUrl, projectId: sim.projectId, getKey: () => sim.key });
  try {
    sim.setBundleContent(content);
    const job = sim.addExportJob({ queuedMs: 0, durationMs: 0, createdAt: sim.now() - 60_000 });
    const jobId = String(job.jobId);
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

    const oursMs: number[] = [];
    const cpuMs: number[] = [];
    const curlMs: number[] = [];
    const curlCpuMs: number[] = [];
    const growthKb: number[] = [];
    const peakKb: number[] = [];
    const measureOurs = async (label: string): Promise<void> => {
      const target = join(dir, `ours-${label.replace(/\W+/g, '-')}.tar.gz`);
      const report = await ours(config(target));
      if (report.bytes !== size || sizeOf(target) !== size) throw new Error(`our download saved ${sizeOf(target)} bytes of ${size}`);
      rmSync(target, { force: true });
      if (label === 'warm-up') return;
      oursMs.push(report.ms);
      cpuMs.push(report.cpuMs);
      growthKb.push(report.rssPeakKb - report.rssStartKb);
      peakKb.push(report.rssPeakKb);
      options.log(`download: ours ${label}: ${mibPerSecond(size, report.ms).toFixed(0)} MiB/s, CPU ${report.cpuMs.toFixed(0)} ms, RSS ${(report.rssStartKb / 1024).toFixed(0)} -> peak ${(report.rssPeakKb / 1024).toFixed(0)} MiB`);
    };
    const measureCurl = async (label: string): Promise<void> => {
      if (!hasCurl) return;
      const target = join(dir, `curl-${label.replace(/\W+/g, '-')}.tar.gz`);
      const { ms, cpuMs: cpu } = await curl(link.bundle.bundleUrl, target);
      if (sizeOf(target) !== size) throw new Error(`curl saved ${sizeOf(target)} bytes of ${size}`);
      rmSync(target, { force: true });
      if (label === 'warm-up') return;
      curlMs.push(ms);
      curlCpuMs.push(cpu);
      options.log(`download: curl ${label}: ${mibPerSecond(size, ms).toFixed(0)} MiB/s, CPU ${cpu.toFixed(0)} ms`);
    };

    // One unmeasured round first in full mode: the first 1 GiB written pays for page-cache growth.
    if (!options.quick) {
      options.log('download: warm-up round (not measured)');
      await measureOurs('warm-up');
      await measureCurl('warm-up');
    }
    for (let i = 0; i < runs; i++) {
      const label = `run ${i + 1}/${runs}`;
      if (i % 2 === 0) {
        await measureOurs(label);
        await measureCurl(label);
      } else {
        await measureCurl(label);
        await measureOurs(label);
      }
    }

    // A connection dropped at 50 %: every body byte the downloader received, against the size.
    const half = Math.floor(size / 2);
    const relay = await droppingRelay(new URL(sim.storageBaseUrl), half);
    let drop: ChildReport;
    let sentBytes: number;
    let keptAtDrop: number;
    try {
      sim.clearRequests();
      const dropTarget = join(dir, 'ours-drop.tar.gz');
      drop = await ours(config(dropTarget, { ...link.bundle, bundleUrl: relay.via(link.bundle.bundleUrl) }));
      if (drop.bytes !== size || sizeOf(dropTarget) !== size) throw new Error(`after the drop our download saved ${sizeOf(dropTarget)} bytes of ${size}`);
      rmSync(dropTarget, { force: true });
      sentBytes = relay.bodyBytes;
      const gets = sim.requests.filter((r) => r.origin === 'storage' && r.route === 'storage.get');
      keptAtDrop = rangeStart(gets[1]?.headers.range);
      options.log(`download: drop at 50 %: ${gets.length} GET(s) over ${relay.connections} connection(s); the second from byte ${keptAtDrop}; ${sentBytes} body bytes received for ${size}`);
    } finally {
      await relay.close();
    }
    const extraPercent = ((sentBytes - size) / size) * 100;

    const oursRate = mibPerSecond(size, median(oursMs));
    const growth = Math.max(...growthKb) / 1024;
    const gib = size / 1024 ** 3;
    const throughput: Measure = { metric: 'throughput (median)', unit: 'MiB/s', ours: oursRate };
    const cpu: Measure = { metric: 'CPU time per GiB (median)', unit: 'ms', ours: median(cpuMs) / gib };
    if (hasCurl) {
      const curlRate = mibPerSecond(size, median(curlMs));
      // Each run of ours against the curl run next to it (same load), then the median of those.
      const pairs = oursMs.map((ms, i) => (curlMs[i] ?? NaN) / ms);
      const r = median(pairs);
      Object.assign(throughput, { baseline: curlRate, baselineName: 'curl', ratio: r, goal: '>= 0.9x curl (median of pairs)', pass: r >= 0.9 });
      Object.assign(cpu, { baseline: median(curlCpuMs) / gib, baselineName: 'curl', ratio: ratio(median(cpuMs), median(curlCpuMs)) });
      notes.push(`Throughput ratio per pair (ours / the curl run beside it): ${pairs.map((p) => p.toFixed(2)).join(', ')}; median ${r.toFixed(2)}x, spread ${spread(pairs, 2)}. The medians of each side taken apart give ${ratio(oursRate, curlRate).toFixed(2)}x.`);
      if (r < 0.9) notes.push(`Throughput goal missed: the median pair ratio is ${r.toFixed(2)}x curl (ours ${oursRate.toFixed(0)} MiB/s, curl ${curlRate.toFixed(0)} MiB/s, medians).`);
    }
    if (options.quick) notes.push('Quick mode: 8 MiB takes tens of milliseconds, so connection setup and a cold JIT dominate and the throughput ratio says little; the full run is the measurement.');
    if (growth > 64) notes.push(`Memory goal missed: the downloader's RSS grew by ${growth.toFixed(1)} MiB (the highest of the runs).`);
    if (extraPercent > 1) notes.push(`Resume goal missed: a drop at 50 % cost ${extraPercent.toFixed(2)} % extra bytes (${drop.requests} request(s), ${drop.restarts} restart(s)).`);
    notes.push(
      `${size / MiB} MiB bundle (a 1 MiB random block repeated, so nothing compresses) served by the simulator over loopback; ${runs} run(s) each${options.quick ? '' : ' after one unmeasured warm-up round'}, ours and curl alternating, medians quoted; files written to ${dirname(dir)} and removed after each run.`,
      `Ours: downloadBundle() (verify off) in a child Node process, timed inside it: ${oursMs.map((ms) => `${mibPerSecond(size, ms).toFixed(0)}`).join(', ')} MiB/s, CPU ${cpuMs.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(', ')}. curl: \`curl -s -o <file> <link>\` on the same presigned link, its own %{time_total}: ${curlMs.map((ms) => `${mibPerSecond(size, ms).toFixed(0)}`).join(', ') || 'skipped'} MiB/s, CPU ${curlCpuMs.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(', ')}.`,
      `RSS growth: the child's VmHWM at the end minus its VmRSS just before the download (modules loaded); absolute peaks ${peakKb.map((kb) => (kb / 1024).toFixed(0)).join(', ')} MiB.`,
      `Drop at 50 %: a TCP relay in front of the storage ended the first connection after ${half} body bytes; the downloader made ${drop.requests} request(s) (${drop.resumes} resume(s), ${drop.restarts} restart(s)), the second asking from byte ${keptAtDrop}; body bytes the relay passed on in all: ${sentBytes} for ${size}.`,
    );
    return {
      name: 'download',
      measures: [
        throughput,
        cpu,
        { metric: 'peak RSS growth (highest run)', unit: 'MiB', ours: growth, goal: '<= 64 MiB', pass: growth <= 64 },
        { metric: 'extra bytes after a drop at 50 %', unit: '%', ours: extraPercent, goal: '<= 1 %', pass: extraPercent <= 1 },
      ],
      notes,
    };
  } finally {
    await client.close();
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
};
