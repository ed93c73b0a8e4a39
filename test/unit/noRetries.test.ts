import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/**
 * A retry is not a fix (issue 34): no test is run again when it fails, so a flaky test shows,
 * and gets its cause fixed. Checked where a retry could hide: mocha's configuration, the
 * suites' own runners, every test file, the CI workflows and the scripts that run the tests.
 */
const REPO = join(__dirname, '..', '..', '..');

function filesBelow(dir: string, ends: string): string[] {
  return readdirSync(join(REPO, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesBelow(path, ends);
    return entry.name.endsWith(ends) ? [path] : [];
  });
}

describe('no test is retried (issue 34)', () => {
  it('mocha\'s configuration sets no retries', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const config = require(join(REPO, '.mocharc.cjs')) as Record<string, unknown>;
    assert.ok(Array.isArray(config.spec), 'the configuration read is the unit suite\'s');
    assert.equal(config.retries, undefined);
  });

  it('no test, suite or runner asks mocha for retries', () => {
    const sources = [...filesBelow('test', '.ts'), ...filesBelow('bench', '.ts')].filter((file) => !file.endsWith('noRetries.test.ts'));
    assert.ok(sources.length > 100, `${sources.length} files read`);
    // `this.retries(n)` in a suite or a test, or `retries` among a Mocha runner's options.
    const asking = sources.filter((file) => /\.retries\(|\bretries\s*:/.test(readFileSync(join(REPO, file), 'utf8')));
    assert.deepEqual(asking, []);
  });

  it('CI runs every step once: no retrying action, no step allowed to fail, no rerun in the scripts', () => {
    const workflows = readdirSync(join(REPO, '.github', 'workflows')).filter((name) => /\.ya?ml$/.test(name));
    assert.ok(workflows.length > 0);
    for (const name of workflows) {
      const workflow = parse(readFileSync(join(REPO, '.github', 'workflows', name), 'utf8')) as { jobs?: Record<string, { 'continue-on-error'?: unknown; steps?: { uses?: string; 'continue-on-error'?: unknown }[] }> };
      for (const [id, job] of Object.entries(workflow.jobs ?? {})) {
        assert.equal(job['continue-on-error'], undefined, `${name}: job ${id} may fail`);
        for (const step of job.steps ?? []) {
          assert.doesNotMatch(step.uses ?? '', /retry/i, `${name}: job ${id} uses a retrying action`);
          assert.equal(step['continue-on-error'], undefined, `${name}: a step of ${id} may fail`);
        }
      }
    }
    for (const script of ['scripts/test.mjs', '.ci/run', 'test/host/run.ts', 'test/host/stress.ts']) {
      assert.doesNotMatch(readFileSync(join(REPO, script), 'utf8'), /\bretr(y|ies)\b/i, `${script} speaks of retrying`);
    }
  });
});
