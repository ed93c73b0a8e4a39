/**
 * Loaded by the extension host as a "test suite": activates Docs Admin once, timing it, and
 * writes what it saw to the file named by DOCS_ADMIN_BENCH_OUT. With DOCS_ADMIN_BENCH_PROFILE
 * set (a file path), the bundle's load and the activation are also sampled by V8's profiler
 * (every 100 µs, through node:inspector in this process) and the profile is written there, to
 * see where activate()'s time goes (bench/profiles/).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';

export async function run(): Promise<void> {
  const out = process.env.DOCS_ADMIN_BENCH_OUT;
  if (out === undefined) throw new Error('DOCS_ADMIN_BENCH_OUT is not set');
  const extension = vscode.extensions.getExtension('docs-admin.docs-admin');
  if (extension === undefined) throw new Error('the extension is not installed in this host');
  const wasActive = extension.isActive;
  const startedAt = Date.now();
  const profilePath = process.env.DOCS_ADMIN_BENCH_PROFILE;
  const profiler = profilePath === undefined ? undefined : new Session();
  if (profiler !== undefined) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.setSamplingInterval', { interval: 100 });
    await profiler.post('Profiler.start');
  }
  // The bundle's load on its own (the module cache then serves VS Code's own require).
  const l0 = performance.now();
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the extension host's own loader is require
  require(join(extension.extensionPath, 'dist', 'extension.js'));
  const loadMs = performance.now() - l0;
  const t0 = performance.now();
  const api = (await extension.activate()) as { activationMs?: number } | undefined;
  const ms = performance.now() - t0;
  if (profiler !== undefined && profilePath !== undefined) {
    const { profile } = await profiler.post('Profiler.stop');
    profiler.disconnect();
    writeFileSync(profilePath, JSON.stringify(profile));
  }
  // `loadMs`: evaluating the bundle; `ms`: VS Code's activation around the call; `activateMs`: the call.
  writeFileSync(out, JSON.stringify({ loadMs, ms, activateMs: api?.activationMs, wasActive, startedAt, endedAt: Date.now() }));
}
