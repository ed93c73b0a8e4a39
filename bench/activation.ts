/**
 * Activation and size: `activate()` in the real extension host (a fresh code-server per run, so
 * every activation is a first one: module load included), the requests the API saw while it
 * ran, and the sizes of the production `dist/extension.js` and the .vsix.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from '../test/host/browser';
import { REPO, runSuite } from '../test/host/suite';
import { Simulator } from '../test/simulator';
import { median, type Bench, type Measure } from './types';

export const activation: Bench = async (options) => {
  const notes: string[] = [];
  const build = spawnSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: REPO, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`production build failed: ${build.stderr}`);
  const dir = mkdtempSync(join(tmpdir(), 'docs-admin-bench-activation-'));
  const vsix = join(dir, 'docs-admin.vsix');
  const vsce = spawnSync(process.execPath, [resolve(REPO, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '--out', vsix], { cwd: REPO, encoding: 'utf8' });
  if (vsce.status !== 0) throw new Error(`packaging failed: ${vsce.stderr}${vsce.stdout}`);
  const extensionBytes = statSync(resolve(REPO, 'dist', 'extension.js')).size;
  const vsixBytes = statSync(vsix).size;

  // DOCS_ADMIN_BENCH_PROFILE_DIR: each host also writes a CPU profile of the load and activate() there (bench/host/activation.ts); the profiler's cost is then in the times.
  const profileDir = process.env.DOCS_ADMIN_BENCH_PROFILE_DIR;
  if (profileDir !== undefined) notes.push(`Profiled (DOCS_ADMIN_BENCH_PROFILE_DIR): the times include the profiler's cost; profiles in ${profileDir}.`);
  const sim = await Simulator.start();
  const times: number[] = [];
  const calls: number[] = [];
  const loads: number[] = [];
  let requestsDuring = 0;
  const demandMeasures: Measure[] = [];
  try {
    const runs = options.quick ? 1 : Math.max(3, options.runs);
    for (let i = 0; i < runs; i++) {
      const out = join(dir, `activation-${i}.json`);
      options.log(`activation: run ${i + 1} of ${runs} (a fresh VS Code host)`);
      const code = await runSuite({
        suite: resolve(REPO, 'out', 'bench', 'host', 'activation.js'),
        label: 'activation',
        env: { DOCS_ADMIN_BENCH_OUT: out, ...(profileDir === undefined ? {} : { DOCS_ADMIN_BENCH_PROFILE: join(profileDir, `activation-${i}.cpuprofile`) }) },
        settings: { 'docsAdmin.baseUrl': sim.baseUrl, 'docsAdmin.projectId': sim.projectId },
        quiet: true,
      });
      if (code !== 0) throw new Error(`the activation run failed (exit ${code})`);
      const seen = JSON.parse(readFileSync(out, 'utf8')) as { loadMs: number; ms: number; activateMs?: number; wasActive: boolean; startedAt: number; endedAt: number };
      loads.push(seen.loadMs);
      if (seen.wasActive) notes.push(`run ${i + 1}: the extension was already active when measured`);
      times.push(seen.ms);
      if (seen.activateMs !== undefined) calls.push(seen.activateMs);
      requestsDuring += sim.requests.filter((r) => r.at >= seen.startedAt && r.at <= seen.endedAt).length;
    }
    const demand = await withKeyAndJobs(sim, dir, runs, (line) => options.log(line));
    demandMeasures.push(...demand.measures);
    notes.push(...demand.notes);
  } finally {
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const ms = median(calls);
  const total = median(times);
  const load = median(loads);
  notes.push(
    `${times.length} fresh host(s). activate() itself: ${calls.map((t) => t.toFixed(1)).join(', ')} ms. Loading the ${Math.round(extensionBytes / 1024)} KB bundle: ${loads.map((t) => t.toFixed(1)).join(', ')} ms. VS Code's Extension.activate() around the call (the bundle already loaded): ${times.map((t) => t.toFixed(1)).join(', ')} ms.`,
    'No file scan at activation by construction: the values diagnostics read only the already-open documents; the workspace is searched only when a command asks for a values file.',
  );
  return {
    name: 'activation and size',
    measures: [
      { metric: 'activate() (median)', unit: 'ms', ours: ms, goal: '<= 15 ms', pass: ms <= 15 },
      { metric: 'loading dist/extension.js (median)', unit: 'ms', ours: load },
      { metric: 'Extension.activate() in VS Code (median)', unit: 'ms', ours: total },
      { metric: 'API requests during activate()', unit: 'requests', ours: requestsDuring, goal: '0', pass: requestsDuring === 0 },
      ...demandMeasures,
      { metric: 'dist/extension.js (production)', unit: 'KB', ours: Math.round(extensionBytes / 1024) },
      { metric: '.vsix', unit: 'KB', ours: Math.round(vsixBytes / 1024), goal: '<= 400 KB', pass: vsixBytes <= 400 * 1024 },
    ],
    notes,
  };
};

/**
 * Activation as a person who used the extension yesterday meets it: a key stored and jobs
 * tracked (most ended, one agent job and one export still running). Two windows of one
 * code-server and browser profile: the first stores the key and tracks the jobs
 * (bench/host/activationPrepare.ts), the second starts with them, no Docs Admin view visible,
 * and times the rows from storage, then opens the view (bench/host/activationDemand.ts).
 * Requests are counted from the second window's activate() until the view is opened, split by
 * what they asked about: the running jobs, which the status bar shows (it needs their data),
 * and everything else (goal: none).
 */
async function withKeyAndJobs(sim: Simulator, dir: string, runs: number, log: (line: string) => void): Promise<{ measures: Measure[]; notes: string[] }> {
  const rowsMs: number[] = [];
  const viewMs: number[] = [];
  const forStatusBar: number[] = [];
  const forNothing: number[] = [];
  const notes: string[] = [];
  for (let i = 0; i < runs; i++) {
    // Ended a second ago; the running two held running by the simulator while the benchmark looks.
    const ended = Array.from({ length: 8 }, () => String(sim.addAgentJob({ durationMs: 1, createdAt: sim.now() - 1_000 }).id));
    const endedExports = Array.from({ length: 4 }, () => String(sim.addExportJob({ queuedMs: 0, durationMs: 1, createdAt: sim.now() - 1_000 }).jobId));
    const running = [String(sim.addAgentJob({ durationMs: 1_000, held: true }).id), String(sim.addExportJob({ queuedMs: 0, durationMs: 1_000, held: true }).jobId)];
    const tracked = ended.length + endedExports.length + running.length;
    const out = join(dir, `demand-${i}.json`);
    log(`activation with a key and ${ended.length + endedExports.length + running.length} tracked jobs: run ${i + 1} of ${runs} (two windows of a fresh VS Code host)`);
    const code = await runSuite({
      suite: resolve(REPO, 'out', 'bench', 'host', 'activationDemand.js'),
      prepare: resolve(REPO, 'out', 'bench', 'host', 'activationPrepare.js'),
      label: 'activation with a key and tracked jobs',
      env: {
        DOCS_ADMIN_BENCH_OUT: out,
        DOCS_ADMIN_BENCH_KEY: sim.key,
        DOCS_ADMIN_BENCH_JOBS: JSON.stringify({ agents: [...ended, running[0]], exports: [...endedExports, running[1]] }),
      },
      settings: { 'docsAdmin.baseUrl': sim.baseUrl, 'docsAdmin.projectId': sim.projectId },
      quiet: true,
      // The next window starts from what the first stored: it opens once the workbench has written the jobs down.
      afterPrepare: (page) => jobsStored(page, tracked),
    });
    if (code !== 0) throw new Error(`the activation run with a key and tracked jobs failed (exit ${code})`);
    const seen = JSON.parse(readFileSync(out, 'utf8')) as { wasActive: boolean; startedAt: number; viewAt: number; rowsMs: number; viewRowsMs: number; statusBarText?: string; viewsVisibleAtStart: boolean; rowCount: number };
    if (seen.wasActive) notes.push(`run ${i + 1}: the extension was already active in the second window`);
    if (seen.viewsVisibleAtStart) notes.push(`run ${i + 1}: a Docs Admin view was visible at start`);
    const before = sim.requests.filter((r) => r.origin === 'api' && r.at >= seen.startedAt && r.at < seen.viewAt);
    const asked = (r: { path: string }) => r.path.split('/').pop() ?? '';
    forStatusBar.push(before.filter((r) => running.includes(asked(r))).length);
    forNothing.push(before.filter((r) => !running.includes(asked(r))).length);
    rowsMs.push(seen.rowsMs);
    viewMs.push(seen.viewRowsMs);
    notes.push(`run ${i + 1}: ${seen.rowCount} rows; the status bar said "${seen.statusBarText ?? ''}"; requests before the view: ${before.map((r) => `${r.method} .../${asked(r)}`).join(', ') || 'none'}`);
  }
  const range = (values: number[]) => ({ min: Math.min(...values), max: Math.max(...values) });
  const noneElse = Math.max(...forNothing);
  return {
    measures: [
      { metric: 'key + 14 tracked jobs: activate() to the first tree rows (median)', unit: 'ms', ours: median(rowsMs), ...range(rowsMs) },
      { metric: 'key + 14 tracked jobs: view opened to its rows (median)', unit: 'ms', ours: median(viewMs), ...range(viewMs) },
      { metric: 'requests before a view is visible, for the 2 running jobs the status bar shows', unit: 'requests', ours: median(forStatusBar), ...range(forStatusBar) },
      { metric: 'requests before a view is visible, for anything else', unit: 'requests', ours: noneElse, goal: '0', pass: noneElse === 0 },
    ],
    notes: [
      ...notes,
      'Key stored and 14 jobs tracked (12 ended, 1 agent job and 1 export running, held running by the simulator), no Docs Admin view visible at start: the requests counted from activate() to the view being opened (once the rows were ready and the status bar had demanded the running jobs), by the job they asked about. The status bar shows the running jobs, so it needs their data: those are read at once; nothing else is asked.',
    ],
  };
}

/**
 * Waits until the web workbench has written the extension's tracked jobs (`count` of them) to
 * its global state in the browser's IndexedDB (it writes a moment after a change): what the next
 * window of the same browser profile starts from.
 */
async function jobsStored(page: Page, count: number): Promise<void> {
  const read = () =>
    page.evaluate(
      () =>
        new Promise<string>((done) => {
          const idb = (globalThis as unknown as { indexedDB: { open(name: string): IdbRequest<IdbDatabase> } }).indexedDB;
          const open = idb.open('vscode-web-state-db-global');
          open.onerror = () => done('');
          open.onsuccess = () => {
            const db = open.result;
            try {
              const get = db.transaction('ItemTable', 'readonly').objectStore('ItemTable').get('docs-admin.docs-admin');
              get.onsuccess = () => {
                db.close();
                done(typeof get.result === 'string' ? get.result : '');
              };
              get.onerror = () => {
                db.close();
                done('');
              };
            } catch {
              db.close();
              done('');
            }
          };
        }),
    );
  const stored = (text: string) => {
    if (text === '') return 0;
    const state = JSON.parse(text) as Record<string, unknown>;
    const jobs = state['docsAdmin.jobs.default'];
    return Array.isArray(jobs) ? jobs.length : 0;
  };
  const deadline = Date.now() + 60_000;
  for (let seen = stored(await read()); seen < count; seen = stored(await read())) {
    if (Date.now() > deadline) throw new Error(`the first window's ${count} tracked jobs were not stored (${seen} found in the browser's state)`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface IdbRequest<T> {
  result: T;
  onsuccess: (() => void) | null;
  onerror: (() => void) | null;
}
interface IdbDatabase {
  transaction(store: string, mode: 'readonly'): { objectStore(name: string): { get(key: string): IdbRequest<unknown> } };
  close(): void;
}

