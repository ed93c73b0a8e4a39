/**
 * Which file the rollout runs (core/deploy/programPath.ts): a bare name from PATH only, never
 * from the folder the rollout runs in (Windows looks there first; a POSIX PATH with an empty entry
 * or `.` does too), as the pure lookup sees it with a fake PATH for Windows and POSIX, and as a
 * real spawn on this machine does it.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { RolloutError } from '../../src/core/deploy/errors';
import { resolveProgram, type ProgramLookup } from '../../src/core/deploy/programPath';
import { runRolloutProcess } from '../../src/core/deploy/rolloutProcess';

function fake(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, cwd: string, files: string[]): ProgramLookup {
  const known = new Set(files.map((f) => (platform === 'win32' ? f.toLowerCase() : f)));
  return { platform, env, cwd, isExecutable: (path) => known.has(platform === 'win32' ? path.toLowerCase() : path) };
}

describe('the rollout\'s program: from PATH, never from the repository', () => {
  it('Windows: helm.exe in the repository is not chosen; the one on PATH is, with PATHEXT, quoted and relative entries skipped', () => {
    const env = { Path: 'C:\\Tools;;.;relative\\bin;"C:\\Program Files\\helm"', PATHEXT: '.COM;.EXE;.BAT;.CMD' };
    const repo = 'C:\\work\\docs';
    const lookup = fake('win32', env, repo, ['C:\\work\\docs\\helm.exe', 'C:\\work\\docs\\relative\\bin\\helm.exe', 'C:\\Tools\\helm.cmd', 'C:\\Program Files\\helm\\helm.exe']);
    assert.deepEqual(resolveProgram('helm', lookup), { ok: true, path: 'C:\\Program Files\\helm\\helm.exe' }, 'a .cmd needs a shell: skipped');
    assert.deepEqual(resolveProgram('helm.exe', lookup), { ok: true, path: 'C:\\Program Files\\helm\\helm.exe' });
    // Only the repository's: not found, and the repository is named as never searched.
    const only = resolveProgram('helm', fake('win32', env, repo, ['C:\\work\\docs\\helm.exe']));
    assert.equal(only.ok, false);
    assert.match(only.ok ? '' : only.reason, /^helm was not found on PATH \(as helm\.com, helm\.exe; the rollout's own folder is never searched\)/);
    // A path the person wrote is theirs: relative to the rollout's folder.
    assert.deepEqual(resolveProgram('.\\tools\\helm.exe', fake('win32', env, repo, ['C:\\work\\docs\\tools\\helm.exe'])), { ok: true, path: 'C:\\work\\docs\\tools\\helm.exe' });
    // PATH spelled in any case, PATHEXT absent: .exe.
    assert.deepEqual(resolveProgram('helm', fake('win32', { PATH: 'D:\\bin' }, repo, ['D:\\bin\\helm.exe'])), { ok: true, path: 'D:\\bin\\helm.exe' });
  });

  it('POSIX: an empty PATH entry or "." is the current folder: skipped; the first real entry holding it wins', () => {
    const lookup = fake('linux', { PATH: '::.:bin:/usr/local/bin:/usr/bin' }, '/work/docs', ['/work/docs/helm', '/work/docs/bin/helm', '/usr/local/bin/helm', '/usr/bin/helm']);
    assert.deepEqual(resolveProgram('helm', lookup), { ok: true, path: '/usr/local/bin/helm' });
    assert.equal(resolveProgram('helm', fake('linux', { PATH: '/usr/bin:' }, '/work/docs', ['/work/docs/helm'])).ok, false);
    assert.deepEqual(resolveProgram('./scripts/rollout.sh', fake('linux', { PATH: '' }, '/work/docs', ['/work/docs/scripts/rollout.sh'])), { ok: true, path: '/work/docs/scripts/rollout.sh' });
    assert.equal(resolveProgram('', lookup).ok, false);
  });

  it('on this machine: a helm in the rollout\'s folder, not on PATH (whose empty entry means that folder), is not run; the one on PATH is, by its full path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-admin-helm-'));
    const marker = join(dir, 'ran');
    const cwd = process.cwd();
    try {
      writeFileSync(join(dir, 'helm'), `#!/bin/sh\ntouch ${JSON.stringify(marker)}\n`, { mode: 0o755 });
      // The rollout runs in the repository (the process's folder, as the Action's does): PATH ends with an empty entry.
      process.chdir(dir);
      const lines: string[] = [];
      await assert.rejects(runRolloutProcess({ program: 'helm', args: ['upgrade'] }, { env: { PATH: `${dirname(process.execPath)}:` }, line: (l) => lines.push(l) }), (error: unknown) => error instanceof RolloutError && /helm was not found on PATH/.test(error.message));
      assert.equal(existsSync(marker), false, 'the repository\'s helm ran');
      // On PATH, it runs, and which one is said.
      const ran: string[] = [];
      await runRolloutProcess({ program: 'node', args: ['-e', 'console.log("ok")'] }, { env: { PATH: `:${dirname(process.execPath)}` }, line: (l) => lines.push(l), ran: (path) => ran.push(path) });
      assert.deepEqual(ran, [process.execPath]);
      assert.ok(lines.includes('ok'));
    } finally {
      process.chdir(cwd);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
