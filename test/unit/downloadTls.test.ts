/**
 * The download as real bundle links serve it: over TLS (every object store's links are https:),
 * in records of every size, to a consumer that is slow to start reading (a disk check that
 * takes a while), on one connection and on four at once. What is saved is the stored object,
 * byte for byte, or nothing. And the path the README names for every download is the one taken.
 */
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
// The modules themselves (not an import's copy of their exports): they are patched below as VS Code patches them.
// eslint-disable-next-line @typescript-eslint/no-require-imports
import http = require('node:http');
// eslint-disable-next-line @typescript-eslint/no-require-imports
import https = require('node:https');
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { AdminApiClient } from '../../src/core/api/client';
import { downloadBundle, type DownloadOptions, type DownloadResult } from '../../src/core/bundle/download/download';
import { UnsafeArchiveError } from '../../src/core/bundle/extract/archivePaths';
import { BundleLinks } from '../../src/core/bundle/links/linkCache';
import { Network } from '../../src/core/net/network';
import { makeTestCertificates, type TestCertificates } from '../support/certificates';
import { Simulator } from '../simulator';
import { rawTar } from './support/archives';
import { recordingLogger } from './support/logger';

const KEY = 'da_test_tls_download_key_4b7e';
const MiB = 1024 * 1024;
const README = resolve(__dirname, '..', '..', '..', 'README.md');

/** A real tar.gz of about `bytes` (random content: it does not compress). */
function bundleOf(bytes: number): Buffer {
  return gzipSync(rawTar([{ name: 'index.html', data: '<!doctype html><title>Docs</title>' }, { name: 'assets/video.bin', data: randomBytes(bytes) }]), { level: 1 });
}

describe('the download over TLS: whatever the records, the stored object byte for byte, or nothing', function () {
  this.timeout(60_000);
  let pki: TestCertificates;
  let sim: Simulator;
  let client: AdminApiClient;
  let network: Network;
  let dir: string;
  let content: Buffer;
  let jobId: string;
  const log = recordingLogger('download-tls');

  before(() => {
    pki = makeTestCertificates();
    content = bundleOf(4 * MiB + 17);
  });

  after(() => pki.remove());

  beforeEach(async () => {
    sim = await Simulator.start({ keys: [{ key: KEY }], storageTls: { key: pki.key, cert: pki.cert } });
    network = new Network({ extraCa: [pki.caCert] }, { env: {} });
    client = new AdminApiClient({ baseUrl: sim.baseUrl, projectId: sim.projectId, getKey: () => KEY, log });
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-download-tls-'));
    sim.setBundleContent(content);
    jobId = String(sim.addExportJob({ queuedMs: 0, durationMs: 0, createdAt: sim.now() - 60_000 }).jobId);
  });

  afterEach(async () => {
    await client.close();
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  function options(over: Partial<DownloadOptions> = {}): DownloadOptions {
    const links = new BundleLinks((id, o) => client.generateBundle(id, o));
    return {
      target: join(dir, 'docs.tar.gz'),
      link: () => links.fresh(jobId, 60_000),
      regenerate: () => links.regenerate(jobId),
      timeLeft: (link) => links.timeLeft(link),
      network,
      log,
      sleep: () => Promise.resolve(),
      parallelFromBytes: MiB,
      ...over,
    };
  }

  async function failure(promise: Promise<DownloadResult>): Promise<Error> {
    try {
      await promise;
    } catch (error) {
      assert.ok(error instanceof Error);
      return error;
    }
    assert.fail('expected the download to fail');
  }

  it('the storage is https: (the point of this file)', () => {
    assert.match(sim.storageBaseUrl, /^https:\/\/127\.0\.0\.1:\d+$/);
  });

  for (const pieceBytes of [100, 1_000, 4_096, 16_385]) {
    for (const connections of [1, 4]) {
      it(`records of ${pieceBytes} bytes, ${connections} connection(s), a slow disk check before the body is read: byte for byte`, async () => {
        sim.setStorageDelivery({ pieceBytes });
        const slowDisk = () => new Promise<void>((done) => setTimeout(done, 150));
        const result = await downloadBundle(options({ connections, ensureRoom: slowDisk }));
        assert.equal(result.bytes, content.length);
        const saved = readFileSync(join(dir, 'docs.tar.gz'));
        assert.equal(saved.length, content.length);
        assert.ok(saved.equals(content), 'the saved file differs from the stored object');
        const gets = sim.requests.filter((r) => r.route === 'storage.get');
        assert.equal(gets.length, connections, `one request per connection: ${gets.map((r) => r.headers.range ?? 'whole').join(', ')}`);
      });
    }
  }

  for (const connections of [1, 4]) {
    it(`a store that flips one byte mid-file, the length right (${connections} connection(s)): refused as damaged, nothing at the target`, async () => {
      sim.setStorageDelivery({ flipByteAt: Math.floor(content.length / 2) + 3 });
      const error = await failure(downloadBundle(options({ connections })));
      assert.ok(error instanceof UnsafeArchiveError && error.reason === 'corrupt', String(error));
      assert.match(error.message, /damaged/);
      assert.deepEqual(readdirSync(dir), [], 'nothing at the target, no temporary file');
    });
  }

  it('with a collection every 2 MiB, as the CLI runs it (its check collecting on its own thread too): byte for byte, and a flipped byte refused with nothing left', async () => {
    let collections = 0;
    const cli: Partial<DownloadOptions> = { collectGarbage: () => collections++ };
    for (const connections of [1, 4]) {
      sim.setStorageDelivery({ pieceBytes: 4_096 });
      const before = collections;
      const result = await downloadBundle(options({ connections, ...cli }));
      assert.equal(result.kind, 'tar.gz');
      // One body of 4 MiB: a collection at least every 2 MiB taken in (ranges of 1 MiB each take in less).
      if (connections === 1) assert.ok(collections - before >= 2, `${collections - before} collections`);
      assert.ok(readFileSync(join(dir, 'docs.tar.gz')).equals(content));
      rmSync(join(dir, 'docs.tar.gz'));
      sim.setStorageDelivery({ flipByteAt: Math.floor(content.length / 3) });
      const error = await failure(downloadBundle(options({ connections, ...cli })));
      assert.ok(error instanceof UnsafeArchiveError && error.reason === 'corrupt', String(error));
      assert.deepEqual(readdirSync(dir), []);
    }
  });

  it('four ranges run at once, not one after another (the store counts the GETs it serves together)', async () => {
    // Each range takes a while (64 KiB writes, 3 ms apart): one after another, the store would never serve two at once.
    sim.setStorageDelivery({ pieceBytes: 64 * 1024, pieceGapMs: 3 });
    sim.storageConcurrency.reset();
    await downloadBundle(options({ connections: 4 }));
    assert.ok(readFileSync(join(dir, 'docs.tar.gz')).equals(content));
    assert.equal(sim.requests.filter((r) => r.route === 'storage.get').length, 4);
    assert.equal(sim.storageConcurrency.max, 4, `the most GETs served at once: ${sim.storageConcurrency.max}`);
  });

  describe('the download path the README names', () => {
    /**
     * Counts the requests made with the `get` and `request` of Node's http and https modules,
     * as VS Code's proxy support sees them when it patches those modules in the extension host.
     */
    function counting<T extends typeof http | typeof https>(module: T, counts: { n: number }): () => void {
      const original = { get: module.get, request: module.request };
      const target = module as unknown as { get: unknown; request: unknown };
      target.get = (...args: unknown[]) => {
        counts.n++;
        return (original.get as (...a: unknown[]) => unknown)(...args);
      };
      target.request = (...args: unknown[]) => {
        counts.n++;
        return (original.request as (...a: unknown[]) => unknown)(...args);
      };
      return () => {
        target.get = original.get;
        target.request = original.request;
      };
    }

    it("every storage request goes through Node's https module (https.get, where VS Code's proxy support applies), on one connection and in ranges", async () => {
      const counts = { n: 0 };
      const restore = [counting(https, counts), counting(http, { n: 0 })];
      try {
        await downloadBundle(options({ connections: 1 }));
        rmSync(join(dir, 'docs.tar.gz'));
        await downloadBundle(options({ connections: 4 }));
      } finally {
        for (const undo of restore) undo();
      }
      const gets = sim.requests.filter((r) => r.route === 'storage.get').length;
      assert.equal(gets, 5);
      assert.equal(counts.n, gets, "each storage GET made with Node's https module");
      const readme = readFileSync(README, 'utf8');
      assert.match(readme, /Every bundle download, in the CLI and in the editor, is one GET per connection made with Node's own `https` module \(`http` for a loopback `http:` link\)/);
    });
  });
});
