/**
 * The supported Node lines, named alike everywhere: the CLI's npm package (engines), the Node
 * builds its tests run on in npm test (test/host/versions.ts), CI's matrices, and the Action's
 * runtime (action.yml: node24, the test host's own Node, which runs the Action's tests).
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { CLI_NODE_VERSIONS, HOST_VERSIONS } from '../host/versions';
import { actionNode } from './support/actionNode';

const ROOT = resolve(__dirname, '../../..');
const major = (version: string) => Number(version.split('.')[0]);

describe('the supported Node lines: 22 and 24', () => {
  it("the CLI's engines start at the oldest line its tests run on, and those are the lines CI runs", () => {
    const cli = JSON.parse(readFileSync(join(ROOT, 'cli/package.json'), 'utf8')) as { engines: { node: string } };
    const lines = CLI_NODE_VERSIONS.map(major);
    assert.deepEqual(lines, [22, 24]);
    assert.equal(cli.engines.node, `>=${lines[0]}`);
    const ci = parse(readFileSync(join(ROOT, '.github/workflows/ci.yml'), 'utf8')) as { jobs: Record<string, { strategy?: { matrix: { node: number[] } }; steps: { run?: string }[] }> };
    // Every job that builds or tests the code runs on both lines; the commits job only reads the
    // pull request's commit messages (one script, no install, no build).
    for (const [name, job] of Object.entries(ci.jobs)) {
      if (name === 'commits') {
        assert.deepEqual(job.steps.flatMap((step) => (step.run === undefined ? [] : [step.run])), ['node scripts/check-commits.mjs "$BASE_SHA..$HEAD_SHA"'], 'ci.yml commits runs the commit check alone');
        continue;
      }
      assert.deepEqual(job.strategy?.matrix.node, lines, `ci.yml ${name}`);
    }
    assert.ok(Object.keys(ci.jobs).length >= 3, 'ci.yml lost its jobs');
  });

  it("the Action runs on node24, the newest line, which the test host installs (the Action's tests run its entry there)", () => {
    const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { runs: { using: string } };
    assert.equal(action.runs.using, `node${major(HOST_VERSIONS.node)}`);
    assert.equal(major(HOST_VERSIONS.node), CLI_NODE_VERSIONS.map(major).at(-1));
  });

  it("where there is no test host (CI's Windows and macOS jobs), DOCS_ADMIN_ACTION_NODE names the Action's Node, refused when it is another line", () => {
    const mine = major(process.versions.node);
    const named = actionNode(`node${mine}`, { DOCS_ADMIN_ACTION_NODE: process.execPath, CI: 'true' }, join(ROOT, 'no-test-host', 'node'));
    assert.deepEqual(named, { path: process.execPath, version: process.version });
    assert.throws(() => actionNode(`node${mine + 1}`, { DOCS_ADMIN_ACTION_NODE: process.execPath, CI: 'true' }), new RegExp(`DOCS_ADMIN_ACTION_NODE is Node ${process.version.replace(/\./g, '\\.')} .*the Action runs on Node ${mine + 1}`));
  });
});
