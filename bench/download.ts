/**
 * Download: real tar.gz bundles of 512 MiB and 1 GiB (quick: 8 MiB; bundles.ts), from the
 * simulator's object storage over loopback, plain http and https (its storage over TLS, a test
 * CA), into the OS temp folder (a disk). Each round, interleaved, the order turning:
 *
 * - the CLI as a user runs it, a whole process: `node dist/cli.js export download <job> --out
 *   <file>` (`--ca-file` for https): Node's start, the link from the API, the download with the
 *   default 4 connections from 64 MiB, the archive read through to its end (the check that
 *   makes "Saved" true), and the rename, all counted;
 * - curl, a whole process: `curl -s -o <file> <link>` (`--cacert` for https) on a link of the
 *   same job, one connection, nothing checked.
 *
 * Whole-process wall time from spawn to exit; CPU time and peak RSS of the whole process from GNU
 * time. Ratios: ours / curl's of the same round, quoted as the lowest, median and highest.
 *
 * Then, over https: a store that caps each connection (25 MiB/s, each request 20 ms late; a
 * TCP relay in front of the storage) on 256 MiB, the CLI's 4 connections against curl's one; a
 * store that is the limit (one connection each, 100 MiB/s, 20 ms; 512 MiB), where the proof
 * must add nothing to the wall time (it follows the bytes on its own thread);
 * a relay that ends the CLI's first connection half-way through what it asked for, counting
 * every byte it passes on (ciphertext: TLS records and heads included); and the editor's own
 * download in a VS Code extension host (host/download.ts), its wall time against curl's spawned
 * from the same host, its CPU time and its peak RSS, from a store on this machine's outside
 * address (so the request goes through VS Code's patched https, as a real link's does).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PARALLEL_FROM_BYTES } from '../src/core/bundle/download/options';
import { splitRanges } from '../src/core/bundle/download/ranged';
import { BundleLinks } from '../src/core/bundle/links/linkCache';
import { AdminApiClient } from '../src/core/api/client';
import { Network } from '../src/core/net/network';
import { REPO, runSuite } from '../test/host/suite';
import { Simulator } from '../test/simulator';
import { makeTestCertificates, type TestCertificates } from '../test/support/certificates';
import { nonLoopbackAddress } from '../test/support/proxy';
import { siteBundle } from './bundles';
import type { HostDownloadJob, HostDownloadRound, MemorySample } from './host/download';
import { CLI, cliEnv, interleaved, settleDisk, timedProcess, type ProcessRun } from './proc';
import { cappedRelay, droppingRelay } from './relays';
import { median, pairedRatio, spreadOf, type Bench, type BenchOptions, type Measure } from './types';

const MiB = 1024 ** 2;
type Scheme = 'http' | 'https';

const load = () => loadavg().map((v) => v.toFixed(2)).join(' ');
const list = (values: readonly number[], f: (v: number) => string) => values.map(f).join(', ');
const rate = (bytes: number, ms: number) => bytes / MiB / (ms / 1000);

/** A simulator serving `content`, its storage over TLS for https; a completed job, and a link of it for curl. */
async function store(scheme: Scheme, content: Buffer, pki: TestCertificates, host = '127.0.0.1') {
  const tls = { key: pki.key, cert: pki.cert };
  const sim = await Simulator.start({ host, linkTtlSeconds: 3600, ...(scheme === 'https' ? (host === '127.0.0.1' ? { storageTls: tls } : { tls }) : {}) });
  sim.setBundleContent(content);
  const jobId = String(sim.addExportJob({ queuedMs: 0, durationMs: 0, createdAt: sim.now() - 60_000 }).jobId);
  const client = new AdminApiClient({ baseUrl: sim.baseUrl, projectId: sim.projectId, getKey: () => sim.key, network: new Network({ extraCa: [pki.caCert] }, { env: {} }) });
  const links = new BundleLinks((id, o) => client.generateBundle(id, o));
  const link = (await links.regenerate(jobId)).bundle.bundleUrl;
  return { sim, jobId, link, links, close: async () => Promise.all([client.close(), sim.stop()]) };
}

interface Pairs {
  ours: ProcessRun[];
  curl: ProcessRun[];
}

/** CLI and curl, whole processes, `rounds` interleaved rounds after an unmeasured one. */
async function pairs(o: BenchOptions, scheme: Scheme, content: Buffer, pki: TestCertificates, dir: string, rounds: number): Promise<Pairs & { loads: string[] }> {
  const s = await store(scheme, content, pki);
  const ca = scheme === 'https' ? ['--ca-file', pki.caFile] : [];
  const cacert = scheme === 'https' ? ['--cacert', pki.caFile] : [];
  const got: Pairs = { ours: [], curl: [] };
  const loads = [load()];
  let counted = false;
  const mib = content.length / MiB;
  try {
    const steps = [
      async (round: number) => {
        const target = join(dir, `cli-${scheme}-${round}.tar.gz`);
        const run = await timedProcess(process.execPath, [CLI, 'export', 'download', s.jobId, '--out', target, ...ca], cliEnv(s.sim));
        if (statSync(target).size !== content.length) throw new Error(`the CLI saved ${statSync(target).size} bytes of ${content.length}`);
        rmSync(target, { force: true });
        settleDisk();
        if (!counted) return;
        got.ours.push(run);
        o.log(`download ${scheme} ${mib.toFixed(0)} MiB: CLI ${rate(content.length, run.ms).toFixed(0)} MiB/s, ${run.ms.toFixed(0)} ms, CPU ${run.cpuMs.toFixed(0)} ms, peak RSS ${(run.peakKb / 1024).toFixed(0)} MiB`);
      },
      async (round: number) => {
        const target = join(dir, `curl-${scheme}-${round}.tar.gz`);
        const run = await timedProcess('curl', ['-s', '-f', ...cacert, '-o', target, s.link]);
        if (statSync(target).size !== content.length) throw new Error(`curl saved ${statSync(target).size} bytes of ${content.length}`);
        rmSync(target, { force: true });
        settleDisk();
        if (!counted) return;
        got.curl.push(run);
        o.log(`download ${scheme} ${mib.toFixed(0)} MiB: curl ${rate(content.length, run.ms).toFixed(0)} MiB/s, ${run.ms.toFixed(0)} ms, CPU ${run.cpuMs.toFixed(0)} ms`);
      },
    ];
    if (!o.quick) await interleaved(1, steps);
    counted = true;
    await interleaved(rounds, steps);
  } finally {
    await s.close();
  }
  loads.push(load());
  return { ...got, loads };
}

/** The rows of one size and scheme: wall time, CPU and peak RSS against curl's. */
function rows(label: string, bytes: number, p: Pairs): Measure[] {
  const ms = p.ours.map((r) => r.ms);
  const curlMs = p.curl.map((r) => r.ms);
  const cpu = p.ours.map((r) => r.cpuMs);
  const curlCpu = p.curl.map((r) => r.cpuMs);
  const wall = pairedRatio(ms, curlMs);
  const cpuRatio = pairedRatio(cpu, curlCpu);
  const peak = spreadOf(p.ours.map((r) => r.peakKb / 1024));
  return [
    { metric: `${label}: CLI wall time, whole process`, unit: 'ms', ...spreadOf(ms), baseline: median(curlMs), baselineName: 'curl -o, whole process', ...wall, goal: '<= 1.5x curl', pass: wall.ratio <= 1.5 },
    { metric: `${label}: CLI CPU time, whole process`, unit: 'ms', ...spreadOf(cpu), baseline: median(curlCpu), baselineName: 'curl', ...cpuRatio, goal: '<= 2.5x curl', pass: cpuRatio.ratio <= 2.5 },
    { metric: `${label}: CLI peak RSS, whole process`, unit: 'MiB', ...peak, baseline: median(p.curl.map((r) => r.peakKb / 1024)), baselineName: 'curl', goal: '<= 96 MiB', pass: peak.max <= 96 },
  ];
}

export const download: Bench = async (options) => {
  const notes: string[] = [];
  if (spawnSync('which', ['curl'], { encoding: 'utf8' }).status !== 0) {
    return { name: 'download', measures: [], notes: ['curl is not installed: the download benchmark, measured against it, did not run.'] };
  }
  const sizes = options.quick ? [8 * MiB] : [512 * MiB, 1024 * MiB];
  const rounds = options.quick ? 1 : Math.max(9, options.runs);
  const pki = makeTestCertificates();
  const dir = mkdtempSync(join(tmpdir(), 'docs-admin-bench-download-'));
  const measures: Measure[] = [];
  try {
    notes.push(`Machine load (1, 5, 15 min) at the start: ${load()}.`);
    let largest: Buffer = Buffer.alloc(0);
    for (const size of sizes) {
      options.log(`download: building a ${size / MiB} MiB tar.gz`);
      const content = await siteBundle(size);
      largest = content;
      for (const scheme of ['http', 'https'] as const) {
        const label = `${scheme} ${(size / MiB).toFixed(0)} MiB`;
        const p = await pairs(options, scheme, content, pki, dir, rounds);
        measures.push(...rows(label, content.length, p));
        const ratios = p.ours.map((r, i) => r.ms / (p.curl[i]?.ms ?? NaN));
        notes.push(
          `${label} (${content.length} bytes), ${rounds} pairs, load ${p.loads.join(' -> ')}: CLI ${list(p.ours.map((r) => r.ms), (v) => v.toFixed(0))} ms, CPU ${list(p.ours.map((r) => r.cpuMs), (v) => v.toFixed(0))} ms, peak RSS ${list(p.ours.map((r) => r.peakKb / 1024), (v) => v.toFixed(0))} MiB; curl ${list(p.curl.map((r) => r.ms), (v) => v.toFixed(0))} ms, CPU ${list(p.curl.map((r) => r.cpuMs), (v) => v.toFixed(0))} ms; wall-time ratio per pair ${list(ratios, (v) => v.toFixed(2))}.`,
        );
      }
    }
    measures.push(...(await dropAndCap(options, largest, pki, dir, notes)));
    measures.push(...(await storeIsTheLimit(options, pki, dir, notes)));
    measures.push(...(await inTheEditor(options, largest, pki, dir, notes)));
    notes.push(`Machine load at the end: ${load()}.`);
    if (options.quick) notes.push('Quick mode: 8 MiB (one connection: below the 64 MiB threshold) takes tens of milliseconds, so process start dominates; the capped store runs at 100 MiB/s on 64 MiB. The full run is the measurement.');
    for (const m of measures) if (m.pass === false) notes.push(`Goal missed: ${m.metric}: ${m.ratio === undefined ? m.ours.toFixed(2) : `${m.ratio.toFixed(2)}x (pairs ${m.ratioMin?.toFixed(2)}-${m.ratioMax?.toFixed(2)})`} (goal ${m.goal ?? ''}).`);
    return { name: 'download', measures, notes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    pki.remove();
  }
};

/** Over https: the dropped connection, then the capped store. */
async function dropAndCap(options: BenchOptions, content: Buffer, pki: TestCertificates, dir: string, notes: string[]): Promise<Measure[]> {
  const size = content.length;
  const firstAsk = size >= PARALLEL_FROM_BYTES ? (splitRanges(size, 4)[0]?.end ?? size - 1) + 1 : size;
  const half = Math.floor(firstAsk / 2);
  const s = await store('https', content, pki);
  const ca = ['--ca-file', pki.caFile];
  try {
    const relay = await droppingRelay(new URL(s.sim.storageBaseUrl), half);
    let passed: number;
    try {
      s.sim.setLinkOrigin(relay.origin);
      const target = join(dir, 'drop.tar.gz');
      const run = await timedProcess(process.execPath, [CLI, 'export', 'download', s.jobId, '--out', target, '--verbose', ...ca], cliEnv(s.sim));
      if (statSync(target).size !== size) throw new Error(`after the drop the CLI saved ${statSync(target).size} bytes of ${size}`);
      rmSync(target, { force: true });
      passed = relay.bodyBytes;
      const gets = s.sim.requests.filter((r) => r.route === 'storage.get').length;
      notes.push(`Drop at 50 % (https): a relay ended the CLI's first connection after ${half} bytes (half of its range); ${gets} GETs over ${relay.connections} connections; bytes passed on in all, TLS records, heads and handshakes included: ${passed} for ${size}; the CLI said: ${run.stderr.split('\n').filter((l) => /resume|dropped|ended/.test(l)).join(' / ').slice(0, 300)}`);
    } finally {
      s.sim.setLinkOrigin(undefined);
      await relay.close();
    }
    const extra = ((passed - size) / size) * 100;

    const capped = { size: options.quick ? 64 * MiB : 256 * MiB, rate: (options.quick ? 100 : 25) * MiB, latencyMs: 20 };
    s.sim.setBundleContent(await siteBundle(capped.size));
    const slow = await cappedRelay(new URL(s.sim.storageBaseUrl), capped.rate, capped.latencyMs);
    const cli: number[] = [];
    const curl: number[] = [];
    const storeSide: { cpuMs: number; cliCpuMs: number; ms: number }[] = [];
    let cappedSize = 0;
    try {
      s.sim.setLinkOrigin(slow.origin);
      const link = (await s.links.regenerate(s.jobId)).bundle;
      cappedSize = link.sizeBytes ?? 0;
      await interleaved(options.quick ? 1 : 3, [
        async (round) => {
          const target = join(dir, `capped-cli-${round}.tar.gz`);
          // The store's side (the simulator's TLS and the relay) runs in this process: its CPU beside the CLI's says which side was the limit.
          const storeCpu = process.cpuUsage();
          const run = await timedProcess(process.execPath, [CLI, 'export', 'download', s.jobId, '--out', target, ...ca], cliEnv(s.sim));
          const served = process.cpuUsage(storeCpu);
          storeSide.push({ cpuMs: (served.user + served.system) / 1000, cliCpuMs: run.cpuMs, ms: run.ms });
          rmSync(target, { force: true });
          settleDisk();
          cli.push(run.ms);
          options.log(`download: capped store, CLI ${rate(cappedSize, run.ms).toFixed(0)} MiB/s`);
        },
        async (round) => {
          const target = join(dir, `capped-curl-${round}.tar.gz`);
          const run = await timedProcess('curl', ['-s', '-f', '--cacert', pki.caFile, '-o', target, link.bundleUrl]);
          if (statSync(target).size !== cappedSize) throw new Error(`curl saved ${statSync(target).size} bytes of ${cappedSize}`);
          rmSync(target, { force: true });
          settleDisk();
          curl.push(run.ms);
          options.log(`download: capped store, curl ${rate(cappedSize, run.ms).toFixed(0)} MiB/s`);
        },
      ]);
    } finally {
      s.sim.setLinkOrigin(undefined);
      await slow.close();
    }
    const speedup = pairedRatio(curl, cli);
    notes.push(`Capped store (https): a relay holding each connection to ${capped.rate / MiB} MiB/s and passing each request on ${capped.latencyMs} ms late, ${(cappedSize / MiB).toFixed(0)} MiB: CLI ${list(cli, (v) => rate(cappedSize, v).toFixed(1))} MiB/s, curl ${list(curl, (v) => rate(cappedSize, v).toFixed(1))} MiB/s.`);
    notes.push(
      `Capped store, where the CPU went in each CLI round (2 cores): the CLI ${storeSide.map((r) => `${(r.cliCpuMs / 1000).toFixed(2)} s`).join(', ')}; the store's side (the simulator's TLS and the relay, one thread of the benchmark's process) ${storeSide.map((r) => `${(r.cpuMs / 1000).toFixed(2)} s (${((100 * r.cpuMs) / r.ms).toFixed(0)} % of the wall time)`).join(', ')}.`,
    );
    return [
      { metric: 'https, capped store (25 MiB/s per connection, 20 ms per request): CLI throughput', unit: 'MiB/s', ...spreadOf(cli.map((v) => rate(cappedSize, v))), baseline: median(curl.map((v) => rate(cappedSize, v))), baselineName: 'curl, one connection', ...speedup, goal: '>= 3x curl', pass: speedup.ratio >= 3 },
      { metric: 'https, bytes passed on beyond the bundle after a drop at 50 % (TLS records and handshakes included)', unit: '%', ours: extra, goal: '<= 1 %', pass: extra <= 1 },
    ];
  } finally {
    await s.close();
  }
}

/**
 * Over https, a store that is the limit: one connection each (the CLI with --connections 1, as
 * curl), each held to 100 MiB/s with every request 20 ms late. The network sets the pace, so
 * the archive check, following the bytes on its own thread, must finish with them: the CLI's
 * wall time <= 1.05x curl's.
 */
async function storeIsTheLimit(options: BenchOptions, pki: TestCertificates, dir: string, notes: string[]): Promise<Measure[]> {
  const limit = { size: options.quick ? 16 * MiB : 512 * MiB, rate: 100 * MiB, latencyMs: 20 };
  const content = await siteBundle(limit.size);
  const s = await store('https', content, pki);
  const relay = await cappedRelay(new URL(s.sim.storageBaseUrl), limit.rate, limit.latencyMs);
  const cli: ProcessRun[] = [];
  const curl: ProcessRun[] = [];
  const before = load();
  try {
    s.sim.setLinkOrigin(relay.origin);
    const link = (await s.links.regenerate(s.jobId)).bundle.bundleUrl;
    await interleaved(options.quick ? 1 : 3, [
      async (round) => {
        const target = join(dir, `limit-cli-${round}.tar.gz`);
        const run = await timedProcess(process.execPath, [CLI, 'export', 'download', s.jobId, '--out', target, '--connections', '1', '--ca-file', pki.caFile], cliEnv(s.sim));
        if (statSync(target).size !== content.length) throw new Error(`the CLI saved ${statSync(target).size} bytes of ${content.length}`);
        rmSync(target, { force: true });
        settleDisk();
        cli.push(run);
        options.log(`download: store at its limit, CLI ${rate(content.length, run.ms).toFixed(0)} MiB/s`);
      },
      async (round) => {
        const target = join(dir, `limit-curl-${round}.tar.gz`);
        const run = await timedProcess('curl', ['-s', '-f', '--cacert', pki.caFile, '-o', target, link]);
        if (statSync(target).size !== content.length) throw new Error(`curl saved ${statSync(target).size} bytes of ${content.length}`);
        rmSync(target, { force: true });
        settleDisk();
        curl.push(run);
        options.log(`download: store at its limit, curl ${rate(content.length, run.ms).toFixed(0)} MiB/s`);
      },
    ]);
  } finally {
    s.sim.setLinkOrigin(undefined);
    await relay.close();
    await s.close();
  }
  const wall = pairedRatio(cli.map((r) => r.ms), curl.map((r) => r.ms));
  notes.push(`Store at its limit (https, one connection each, ${limit.rate / MiB} MiB/s, ${limit.latencyMs} ms per request, ${(content.length / MiB).toFixed(0)} MiB), load ${before} -> ${load()}: CLI ${list(cli.map((r) => r.ms), (v) => v.toFixed(0))} ms, curl ${list(curl.map((r) => r.ms), (v) => v.toFixed(0))} ms.`);
  return [
    { metric: `https, a store at its limit (one connection, ${limit.rate / MiB} MiB/s, ${limit.latencyMs} ms per request): CLI wall time`, unit: 'ms', ...spreadOf(cli.map((r) => r.ms)), baseline: median(curl.map((r) => r.ms)), baselineName: 'curl, one connection', ...wall, goal: '<= 1.05x curl', pass: wall.ratio <= 1.05 },
  ];
}

/** The editor's Download Bundle in a VS Code extension host (code-server), against curl spawned from that host. */
async function inTheEditor(options: BenchOptions, content: Buffer, pki: TestCertificates, dir: string, notes: string[]): Promise<Measure[]> {
  let host: string;
  try {
    host = nonLoopbackAddress();
  } catch {
    notes.push('The editor measure needs an address other than loopback (so that the download goes through VS Code\'s patched https, as a real link does); this machine has none: it did not run.');
    return [];
  }
  const s = await store('https', content, pki, host);
  const out = join(dir, 'host-download.json');
  const rounds = options.quick ? 1 : 5;
  const job: HostDownloadJob = { key: s.sim.key, jobId: s.jobId, bytes: content.length, curlLink: s.link, caFile: pki.caFile, dir, rounds };
  const jobFile = join(dir, 'host-download-job.json');
  writeFileSync(jobFile, JSON.stringify(job), { mode: 0o600 });
  const before = load();
  try {
    options.log(`download: in the editor (VS Code extension host), ${rounds} rounds of ${(content.length / MiB).toFixed(0)} MiB`);
    // Its rounds print little: the window may stay silent this long before it counts as hung.
    process.env.DOCS_ADMIN_TEST_HOST_TIMEOUT_MS ??= String(900_000);
    const code = await runSuite({
      suite: resolve(REPO, 'out', 'bench', 'host', 'download.js'),
      label: 'download in the editor',
      quiet: process.env.DOCS_ADMIN_BENCH_VERBOSE === undefined,
      // The job (its link signed) in a file of the benchmark's own: what the host is given in its environment, code-server keeps in its state (coder.json), which the secrets scan reads.
      env: { DOCS_ADMIN_BENCH_OUT: out, DOCS_ADMIN_BENCH_DOWNLOAD: jobFile },
      settings: { 'docsAdmin.baseUrl': s.sim.baseUrl, 'docsAdmin.projectId': s.sim.projectId },
    });
    if (code !== 0) throw new Error(`the download in the editor failed (exit ${code})`);
  } finally {
    await s.close();
  }
  const seen = JSON.parse(readFileSync(out, 'utf8')) as { rounds: HostDownloadRound[]; node: string };
  const ms = seen.rounds.map((r) => r.ours.ms);
  const curlMs = seen.rounds.map((r) => r.curl.ms);
  const cpu = seen.rounds.map((r) => r.ours.cpuMs);
  const growth = seen.rounds.map((r) => (r.ours.peakKb - r.ours.rssBeforeKb) / 1024);
  const wall = pairedRatio(ms, curlMs);
  const cpuRatio = pairedRatio(cpu, seen.rounds.map((r) => r.curl.cpuMs));
  notes.push(
    `In the editor: Download Bundle in code-server's extension host (Node ${seen.node}), https from ${host} (not loopback: VS Code's patched https, as for a real link), ${(content.length / MiB).toFixed(0)} MiB, ${rounds} rounds after an unmeasured one, against curl spawned from the same host, load ${before} -> ${load()}: ours ${list(ms, (v) => v.toFixed(0))} ms, CPU of the extension host ${list(cpu, (v) => v.toFixed(0))} ms, RSS before ${list(seen.rounds.map((r) => r.ours.rssBeforeKb / 1024), (v) => v.toFixed(0))} MiB and peak growth ${list(growth, (v) => v.toFixed(1))} MiB; curl ${list(curlMs, (v) => v.toFixed(0))} ms.`,
  );
  const grew = (pick: (m: MemorySample) => number) => list(seen.rounds.map((r) => pick(r.ours.atPeak) - pick(r.ours.before)), (v) => v.toFixed(0));
  notes.push(
    `In the editor, what the extension host's memory grew by, at the highest RSS sampled (every 50 ms) in each round against just before it, MiB: RSS ${grew((m) => m.rss)}; V8's heap in use ${grew((m) => m.heapUsed)}; outside the heap (external) ${grew((m) => m.external)}, of it ArrayBuffers and Buffers ${grew((m) => m.arrayBuffers)}.`,
  );
  return [
    { metric: 'editor (extension host), https: Download Bundle wall time', unit: 'ms', ...spreadOf(ms), baseline: median(curlMs), baselineName: 'curl -o from the same host', ...wall },
    { metric: 'editor (extension host), https: CPU time of the extension host', unit: 'ms', ...spreadOf(cpu), baseline: median(seen.rounds.map((r) => r.curl.cpuMs)), baselineName: 'curl', ...cpuRatio },
    { metric: 'editor (extension host), https: peak RSS growth of the extension host', unit: 'MiB', ...spreadOf(growth), goal: '<= 64 MiB', pass: Math.max(...growth) <= 64 },
  ];
}
