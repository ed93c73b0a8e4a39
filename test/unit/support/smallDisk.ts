/**
 * A small real disk for "the disk is full" cases: a tmpfs of a few MiB, so ENOSPC comes from the
 * kernel, not from a stub.
 *
 * As root (CI runs as root) the tmpfs is mounted in place. Otherwise the cases run again in a
 * child mocha inside `unshare --user --map-root-user --mount`, where this process is root of its
 * own mount namespace and may mount a tmpfs, and each case here passes only if its own run there
 * passed. When neither works, the cases fail in CI and are skipped with the reason elsewhere,
 * never passed silently.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type SmallDiskMode = { kind: 'mount' } | { kind: 'namespace' } | { kind: 'unavailable'; why: string };

/** Set in the child that runs the cases inside a user namespace. */
export const IN_NAMESPACE = 'DOCS_ADMIN_SMALL_DISK_CHILD';

function mountWorks(): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'docs-admin-disk-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'pipe' });
    execFileSync('umount', [dir], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message.split('\n')[0] : String(error);
  } finally {
    rmdirSync(dir);
  }
}

/** How the small-disk cases can run here. */
export function smallDiskMode(): SmallDiskMode {
  if (process.platform !== 'linux') return { kind: 'unavailable', why: `tmpfs is Linux only (this is ${process.platform})` };
  const root = process.getuid?.() === 0;
  const failed = root ? mountWorks() : 'not root';
  if (failed === undefined) return { kind: 'mount' };
  if (process.env[IN_NAMESPACE] === '1') return { kind: 'unavailable', why: `mount failed inside the user namespace (${failed})` };
  const probe = spawnSync('unshare', ['--user', '--map-root-user', '--mount', 'sh', '-c', 'd=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs "$d" && umount "$d" && rmdir "$d"'], { stdio: 'pipe', encoding: 'utf8' });
  if (probe.status === 0) return { kind: 'namespace' };
  const why = probe.error?.message ?? probe.stderr.trim().split('\n')[0] ?? `exit ${String(probe.status)}`;
  return { kind: 'unavailable', why: `${root ? `mount as root failed (${failed}); ` : 'not root; '}unshare --user --map-root-user --mount failed (${why})` };
}

export interface SmallDisk {
  dir: string;
  /** Fills the disk (a file of that many bytes, or until it is full) as another program would. */
  fill(bytes: number, name?: string): void;
  dispose(): void;
}

/** A fresh tmpfs of `bytes` (mount mode only). */
export function mountSmallDisk(bytes: number): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), 'docs-admin-small-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir], { stdio: 'pipe' });
  return {
    dir,
    fill(size: number, name = 'filler.bin') {
      try {
        writeFileSync(join(dir, name), Buffer.alloc(size, 1));
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'ENOSPC') throw error;
      }
    },
    dispose() {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      rmdirSync(dir);
    },
  };
}

export interface NamespaceResult {
  state: 'passed' | 'failed' | 'pending';
  error?: string;
}

/**
 * Runs this test file's cases matching `grep` again as root of a user and mount namespace, with
 * the suite's secrets scan (`secretsHook`) loaded there too; gives each case's result by its full
 * title. The run failing as a whole (its secrets scan included) fails every case.
 */
export function runInNamespace(file: string, grep: string, secretsHook: string): Map<string, NamespaceResult> {
  const mocha = require.resolve('mocha/bin/mocha.js');
  const work = mkdtempSync(join(tmpdir(), 'docs-admin-namespace-run-'));
  const report = join(work, 'report.json');
  try {
    const result = spawnSync(
      'unshare',
      ['--user', '--map-root-user', '--mount', process.execPath, '--enable-source-maps', mocha, '--no-config', '--no-package', '--require', secretsHook, '--timeout', '60000', '--reporter', 'json', '--reporter-option', `output=${report}`, '--fgrep', grep, file],
      { env: { ...process.env, [IN_NAMESPACE]: '1' }, encoding: 'utf8', stdio: 'pipe', timeout: 180_000 },
    );
    const output = `${result.stdout}${result.stderr}`.trim();
    type Reported = { fullTitle: string; err?: { message?: string } };
    let parsed: { tests: Reported[]; passes: Reported[]; pending: Reported[]; failures: Reported[] };
    try {
      parsed = JSON.parse(readFileSync(report, 'utf8')) as typeof parsed;
    } catch {
      throw new Error(`the run in the user namespace gave no report (exit ${String(result.status)}):\n${output}`);
    }
    const passed = new Set(parsed.passes.map((t) => t.fullTitle));
    const pending = new Set(parsed.pending.map((t) => t.fullTitle));
    const titles = new Set(parsed.tests.map((t) => t.fullTitle));
    // A hook that failed (the secrets scan after all of them, say) fails every case.
    const hooks = parsed.failures.filter((f) => !titles.has(f.fullTitle)).map((f) => `${f.fullTitle}: ${f.err?.message ?? ''}`);
    const results = new Map<string, NamespaceResult>();
    for (const test of parsed.tests) {
      const state = passed.has(test.fullTitle) ? 'passed' : pending.has(test.fullTitle) ? 'pending' : 'failed';
      const message = test.err?.message;
      results.set(test.fullTitle, state === 'passed' && hooks.length > 0 ? { state: 'failed', error: hooks.join('\n') } : { state, ...(message === undefined || message === '' ? {} : { error: message }) });
    }
    return results;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
