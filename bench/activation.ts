/**
 * Activation and size: `activate()` in the real extension host (a fresh code-server per run, so
 * every activation is a first one: module load included), the requests the API saw while it
 * ran, and the sizes of the production `dist/extension.js` and the .vsix.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { REPO, runSuite } from '../test/host/suite';
import { Simulator } from '../test/simulator';
import { median, type Bench } from './types';

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

  const sim = await Simulator.start();
  const times: number[] = [];
  const calls: number[] = [];
  const loads: number[] = [];
  let requestsDuring = 0;
  try {
    const runs = options.quick ? 1 : Math.max(3, options.runs);
    for (let i = 0; i < runs; i++) {
      const out = join(dir, `activation-${i}.json`);
      options.log(`activation: run ${i + 1} of ${runs} (a fresh VS Code host)`);
      const code = await runSuite({
        suite: resolve(REPO, 'out', 'bench', 'host', 'activation.js'),
        label: 'activation',
        env: { DOCS_ADMIN_BENCH_OUT: out },
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
      { metric: 'dist/extension.js (production)', unit: 'KB', ours: Math.round(extensionBytes / 1024) },
      { metric: '.vsix', unit: 'KB', ours: Math.round(vsixBytes / 1024), goal: '<= 400 KB', pass: vsixBytes <= 400 * 1024 },
    ],
    notes,
  };
};
