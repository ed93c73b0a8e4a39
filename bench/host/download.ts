/**
 * The editor's download, measured where the editor runs it: loaded by the VS Code extension
 * host (code-server) as a "test suite", it runs Download Bundle on a tracked export (the
 * command, as a person's click does, with the target given from code), in rounds interleaved
 * with `curl -o` of a link of the same job, spawned from the same extension host, the order
 * turning each round. For each of ours: the wall time around the command, the extension host's
 * CPU time during it (all its threads: the archive check's worker, zlib and the file system's
 * thread pool), and its memory: the peak RSS reset just before (`/proc/self/clear_refs` 5) and
 * read just after (`VmHWM`), against the RSS before, and what that memory was: `process.memoryUsage()`
 * every 50 ms during the command, the sample of the highest RSS kept (V8's heap, and the memory
 * outside it that Buffers hold until V8 collects them). Writes what it saw to the file named by
 * DOCS_ADMIN_BENCH_OUT; the job comes in the file DOCS_ADMIN_BENCH_DOWNLOAD names. The store is the simulator's, over TLS (its CA in the settings).
 */
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { DocsAdminInternals } from '../../src/extension';
import { settleDisk, timedProcess } from '../proc';

export interface HostDownloadJob {
  key: string;
  jobId: string;
  /** The size of the bundle the store serves. */
  bytes: number;
  /** A link of the same job, for curl, and the CA file curl trusts it with. */
  curlLink: string;
  caFile: string;
  dir: string;
  rounds: number;
}

export interface HostDownloadRound {
  round: number;
  ours: { ms: number; cpuMs: number; rssBeforeKb: number; peakKb: number; before: MemorySample; atPeak: MemorySample };
  curl: { ms: number; cpuMs: number; peakKb: number };
}

/** `process.memoryUsage()` in MiB. */
export interface MemorySample {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

function memory(): MemorySample {
  const m = process.memoryUsage();
  const mib = (bytes: number) => bytes / 1024 / 1024;
  return { rss: mib(m.rss), heapUsed: mib(m.heapUsed), heapTotal: mib(m.heapTotal), external: mib(m.external), arrayBuffers: mib(m.arrayBuffers) };
}

function kb(field: string): number {
  const line = readFileSync('/proc/self/status', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return line === undefined ? NaN : Number(line.replace(/[^0-9]/g, ''));
}

async function waitFor(what: string, condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function run(): Promise<void> {
  const out = process.env.DOCS_ADMIN_BENCH_OUT;
  const jobFile = process.env.DOCS_ADMIN_BENCH_DOWNLOAD;
  if (out === undefined || jobFile === undefined) throw new Error('DOCS_ADMIN_BENCH_OUT and DOCS_ADMIN_BENCH_DOWNLOAD (the job\'s file) must be set');
  const job = JSON.parse(readFileSync(jobFile, 'utf8')) as HostDownloadJob;
  const api = await vscode.extensions.getExtension<DocsAdminInternals>('docs-admin.docs-admin')?.activate();
  if (api === undefined) throw new Error('the extension is not installed in this host');
  // The extension's own mark for options from code (a private symbol: a copy of fromCode.ts bundled here would not carry it).
  const fromCode = api.fromCode;
  // A machine setting: in this remote window it is set where the extension runs, as a person would.
  await vscode.workspace.getConfiguration('docsAdmin').update('network.extraCaCertificates', [job.caFile], vscode.ConfigurationTarget.Global);
  await waitFor('the CA in the network settings', () => /1 extra CA certificate/.test(api.session.network?.describe() ?? ''));
  if ((await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: job.key }))) !== true) throw new Error('the key was not accepted');
  await waitFor('the session', () => api.session.state === 'ok' && api.session.service !== undefined);
  // The views show the jobs, and ask for them only once they are visible.
  await vscode.commands.executeCommand('workbench.view.extension.docsAdmin');
  await api.session.service?.trackExportJob(job.jobId);
  const row = () => api.exportTree.getChildren().find((n) => n.key === `export:${job.jobId}`);
  await waitFor('the completed row', () => {
    const found = row();
    return found !== undefined && String(api.exportTree.getTreeItem(found).description).startsWith('completed');
  });
  const rounds: HostDownloadRound[] = [];
  const ours = async (target: string): Promise<HostDownloadRound['ours']> => {
    // Resets the peak RSS to what the process holds now.
    writeFileSync('/proc/self/clear_refs', '5');
    const rssBeforeKb = kb('VmRSS');
    const before = memory();
    let atPeak = before;
    const sampler = setInterval(() => {
      const now = memory();
      if (now.rss > atPeak.rss) atPeak = now;
    }, 50);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const result = await Promise.resolve(vscode.commands.executeCommand<{ bytes: number } | undefined>('docsAdmin.export.downloadBundle', row(), fromCode({ target, replace: true }))).finally(() => clearInterval(sampler));
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const peakKb = kb('VmHWM');
    if (result?.bytes !== job.bytes || statSync(target).size !== job.bytes) throw new Error(`Download Bundle saved ${result?.bytes ?? 'nothing'} of ${job.bytes} bytes`);
    return { ms, cpuMs: (cpu.user + cpu.system) / 1000, rssBeforeKb, peakKb, before, atPeak };
  };
  const curl = async (target: string): Promise<HostDownloadRound['curl']> => {
    const run = await timedProcess('curl', ['-s', '-f', '--cacert', job.caFile, '-o', target, job.curlLink]);
    if (statSync(target).size !== job.bytes) throw new Error(`curl saved ${statSync(target).size} of ${job.bytes} bytes`);
    return { ms: run.ms, cpuMs: run.cpuMs, peakKb: run.peakKb };
  };
  // One round unmeasured: the first GiB written pays for the page cache's growth, and the first download loads its modules.
  for (let round = -1; round < job.rounds; round++) {
    const mine = join(job.dir, `editor-${round}.tar.gz`);
    const theirs = join(job.dir, `curl-${round}.tar.gz`);
    let a: HostDownloadRound['ours'] | undefined;
    let b: HostDownloadRound['curl'] | undefined;
    for (const step of round % 2 === 0 ? ['ours', 'curl'] : ['curl', 'ours']) {
      if (step === 'ours') a = await ours(mine);
      else b = await curl(theirs);
      rmSync(step === 'ours' ? mine : theirs, { force: true });
      settleDisk();
    }
    if (round >= 0 && a !== undefined && b !== undefined) rounds.push({ round, ours: a, curl: b });
  }
  writeFileSync(out, JSON.stringify({ rounds, pid: process.pid, node: process.version }));
}
