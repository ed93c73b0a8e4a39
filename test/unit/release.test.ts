/**
 * The Release workflow's steps (.github/workflows/release.yml: each `node scripts/release.mjs
 * <step>`, with the env the workflow gives that step), run in order from fresh checkouts made as
 * actions/checkout makes them, against a bare remote, with stand-ins for npm, gh, vsce and ovsx
 * (test/unit/support/fakeReleaseTools.ts): a first release, a second one, a rerun after a failure
 * in each step after the action's commit, a run from another branch, a tag that names another
 * commit, versions the registries have already, and registries without their token.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { emptyRegistries, readRegistries, type FakeRegistries } from './support/fakeReleaseTools';
import { GIT_ENV, git, releaseFixture, type ReleaseFixture } from './support/releaseFixture';

const ROOT = resolve(__dirname, '../../..');
const SCRIPT = join(ROOT, 'scripts/release.mjs');
const FAKE = join(__dirname, 'support/fakeReleaseTools.js');
const ALL_SECRETS = { NPM_TOKEN: 'npm-token', VSCE_PAT: 'vsce-token', OVSX_PAT: 'ovsx-token' };

interface Step {
  name: string;
  step: string;
  env: Record<string, string>;
}

/** The release job's steps that run scripts/release.mjs, in order, with their env. */
export function releaseSteps(): Step[] {
  const workflow = parse(readFileSync(join(ROOT, '.github/workflows/release.yml'), 'utf8')) as { jobs: { release: { steps: { name?: string; run?: string; env?: Record<string, string> }[] } } };
  return workflow.jobs.release.steps.flatMap((s) => {
    const m = /^node scripts\/release\.mjs (\w+)$/.exec((s.run ?? '').trim());
    return m === null ? [] : [{ name: s.name ?? '', step: m[1] ?? '', env: s.env ?? {} }];
  });
}

interface Run {
  /** The step that failed, if one did. */
  failed?: string;
  output: string;
  summary: string;
  registries: FakeRegistries;
}

describe('the release, step by step, from fresh clones against a bare remote (release.yml, scripts/release.mjs)', function () {
  this.timeout(120_000);
  let base: string;
  let bin: string;

  before(() => {
    base = mkdtempSync(join(tmpdir(), 'docs-admin-release-'));
    bin = mkdtempSync(join(base, 'bin-'));
    for (const tool of ['npm', 'gh', 'vsce', 'ovsx']) writeFileSync(join(bin, tool), `#!/bin/sh\nexec "${process.execPath}" "${FAKE}" ${tool} "$@"\n`, { mode: 0o755 });
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  const steps = releaseSteps();

  /** Runs the workflow's release steps in `dir` as the runner would, stopping at the first failure. */
  function release(dir: string, state: string, options: { secrets?: Record<string, string>; ref?: string } = {}): Run {
    const secrets: Record<string, string> = options.secrets ?? ALL_SECRETS;
    const summary = join(dir, '..', `${dir.split('/').at(-1) ?? ''}-summary.md`);
    writeFileSync(summary, '');
    const expand = (value: string) =>
      value.replace(/\$\{\{\s*([\w.]+)\s*\}\}/g, (_whole, expression: string) => {
        if (expression === 'github.token') return 'github-token';
        const secret = /^secrets\.(\w+)$/.exec(expression)?.[1];
        assert.ok(secret !== undefined, `an expression the test knows: ${expression}`);
        return secrets[secret] ?? '';
      });
    let output = '';
    for (const step of steps) {
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        ...GIT_ENV,
        GITHUB_ACTIONS: 'true',
        GITHUB_REF: options.ref ?? 'refs/heads/main',
        GITHUB_STEP_SUMMARY: summary,
        FAKE_RELEASE_STATE: state,
        DOCS_ADMIN_RELEASE_NPM: join(bin, 'npm'),
        DOCS_ADMIN_RELEASE_GH: join(bin, 'gh'),
        DOCS_ADMIN_RELEASE_VSCE: join(bin, 'vsce'),
        DOCS_ADMIN_RELEASE_OVSX: join(bin, 'ovsx'),
        ...Object.fromEntries(Object.entries(step.env).map(([name, value]) => [name, expand(value)])),
      };
      const r = spawnSync(process.execPath, [SCRIPT, step.step], { cwd: dir, env, encoding: 'utf8' });
      output += `--- ${step.step}\n${r.stdout}${r.stderr}`;
      if (r.status !== 0) return { failed: step.step, output, summary: readFileSync(summary, 'utf8'), registries: readRegistries(state) };
    }
    return { output, summary: readFileSync(summary, 'utf8'), registries: readRegistries(state) };
  }

  function registries(seed: Partial<FakeRegistries> = {}): string {
    const file = join(mkdtempSync(join(base, 'registries-')), 'state.json');
    writeFileSync(file, JSON.stringify({ ...emptyRegistries(), ...seed }));
    return file;
  }

  const setFail = (state: string, fail: string[]) => writeFileSync(state, JSON.stringify({ ...readRegistries(state), fail }));
  const published = (run: Run, tool: string) => run.registries.calls.filter((c) => c.tool === tool && c.args[0] === 'publish' && c.ok).length;

  /** What a complete release of `version` left on the remote and the registries. */
  function assertReleased(fixture: ReleaseFixture, run: Run, version: string, source: string): string {
    const major = `v${version.split('.')[0]}`;
    assert.equal(run.failed, undefined, run.output);
    const commit = fixture.remoteRef(`refs/heads/releases/${major}`);
    assert.ok(commit !== undefined, `releases/${major} is on the remote`);
    assert.equal(fixture.remoteRef(`refs/tags/v${version}`), commit);
    assert.equal(fixture.remoteRef(`refs/tags/${major}`), commit);
    assert.equal(git(fixture.dev, 'fetch', '-q', 'origin', `refs/heads/releases/${major}`), '');
    assert.equal(git(fixture.dev, 'rev-parse', 'FETCH_HEAD^{commit}'), commit);
    assert.equal(git(fixture.dev, 'rev-list', '--parents', '-n', '1', 'FETCH_HEAD').split(' ').at(-1), source, 'the release commit of the released source');
    assert.equal(git(fixture.dev, 'show', 'FETCH_HEAD:dist/action/index.js'), `console.log("the action ${version}");`);
    assert.ok(run.registries.npm.includes(version));
    assert.deepEqual(run.registries.releases[`v${version}`], [`docs-admin-${version}.vsix`]);
    assert.ok(run.registries.vsce.includes(version));
    assert.ok(run.registries.ovsx.includes(version));
    return commit;
  }

  it('the workflow runs every step of the release through scripts/release.mjs, in this order', () => {
    assert.deepEqual(
      steps.map((s) => s.step),
      ['check', 'action', 'tags', 'npm', 'vsix', 'github', 'vsce', 'ovsx'],
    );
  });

  it('a first release and a second: the second fast-forwards releases/v1 from the remote; each token reached only its own step', () => {
    const fixture = releaseFixture(base, '1.2.3');
    const state = registries();
    const first = release(fixture.checkout(), state);
    const firstCommit = assertReleased(fixture, first, '1.2.3', git(fixture.dev, 'rev-parse', 'HEAD'));
    assert.match(first.summary, /npm: published @docs-admin\/cli@1\.2\.3\./);
    assert.match(first.summary, /GitHub release v1\.2\.3: docs-admin-1\.2\.3\.vsix attached\./);
    assert.match(first.summary, /VS Code Marketplace: published 1\.2\.3\./);
    assert.match(first.summary, /Open VSX: published 1\.2\.3\./);
    const source = fixture.bump('1.3.0');
    const second = release(fixture.checkout({ detached: true }), state);
    const secondCommit = assertReleased(fixture, second, '1.3.0', source);
    assert.equal(git(fixture.dev, 'rev-parse', `${secondCommit}^1`), firstCommit, 'after the first release');
    assert.equal(fixture.remoteRef('refs/tags/v1.2.3'), firstCommit, 'v1.2.3 stays');
    const own: Record<string, string> = { npm: 'NODE_AUTH_TOKEN', gh: 'GH_TOKEN', vsce: 'VSCE_PAT', ovsx: 'OVSX_PAT' };
    for (const call of second.registries.calls) {
      const allowed = call.tool === 'npm' && call.args[0] === 'run' ? [] : [own[call.tool]];
      assert.deepEqual(call.tokens, allowed, `${call.tool} ${call.args.join(' ')} saw ${call.tokens.join(', ')}`);
    }
  });

  for (const [step, failure] of [
    ['tags', 'the remote refuses the tags'],
    ['npm', 'npm publish'],
    ['github', 'gh release create'],
    ['vsce', 'vsce publish'],
    ['ovsx', 'ovsx publish'],
  ] as const) {
    it(`a failure in the ${step} step, then a rerun from a fresh clone: the release is finished, nothing is made or published twice`, () => {
      const fixture = releaseFixture(base, '2.0.0');
      const state = registries();
      if (step === 'tags') {
        writeFileSync(join(fixture.remote, 'hooks/pre-receive'), `#!/bin/sh\nif [ -e "${fixture.remote}/refuse-tags" ] && grep -q ' refs/tags/'; then echo "tags refused (injected)"; exit 1; fi\n`, { mode: 0o755 });
        writeFileSync(join(fixture.remote, 'refuse-tags'), '');
      } else {
        setFail(state, [failure]);
      }
      const failed = release(fixture.checkout(), state);
      assert.equal(failed.failed, step, failed.output);
      assert.match(failed.output, /run the Release workflow again|tags refused/);
      const made = fixture.remoteRef('refs/heads/releases/v2');
      assert.ok(made !== undefined, 'the action step pushed its commit before the failure');
      if (step === 'tags') rmSync(join(fixture.remote, 'refuse-tags'));
      else setFail(state, []);
      const rerun = release(fixture.checkout(), state);
      assert.equal(assertReleased(fixture, rerun, '2.0.0', git(fixture.dev, 'rev-parse', 'HEAD')), made, 'the commit of the first run, used again');
      assert.equal(git(fixture.dev, 'rev-list', '--count', 'FETCH_HEAD', '^HEAD'), '1', 'one release commit on releases/v2');
      // npm has no way to publish a version again; both registries' tools are asked with --skip-duplicate, and say so.
      assert.equal(published(rerun, 'npm'), 1, 'npm publish succeeded once');
      for (const tool of ['npm', 'vsce', 'ovsx'] as const) assert.deepEqual(rerun.registries[tool], ['2.0.0'], `${tool} has the version once`);
      const doneBefore = steps.slice(0, steps.findIndex((s) => s.step === step)).map((s) => s.step);
      assert.equal(/npm skipped::/.test(rerun.output), doneBefore.includes('npm'), 'npm: skipped on the rerun only when the first run published');
      assert.equal(/VS Code Marketplace has version 2\.0\.0 already/.test(rerun.output), doneBefore.includes('vsce'));
    });
  }

  it('from another branch: refused with a message, before anything is made or published', () => {
    const fixture = releaseFixture(base, '3.0.0');
    git(fixture.dev, 'checkout', '-q', '-b', 'feature');
    git(fixture.dev, 'commit', '-q', '--allow-empty', '-m', 'on a branch');
    git(fixture.dev, 'push', '-q', 'origin', 'feature');
    const state = registries();
    const onBranch = release(fixture.checkout({ ref: 'feature' }), state, { ref: 'refs/heads/feature' });
    assert.equal(onBranch.failed, 'check');
    assert.match(onBranch.output, /The release runs from main only, and this run is on refs\/heads\/feature: run the Release workflow on main/);
    // The script's own refusal, whatever the workflow says: a branch checked out, or a commit main does not have.
    const branchCheckout = release(fixture.checkout({ ref: 'feature' }), state);
    assert.equal(branchCheckout.failed, 'check');
    assert.match(branchCheckout.output, /the branch checked out is feature/);
    const detached = release(fixture.checkout({ ref: 'feature', detached: true }), state);
    assert.equal(detached.failed, 'check');
    assert.match(detached.output, /HEAD \([0-9a-f]{12}\) is not on origin's main/);
    assert.equal(fixture.remoteRef('refs/heads/releases/v3'), undefined);
    assert.deepEqual(readRegistries(state).calls, []);
  });

  it('a version tagged on another commit is refused with a message; nothing is published', () => {
    const fixture = releaseFixture(base, '4.0.0');
    git(fixture.dev, 'tag', '-a', 'v4.0.0', '-m', 'made by hand', 'HEAD');
    git(fixture.dev, 'push', '-q', 'origin', 'v4.0.0');
    git(fixture.dev, 'commit', '-q', '--allow-empty', '-m', 'after the tag, at the same version');
    git(fixture.dev, 'push', '-q', 'origin', 'main');
    const state = registries();
    const run = release(fixture.checkout(), state);
    assert.equal(run.failed, 'action');
    assert.match(run.output, /The tag v4\.0\.0 exists already, at [0-9a-f]{12}, a release of [0-9a-f]{12}, not of this commit \([0-9a-f]{12}\): bump the version first/);
    assert.deepEqual(readRegistries(state).calls, []);
  });

  it('versions the registries have already are skipped with a notice; so is a registry without its token', () => {
    const fixture = releaseFixture(base, '5.0.0');
    const state = registries({ npm: ['4.9.0', '5.0.0'], vsce: ['5.0.0'] });
    const run = release(fixture.checkout(), state, { secrets: { NPM_TOKEN: 'npm-token', VSCE_PAT: 'vsce-token' } });
    assert.equal(run.failed, undefined, run.output);
    assert.equal(published(run, 'npm'), 0);
    assert.match(run.output, /::notice title=npm skipped::@docs-admin\/cli@5\.0\.0 is on npm already: not published again\./);
    assert.match(run.output, /::notice title=VS Code Marketplace skipped::VS Code Marketplace has version 5\.0\.0 already: not published again\./);
    assert.match(run.output, /::notice title=Open VSX skipped::The secret OVSX_PAT is not set/);
    assert.match(run.summary, /npm: @docs-admin\/cli@5\.0\.0 \*\*published already\*\*, skipped\./);
    assert.match(run.summary, /Open VSX: \*\*skipped\*\*, the secret OVSX_PAT is not set\./);
    assert.deepEqual(run.registries.calls.filter((c) => c.tool === 'ovsx'), []);
    assert.deepEqual(run.registries.releases['v5.0.0'], ['docs-admin-5.0.0.vsix']);
  });
});
