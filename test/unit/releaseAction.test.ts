/**
 * scripts/release-action.mjs in a throwaway repository: the release commit carries the built
 * entry that action.yml names (which main never commits), on releases/v<major>, tagged
 * v<version> and v<major>; the working tree, the index and the branch checked out stay as they were.
 */
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { git as gitIn, releaseFixture } from './support/releaseFixture';

const SCRIPT = resolve(__dirname, '../../../scripts/release-action.mjs');

describe('the action release (scripts/release-action.mjs)', function () {
  this.timeout(30_000);
  let repo: string;
  const env = {
    PATH: process.env.PATH ?? '',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Release Test',
    GIT_AUTHOR_EMAIL: 'release@example.com',
    GIT_COMMITTER_NAME: 'Release Test',
    GIT_COMMITTER_EMAIL: 'release@example.com',
  };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: { ...env, HOME: repo }, encoding: 'utf8' }).trim();
  const release = () => spawnSync(process.execPath, [SCRIPT, '--no-build'], { cwd: repo, env: { ...env, HOME: repo }, encoding: 'utf8' });
  const version = (v: string, entry: string) => {
    writeFileSync(join(repo, 'package.json'), JSON.stringify({ name: 'x', version: v }));
    writeFileSync(join(repo, 'dist/action/index.js'), entry);
    git('add', 'package.json');
    git('commit', '-q', '-m', `version ${v}`);
  };

  before(() => {
    repo = mkdtempSync(join(tmpdir(), 'docs-admin-release-'));
    mkdirSync(join(repo, 'dist/action'), { recursive: true });
    git('init', '-q', '-b', 'main');
    writeFileSync(join(repo, '.gitignore'), 'dist/\n');
    writeFileSync(join(repo, 'action.yml'), 'name: x\nruns:\n  using: node24\n  main: dist/action/index.js\n');
    git('add', '.gitignore', 'action.yml');
    version('1.2.3', 'console.log("first");\n');
  });

  after(() => rmSync(repo, { recursive: true, force: true }));

  it('commits the built entry on releases/v1, tags v1.2.3 and v1, and leaves main as it was', () => {
    const head = git('rev-parse', 'HEAD');
    const r = release();
    assert.equal(r.status, 0, r.stderr);
    assert.equal(git('show', 'releases/v1:dist/action/index.js'), 'console.log("first");');
    assert.equal(git('show', 'v1.2.3:action.yml'), git('show', 'HEAD:action.yml'));
    assert.equal(git('rev-parse', 'v1^{commit}'), git('rev-parse', 'releases/v1'));
    assert.equal(git('rev-parse', 'releases/v1^1'), head, 'the release commit has the released source as its parent');
    assert.equal(git('rev-parse', 'HEAD'), head);
    assert.equal(git('rev-parse', '--abbrev-ref', 'HEAD'), 'main');
    assert.equal(git('ls-files', 'dist'), '', 'main still does not track the build');
    assert.equal(git('status', '--porcelain'), '');
  });

  it('the next version follows the previous release on the branch and moves v1; the same commit again changes nothing; a version released from another commit is refused', () => {
    const first = git('rev-parse', 'releases/v1');
    version('1.3.0', 'console.log("second");\n');
    const r = release();
    assert.equal(r.status, 0, r.stderr);
    assert.equal(git('show', 'v1:dist/action/index.js'), 'console.log("second");');
    assert.equal(git('rev-parse', 'releases/v1^1'), first, 'after the previous release');
    assert.equal(git('rev-parse', 'releases/v1^2'), git('rev-parse', 'HEAD'), 'and the released source');
    assert.equal(git('show', 'v1.2.3:dist/action/index.js'), 'console.log("first");');
    // Again for the same commit: nothing new, nothing moved (a rerun finishes what is missing).
    const released = git('rev-parse', 'releases/v1');
    const again = release();
    assert.equal(again.status, 0, again.stderr);
    assert.equal(git('rev-parse', 'releases/v1'), released);
    assert.equal(git('rev-parse', 'v1.3.0^{commit}'), released);
    // Another commit at a version released already: refused, and said how to go on.
    writeFileSync(join(repo, 'action.yml'), 'name: y\nruns:\n  using: node24\n  main: dist/action/index.js\n');
    git('commit', '-q', '-am', 'a change, no new version');
    const refused = release();
    assert.notEqual(refused.status, 0);
    assert.match(refused.stderr, /The tag v1\.3\.0 exists already, at [0-9a-f]{12}, a release of [0-9a-f]{12}, not of this commit \([0-9a-f]{12}\): bump the version first/);
    assert.equal(git('rev-parse', 'releases/v1'), released);
  });

  it('--push from fresh clones as actions/checkout makes them: the second release fast-forwards the remote releases/v1', () => {
    const fixture = releaseFixture(repo, '1.2.3');
    const push = (cwd: string) => spawnSync(process.execPath, [SCRIPT, '--no-build', '--push'], { cwd, env: { ...env, HOME: cwd }, encoding: 'utf8' });
    const first = push(fixture.checkout());
    assert.equal(first.status, 0, first.stderr);
    const firstRelease = fixture.remoteRef('refs/heads/releases/v1');
    assert.equal(fixture.remoteRef('refs/tags/v1.2.3'), firstRelease);
    const source = fixture.bump('1.3.0');
    const ci = fixture.checkout({ detached: true });
    const second = push(ci);
    assert.equal(second.status, 0, second.stderr);
    const released = fixture.remoteRef('refs/heads/releases/v1');
    assert.equal(fixture.remoteRef('refs/tags/v1'), released);
    assert.equal(fixture.remoteRef('refs/tags/v1.3.0'), released);
    assert.equal(gitIn(ci, 'rev-parse', `${released ?? ''}^1`), firstRelease, 'after the previous release on the remote');
    assert.equal(gitIn(ci, 'rev-parse', `${released ?? ''}^2`), source, 'and the released source');
  });
});
