/**
 * The repository's GitHub Actions files: every third-party action pinned by a full commit SHA
 * with its tag in a comment; CI (.github/workflows/ci.yml) on every push and pull request, with a
 * read-only token, the same command as .ci/run on Ubuntu with its caches, the unit suite on
 * Windows and macOS, on the supported Node lines; and the workflow lint (scripts/lint-workflows.mjs,
 * a step of npm test) passing here and failing on broken files.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isScalar, parse, parseDocument, visit } from 'yaml';

const ROOT = resolve(__dirname, '../../..');
const WORKFLOWS = join(ROOT, '.github/workflows');
const LINT = join(ROOT, 'scripts/lint-workflows.mjs');

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Job {
  'runs-on': string;
  strategy?: { matrix?: Record<string, unknown[]> };
  permissions?: Record<string, string>;
  steps: Step[];
}

const lint = (root: string) => spawnSync(process.execPath, [LINT, root], { encoding: 'utf8' });

describe('the GitHub Actions files (.github/workflows, action.yml)', function () {
  this.timeout(60_000);
  const files = readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f));

  it('every action a workflow uses is pinned by a full commit SHA, its tag in a comment', () => {
    const uses: string[] = [];
    for (const file of files) {
      visit(parseDocument(readFileSync(join(WORKFLOWS, file), 'utf8')), {
        Pair(_key, pair) {
          if (!isScalar(pair.key) || pair.key.value !== 'uses' || !isScalar(pair.value)) return;
          const value = String(pair.value.value);
          uses.push(value);
          if (value.startsWith('./')) return;
          assert.match(value, /^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/, `${file}: ${value} is pinned by commit`);
          assert.match(pair.value.comment ?? '', /^ ?v\d+(\.\d+)*$/, `${file}: ${value} names its tag in a comment (# v1.2.3)`);
        },
      });
    }
    assert.ok(uses.length >= 6, `the workflows use actions (${uses.length})`);
  });

  it('CI runs on every push and pull request with a read-only token: .ci/run on Ubuntu with its caches, the unit suite on Windows and macOS, on Node 22 and 24', () => {
    const ci = parse(readFileSync(join(WORKFLOWS, 'ci.yml'), 'utf8')) as { on: Record<string, unknown>; permissions: Record<string, string>; jobs: Record<string, Job> };
    assert.deepEqual(Object.keys(ci.on).sort(), ['pull_request', 'push']);
    assert.deepEqual(ci.on, { push: null, pull_request: null }, 'every branch, every pull request');
    assert.deepEqual(ci.permissions, { contents: 'read' });
    for (const job of Object.values(ci.jobs)) assert.equal(job.permissions, undefined, 'no job asks for more');
    const { test, unit } = ci.jobs;
    assert.ok(test !== undefined && unit !== undefined);
    assert.equal(test['runs-on'], 'ubuntu-latest');
    assert.ok(test.steps.some((s) => s.run === 'bash .ci/run'));
    const caches = test.steps.filter((s) => s.uses?.startsWith('actions/cache@') === true).map((s) => s.with ?? {});
    assert.deepEqual(caches.map((c) => c.path), ['~/.npm', '~/.cache/docs-admin-test-host']);
    assert.match(String(caches[1]?.key), /hashFiles\('test\/host\/versions\.ts'\)/);
    assert.match(String(caches[0]?.key), /hashFiles\('package-lock\.json'\)/);
    assert.equal(unit['runs-on'], '${{ matrix.os }}');
    assert.deepEqual(unit.strategy?.matrix?.os, ['windows-latest', 'macos-latest']);
    assert.deepEqual(unit.steps.filter((s) => s.run !== undefined && !s.run.startsWith('echo')).map((s) => s.run), ['npm ci --no-audit --no-fund', 'node esbuild.mjs', 'npx --no-install tsc --noEmit -p .', 'npx --no-install eslint .', 'npx --no-install mocha']);
    for (const job of [test, unit]) {
      assert.deepEqual(job.strategy?.matrix?.node, [22, 24]);
      assert.equal(job.steps.filter((s) => s.uses?.startsWith('actions/setup-node@') === true).at(-1)?.with?.['node-version'], '${{ matrix.node }}');
    }
  });

  it('the workflow lint passes on every workflow and action.yml here', () => {
    const r = lint(ROOT);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, new RegExp(`${files.length + 1} files, no finding`));
  });

  it('the workflow lint fails on a broken workflow and a broken action.yml, saying where and why', () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-admin-workflow-lint-'));
    try {
      mkdirSync(join(dir, '.github/workflows'), { recursive: true });
      cpSync(join(ROOT, 'action.yml'), join(dir, 'action.yml'));
      writeFileSync(
        join(dir, '.github/workflows/ci.yml'),
        ['name: CI', 'on: [push, pull_requests]', 'jobs:', '  test:', '    needs: build', '    runs-on: ubuntu-latest', '    steps:', '      - run: echo "${{ github.event.pull_request.title }}"', ''].join('\n'),
      );
      const broken = lint(dir);
      assert.equal(broken.status, 1, broken.stdout);
      assert.match(broken.stdout, /\.github\/workflows\/ci\.yml:2:\d+: unknown Webhook event "pull_requests"/);
      assert.match(broken.stdout, /ci\.yml:4:\d+: job "test" needs job "build" which does not exist/);
      assert.match(broken.stdout, /ci\.yml:8:\d+: "github\.event\.pull_request\.title" is potentially untrusted/);
      writeFileSync(join(dir, '.github/workflows/ci.yml'), 'name: CI\non: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ok\n');
      const action = (parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { runs: Record<string, string> });
      writeFileSync(join(dir, 'action.yml'), JSON.stringify({ ...action, runs: { ...action.runs, using: 'node16' }, inputs: { x: { required: true } } }));
      const badAction = lint(dir);
      assert.equal(badAction.status, 1, badAction.stdout);
      assert.match(badAction.stdout, /action\.yml:0:0: runs\.using: Invalid/);
      assert.match(badAction.stdout, /action\.yml:0:0: inputs\.x\.description:/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
