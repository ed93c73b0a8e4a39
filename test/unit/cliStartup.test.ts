/**
 * What the CLI's start costs (issue 37): `docs-admin --version` alone loads nothing but its entry
 * (scripts/pack-cli.mjs, src/cli/main.ts), and the V8 flags the CLI changes for itself are set
 * back once used (src/core/v8Flags.ts), so that Node's own modules keep their code cache: V8
 * refuses that cache while any flag differs from the start (`v8.cachedDataVersionTag()`).
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cachedDataVersionTag } from 'node:v8';
import { AdminApiClient } from '../../src/core/api/client';
import { baselineWasmUntilFirstAnswer, exposeMinorGc } from '../../src/core/v8Flags';
import { Simulator } from '../simulator';
import { recordingLogger } from './support/logger';

const CLI = resolve(__dirname, '../../../dist/cli.js');

/** Counts, in the child, the parts the packed CLI compiles and whether it loads zlib (to inflate a part). */
const WATCH = `
const vm = require('node:vm');
const compile = vm.compileFunction;
let parts = 0;
vm.compileFunction = function (...args) { parts++; return compile.apply(this, args); };
const Module = require('node:module');
const load = Module._load;
let zlib = false;
Module._load = function (request, ...rest) { if (request === 'node:zlib' || request === 'zlib') zlib = true; return load.call(this, request, ...rest); };
process.on('exit', () => process.stderr.write(JSON.stringify({ parts, zlib }) + '\\n'));
`;

function spawnCli(args: string[], preload: string): Promise<{ stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    execFile(process.execPath, ['--require', preload, CLI, ...args], { env: { ...process.env, NODE_EXTRA_CA_CERTS: '' } }, (error, stdout, stderr) => (error === null ? done({ stdout, stderr }) : fail(new Error(`${error.message}: ${stderr}`))));
  });
}

describe('the CLI starts with only what it needs', function () {
  this.timeout(30_000);
  let dir: string;
  let preload: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-startup-'));
    preload = join(dir, 'watch.js');
    writeFileSync(preload, WATCH);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('docs-admin --version: its entry and the two small parts it imports, nothing inflated', async () => {
    const { stdout, stderr } = await spawnCli(['--version'], preload);
    assert.match(stdout, /^\d+\.\d+\.\d+\n$/);
    const seen = JSON.parse(stderr.trim().split('\n').at(-1) ?? '{}') as { parts: number; zlib: boolean };
    assert.ok(seen.parts <= 3, `${seen.parts} parts compiled for --version`);
    assert.equal(seen.zlib, false, 'zlib loaded (a part inflated) for --version');
  });

  it('docs-admin --help still loads the command line (and its parts)', async () => {
    const { stdout, stderr } = await spawnCli(['--help'], preload);
    assert.match(stdout, /export download/);
    const seen = JSON.parse(stderr.trim().split('\n').at(-1) ?? '{}') as { parts: number };
    assert.ok(seen.parts > 3, `${seen.parts} parts`);
  });
});

describe('the V8 flags the CLI changes are set back once used (v8Flags.ts)', function () {
  this.timeout(30_000);

  it('exposeMinorGc: a working minor collection, and the flags as they were', () => {
    const before = cachedDataVersionTag();
    const gc = exposeMinorGc();
    assert.equal(cachedDataVersionTag(), before, 'a V8 flag left changed: every Node module loaded after it compiles from source');
    gc();
  });

  it("--liftoff-only from the first API client to its first answer, then the flags as they were", async () => {
    const sim = await Simulator.start({ keys: [{ key: 'da_test_flags_key_0c1d' }] });
    const client = new AdminApiClient({ baseUrl: sim.baseUrl, projectId: sim.projectId, getKey: () => 'da_test_flags_key_0c1d', log: recordingLogger('flags') });
    try {
      const before = cachedDataVersionTag();
      const beforeApi = baselineWasmUntilFirstAnswer();
      beforeApi();
      assert.notEqual(cachedDataVersionTag(), before, 'set while the parser is compiled');
      const jobId = String(sim.addExportJob({ queuedMs: 0, durationMs: 0, createdAt: sim.now() - 60_000 }).jobId);
      await client.getExportJob(jobId);
      assert.equal(cachedDataVersionTag(), before, 'set back after the first answer');
      beforeApi();
      assert.equal(cachedDataVersionTag(), before, 'once only');
    } finally {
      await client.close();
      await sim.stop();
    }
  });
});
