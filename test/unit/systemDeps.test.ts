/**
 * scripts/system-deps.sh, the first step of `.ci/run`, on the machines CI meets: as root it runs
 * apt-get itself; as a user whose sudo needs no password (GitHub's hosted runners) it runs apt-get
 * through `sudo -n`; as a user without that it prints the command to run and fails, installing
 * nothing. dpkg, apt-get, id and sudo are stubs on a PATH that holds nothing else of theirs: each
 * records how it was called (and whether through sudo) in a log.
 */
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const SCRIPT = resolve(__dirname, '../../../scripts/system-deps.sh');

interface Machine {
  uid: number;
  /** `none`: no sudo on the PATH; `password`: sudo asks for one (so `sudo -n` fails); `nopasswd`. */
  sudo: 'none' | 'password' | 'nopasswd';
  missing: string[];
}

describe('the system packages of CI (scripts/system-deps.sh)', function () {
  this.timeout(30_000);
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-system-deps-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  function run(machine: Machine): { status: number | null; stdout: string; stderr: string; log: string[] } {
    const bin = mkdtempSync(join(dir, 'bin-'));
    const log = join(bin, 'calls.log');
    writeFileSync(log, '');
    // The few real tools the script needs besides the stubs.
    for (const tool of ['grep', 'env', 'cat', 'true']) symlinkSync(execFileSync('bash', ['-c', `type -P ${tool}`], { encoding: 'utf8' }).trim(), join(bin, tool));
    const stub = (name: string, body: string) => writeFileSync(join(bin, name), `#!/bin/bash\n${body}\n`, { mode: 0o755 });
    stub('id', `[ "$1" = "-u" ] && echo "\${FAKE_UID:-${machine.uid}}"`);
    stub('dpkg', `for p in ${machine.missing.join(' ')}; do [ "$2" = "$p" ] && exit 1; done; exit 0`);
    stub('apt-get', `echo "apt-get uid=$(id -u) DEBIAN_FRONTEND=\${DEBIAN_FRONTEND:-} $*" >> "${log}"`);
    if (machine.sudo !== 'none') {
      stub(
        'sudo',
        [
          `echo "sudo $*" >> "${log}"`,
          '[ "$1" = "-n" ] || { echo "sudo: a terminal is required to read the password" >&2; exit 1; }',
          machine.sudo === 'password' ? 'echo "sudo: a password is required" >&2; exit 1' : 'shift; FAKE_UID=0 exec "$@"',
        ].join('\n'),
      );
    }
    const result = spawnSync('/bin/bash', [SCRIPT], { env: { PATH: bin, HOME: dir }, encoding: 'utf8' });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr, log: readFileSync(log, 'utf8').split('\n').filter((l) => l !== '') };
  }

  it('a user whose sudo needs no password (a hosted runner): apt-get runs through sudo -n, noninteractive', () => {
    const r = run({ uid: 1001, sudo: 'nopasswd', missing: ['pkg-config', 'chromium'] });
    assert.equal(r.status, 0, r.stderr);
    const apt = r.log.filter((l) => l.startsWith('apt-get'));
    assert.deepEqual(apt.map((l) => l.split(' ').slice(0, 4).join(' ')), ['apt-get uid=0 DEBIAN_FRONTEND=noninteractive update', 'apt-get uid=0 DEBIAN_FRONTEND=noninteractive install']);
    assert.match(apt[1] ?? '', / chromium pkg-config$| pkg-config chromium$/);
    assert.ok(r.log.filter((l) => l.startsWith('sudo')).every((l) => l.startsWith('sudo -n ')), r.log.join('\n'));
  });

  for (const sudo of ['password', 'none'] as const) {
    it(`a user ${sudo === 'none' ? 'without sudo' : 'whose sudo asks for a password'}: prints the command to run and fails, installing nothing`, () => {
      const r = run({ uid: 1001, sudo, missing: ['git'] });
      assert.equal(r.status, 1);
      assert.match(r.stderr, /Missing system packages: git/);
      assert.match(r.stderr, /sudo apt-get update && sudo apt-get install -y git/);
      assert.deepEqual(r.log.filter((l) => l.startsWith('apt-get')), []);
    });
  }

  it('root: apt-get runs as it is, without sudo', () => {
    const r = run({ uid: 0, sudo: 'nopasswd', missing: ['curl'] });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(r.log.filter((l) => l.startsWith('sudo')), []);
    assert.equal(r.log.filter((l) => l.startsWith('apt-get uid=0 DEBIAN_FRONTEND=noninteractive install')).length, 1);
  });

  it('nothing missing: nothing runs', () => {
    const r = run({ uid: 1001, sudo: 'password', missing: [] });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(r.log, []);
  });
});
