/**
 * The commit message rule (issue 37 item 6; scripts/check-commits.mjs, run by CI on a pull
 * request's commits): a subject of at most 72 characters, a blank line, then the body. Checked on
 * a real git repository's range, as CI runs it.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { git } from './support/releaseFixture';

const SCRIPT = resolve(__dirname, '../../../scripts/check-commits.mjs');

function check(cwd: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [SCRIPT, ...args], { cwd, encoding: 'utf8' });
  return { status: run.status, out: run.stdout, err: run.stderr };
}

describe('commit messages: a subject of at most 72 characters, a blank line, then the body', () => {
  let repo: string;
  let n = 0;
  const commit = (message: string): string => {
    writeFileSync(join(repo, 'file.txt'), `${n++}\n`);
    git(repo, 'add', 'file.txt');
    git(repo, 'commit', '-q', '--cleanup=verbatim', '-m', message);
    return git(repo, 'rev-parse', 'HEAD');
  };

  beforeEach(() => {
    repo = mkdtempSync(join(tmpdir(), 'docs-admin-commits-'));
    git(repo, 'init', '-q', '-b', 'main');
  });
  afterEach(() => rmSync(repo, { recursive: true, force: true }));

  it('a range of good commits passes (72 characters exactly, a body after a blank line, a subject alone)', () => {
    const base = commit('The start');
    commit('x'.repeat(72));
    commit('Download: one GET of the bundle link\n\nWhy, in the body.\nMore of it.');
    commit('A subject alone');
    const run = check(repo, `${base}..HEAD`);
    assert.equal(run.status, 0, run.out + run.err);
    assert.match(run.out, /^3 commit\(s\): every subject at most 72 characters/m);
  });

  it('a subject of 73 characters, or a body right under the subject, fails naming each commit and what to do', () => {
    const base = commit('The start');
    const long = commit(`${'y'.repeat(73)}\n\nA body.`);
    commit('Fine');
    const glued = commit('Subject\nthe body with no blank line');
    const run = check(repo, `${base}..HEAD`);
    assert.equal(run.status, 1, run.out + run.err);
    assert.ok(run.out.includes(`${long.slice(0, 12)} "${'y'.repeat(73)}": the subject is 73 characters (at most 72)`), run.out);
    assert.ok(run.out.includes(`${glued.slice(0, 12)} "Subject": no blank line between the subject and the body`), run.out);
    assert.match(run.out, /2 of 3 commit\(s\) break the rule: .*git rebase -i to reword/);
  });

  it('a subject is printed quoted, its control characters escaped (a CI log)', () => {
    const base = commit('The start');
    commit(`\u001b[31mred${'z'.repeat(80)}`);
    const run = check(repo, `${base}..HEAD`);
    assert.equal(run.status, 1);
    assert.ok(!run.out.includes('\u001b'), 'the escape character reached the output');
    assert.ok(run.out.includes('"\\u001b[31mred'), run.out);
  });

  it('no range, or a range git does not know: exit 2 with what to type', () => {
    commit('The start');
    const none = check(repo);
    assert.equal(none.status, 2);
    assert.match(none.err, /Usage: node scripts\/check-commits\.mjs <base>\.\.<head>/);
    const unknown = check(repo, 'nosuchref..HEAD');
    assert.equal(unknown.status, 2);
    assert.match(unknown.err, /git log nosuchref\.\.HEAD failed/);
  });
});
