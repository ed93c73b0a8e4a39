/**
 * `docs-admin export download` as CI runs it, a child process, against an https store (the
 * simulator's storage over TLS, trusted with `--ca-file`): the stored object byte for byte on one
 * connection and on four, whatever the store's record sizes; a store that flips one byte with
 * the length right ends as exit 6 with nothing at `--out`.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { makeTestCertificates, type TestCertificates } from '../support/certificates';
import { Simulator } from '../simulator';
import { rawTar } from './support/archives';
import { collector } from './support/collector';

const CLI = resolve(__dirname, '../../../dist/cli.js');
const KEY = 'da_cli_tls_download_key_93e1';
const MiB = 1024 * 1024;

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

describe('docs-admin export download over TLS (--ca-file), as a child process', function () {
  this.timeout(60_000);
  let pki: TestCertificates;
  let sim: Simulator;
  let dir: string;
  let content: Buffer;

  before(async () => {
    assert.ok(existsSync(CLI), `${CLI} is built by "node esbuild.mjs"`);
    pki = makeTestCertificates();
    sim = await Simulator.start({ keys: [{ key: KEY }], storageTls: { key: pki.key, cert: pki.cert } });
    // Just over the 64 MiB from which the CLI fetches a bundle in ranges (with --connections 1, one stream).
    content = gzipSync(rawTar([{ name: 'index.html', data: '<!doctype html><title>Docs</title>' }, { name: 'assets/video.bin', data: randomBytes(64 * MiB) }]), { level: 1 });
    sim.setBundleContent(content);
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-cli-tls-'));
  });

  afterEach(() => sim.setStorageDelivery({}));

  after(async () => {
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
    pki.remove();
  });

  function cli(args: string[]): Promise<Outcome> {
    const env = { PATH: process.env.PATH ?? '', DOCS_ADMIN_API_KEY: KEY, DOCS_ADMIN_BASE_URL: sim.baseUrl, DOCS_ADMIN_PROJECT_ID: sim.projectId };
    return new Promise((done) => {
      execFile(process.execPath, [CLI, ...args], { env, cwd: dir }, (error, stdout, stderr) => {
        collector.record(`cli: docs-admin ${args.join(' ')} (stdout)`, stdout);
        collector.record(`cli: docs-admin ${args.join(' ')} (stderr)`, stderr);
        done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
      });
    });
  }

  function completedExport(): string {
    return String(sim.addExportJob({ queuedMs: 0, durationMs: 0, createdAt: sim.now() - 60_000 }).jobId);
  }

  it('the storage is https: (the point of this file)', () => {
    assert.match(sim.storageBaseUrl, /^https:/);
  });

  for (const connections of [1, 4]) {
    it(`records of 4,000 bytes, --connections ${connections}: Saved, the stored object byte for byte`, async () => {
      sim.setStorageDelivery({ pieceBytes: 4_000 });
      const out = `small-records-${connections}.tar.gz`;
      const run = await cli(['export', 'download', completedExport(), '--out', out, '--connections', String(connections), '--ca-file', pki.caFile]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /^Saved .*small-records-\d\.tar\.gz/);
      assert.ok(readFileSync(join(dir, out)).equals(content), 'the saved file differs from the stored object');
      const gets = sim.requests.filter((r) => r.route === 'storage.get').slice(-connections);
      assert.deepEqual(gets.map((r) => r.headers.range === undefined), Array.from({ length: connections }, () => connections === 1), 'one stream, or ranges');
    });

    it(`a byte flipped mid-file, the length right, --connections ${connections}: exit 6, "damaged", nothing at --out`, async () => {
      sim.setStorageDelivery({ flipByteAt: Math.floor(content.length / 2) });
      const out = `flipped-${connections}.tar.gz`;
      const run = await cli(['export', 'download', completedExport(), '--out', out, '--connections', String(connections), '--ca-file', pki.caFile]);
      assert.equal(run.code, 6, `${run.stdout}${run.stderr}`);
      assert.equal(run.stdout, '', 'nothing says Saved');
      assert.match(run.stderr, /damaged/);
      assert.equal(run.stderr.trim().split('\n').length, 1, 'one line');
      assert.ok(!readdirSync(dir).some((name) => name.includes('flipped')), `nothing at --out, no temporary file: ${readdirSync(dir).join(', ')}`);
    });
  }
});
