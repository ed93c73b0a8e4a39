/**
 * The bundle download against the simulator's storage over TLS (every real bundle link is
 * https:): resumes, new links, restarts, refusals, cancels; a bundle saved only when its archive
 * is read through to its end (tar.gz and zip), with or without a declared size; deadlines for
 * the answer's head; which redirects are followed. And the body's writer on its own.
 */
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { downloadBundle, type DownloadOptions, type DownloadProgress, type DownloadResult } from '../../src/core/bundle/download/download';
import { BundleDownloadError, ExpiredLinkError } from '../../src/core/bundle/download/errors';
import { BundleLinks, type IssuedLink } from '../../src/core/bundle/links/linkCache';
import { writeAll, writeBody } from '../../src/core/bundle/download/bodyFile';
import type { StorageResponse } from '../../src/core/bundle/download/response';
import { StorageClient } from '../../src/core/bundle/download/storage';
import { Network } from '../../src/core/net/network';
import { Simulator } from '../simulator';
import { makeTestCertificates, type TestCertificates } from '../support/certificates';
import { TestProxy } from '../support/proxy';
import { rawTar, zip } from './support/archives';
import { collector } from './support/collector';
import { recordingLogger } from './support/logger';
import { rawServer, send, type RawServer } from './support/rawServer';
import { AbortedError } from '../../src/core/abort';
import { AdminApiClient } from '../../src/core/api/client';
import { UnsafeArchiveError } from '../../src/core/bundle/extract/archivePaths';
import { itOnLinux } from './support/platform';

const KEY = 'da_test_download_key_51c0';
const MiB = 1024 * 1024;

/** A real tar.gz of a page and `bytes` of random data (which does not compress). */
function tarGzOf(bytes: number): Buffer {
  return gzipSync(rawTar([{ name: 'index.html', data: '<!doctype html><title>Docs</title>' }, { name: 'assets/video.bin', data: randomBytes(bytes) }]), { level: 1 });
}

describe('bundle download (the storage over TLS)', function () {
  this.timeout(30_000);
  let pki: TestCertificates;
  let sim: Simulator;
  let client: AdminApiClient;
  let network: Network;
  let dir: string;
  let content: Buffer;
  let jobId: string;
  const log = recordingLogger('download');
  const servers: RawServer[] = [];

  before(() => {
    pki = makeTestCertificates();
    network = new Network({ extraCa: [pki.caCert] }, { env: {} });
  });

  after(() => pki.remove());

  beforeEach(async () => {
    sim = await Simulator.start({ keys: [{ key: KEY }], linkTtlSeconds: 3600, storageTls: { key: pki.key, cert: pki.cert } });
    client = new AdminApiClient({ baseUrl: sim.baseUrl, projectId: sim.projectId, getKey: () => KEY, log });
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-download-'));
    content = tarGzOf(3 * MiB + 17);
    sim.setBundleContent(content);
    jobId = String(sim.addExportJob({ queuedMs: 0, durationMs: 0, createdAt: sim.now() - 60_000 }).jobId);
  });

  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.stop()));
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
      ...over,
    };
  }

  /** Options for a link of our own (a raw server's), which never expires. */
  function linkTo(url: URL | string, sizeBytes?: number): Partial<DownloadOptions> {
    const link: IssuedLink = { bundle: { bundleUrl: String(url), ...(sizeBytes === undefined ? {} : { sizeBytes }) }, receivedAt: Date.now() };
    return { link: () => Promise.resolve(link), regenerate: () => Promise.reject(new Error('no new link here')), timeLeft: () => undefined };
  }

  function resumeFrom(range: string | undefined): number {
    const m = /^bytes=(\d+)-$/.exec(range ?? '');
    return m ? Number(m[1]) : -1;
  }

  function storageRequests() {
    return sim.requests.filter((r) => r.origin === 'storage');
  }

  function assertOnlyTarget(expected: string[] = ['docs.tar.gz']): void {
    assert.deepEqual(readdirSync(dir).sort(), expected.sort());
  }

  const saved = () => readFileSync(join(dir, 'docs.tar.gz'));

  async function failure(promise: Promise<DownloadResult>): Promise<Error> {
    try {
      await promise;
    } catch (error) {
      assert.ok(error instanceof Error);
      collector.recordError('download', error);
      return error;
    }
    assert.fail('expected the download to fail');
  }

  it('saves the bundle byte for byte once its archive is read through, with progress, and sends no Authorization to the storage', async () => {
    const progress: DownloadProgress[] = [];
    const result = await downloadBundle(options({ onProgress: (p) => progress.push(p) }));
    assert.ok(saved().equals(content));
    assert.equal(result.bytes, content.length);
    assert.equal(result.kind, 'tar.gz');
    assert.equal(result.requests, 1);
    const last = progress.at(-1);
    assert.deepEqual([last?.received, last?.checked, last?.phase], [content.length, content.length, 'check'], 'the last report: every byte on disk and read through');
    assertOnlyTarget();
    const storage = storageRequests();
    assert.equal(storage.length, 1);
    for (const r of storage) assert.equal(r.headers.authorization, undefined);
    // The API calls did carry it: the check above is not vacuous.
    assert.ok(sim.requests.some((r) => r.origin === 'api' && r.headers.authorization === `Bearer ${KEY}`));
    assert.ok(log.lines.some((line) => /Bundle saved to .* its tar\.gz read through to its end/.test(line)));
  });

  it('a zip bundle: every entry read and its CRC-32 checked; one changed byte in a stored entry is refused', async () => {
    const page = randomBytes(200_000);
    const good = zip([{ name: 'index.html', data: '<!doctype html><title>Docs</title>', deflate: true }, { name: 'assets/photo.jpg', data: page }]);
    sim.setBundleContent(good);
    const result = await downloadBundle(options());
    assert.equal(result.kind, 'zip');
    assert.ok(saved().equals(good));
    rmSync(join(dir, 'docs.tar.gz'));

    // The flipped byte sits in the stored (uncompressed) photo: sizes and directory are intact.
    sim.setStorageDelivery({ flipByteAt: good.indexOf(page) + 100_000 });
    const error = await failure(downloadBundle(options()));
    assert.ok(error instanceof UnsafeArchiveError && error.reason === 'corrupt', String(error));
    assert.match(error.message, /photo\.jpg does not match its CRC-32/);
    assertOnlyTarget([]);
  });

  it('resumes a truncated body with a Range request; the check follows across the resume', async () => {
    sim.injectFault({ route: 'storage.get', kind: 'truncate', afterBytes: 1_000_000 });
    const result = await downloadBundle(options());
    assert.ok(saved().equals(content));
    assert.equal(result.resumes, 1);
    assert.equal(result.restarts, 0);
    const storage = storageRequests();
    assert.equal(storage.length, 2);
    // The resume asks from where the file had reached (what the dropped socket delivered).
    assert.ok(resumeFrom(storage[1]?.headers.range) > 0 && resumeFrom(storage[1]?.headers.range) <= 1_000_000, storage[1]?.headers.range);
  });

  it('resumes after the connection is reset (RST) mid-stream, several times', async () => {
    sim.injectFault({ route: 'storage.get', kind: 'truncate', afterBytes: 700_000, reset: true, times: 3 });
    const result = await downloadBundle(options());
    assert.ok(saved().equals(content));
    assert.equal(result.resumes, 3);
    const ranges = storageRequests().map((r) => r.headers.range);
    assert.equal(ranges.length, 4);
    assert.equal(ranges[0], undefined);
    // A reset can discard bytes still in flight, so a resume may start where the last one did
    // (or from 0, without Range); it never asks for bytes the file does not hold.
    let previous = 0;
    for (const range of ranges.slice(1)) {
      const start = range === undefined ? 0 : resumeFrom(range);
      assert.ok(start >= 0 && start <= previous + 700_000, `resume from ${start}`);
      previous = start;
    }
  });

  it('resumes a body that stalls, after the idle timeout', async () => {
    sim.injectFault({ route: 'storage.get', kind: 'stall', afterBytes: 500_000 });
    const result = await downloadBundle(options({ idleTimeoutMs: 300 }));
    assert.ok(saved().equals(content));
    assert.equal(result.resumes, 1);
  });

  it('regenerates a link that expired mid-download, then resumes', async () => {
    sim.injectFault({ route: 'storage.get', kind: 'truncate', afterBytes: 1_000_000 });
    let advanced = false;
    const result = await downloadBundle(
      options({
        onProgress: () => {
          if (advanced) return;
          advanced = true;
          sim.advance(2 * 3600_000);
        },
      }),
    );
    assert.ok(saved().equals(content));
    assert.equal(result.regenerations, 1);
    const storage = storageRequests();
    assert.deepEqual(storage.map((r) => r.status), [200, 403, 206]);
    assert.ok(resumeFrom(storage[2]?.headers.range) > 0);
    assert.equal(sim.requests.filter((r) => r.route === 'export.bundle').length, 2);
  });

  it('regenerates a link that expired before the download began, without a failed request', async () => {
    const links = new BundleLinks((id, o) => client.generateBundle(id, o));
    await links.fresh(jobId, 0);
    sim.advance(2 * 3600_000);
    const stale = { ...links.peek(jobId)!, receivedAt: Date.now() - 2 * 3600_000 };
    const result = await downloadBundle(options({ link: () => Promise.resolve(stale), regenerate: () => links.regenerate(jobId), timeLeft: (l) => links.timeLeft(l) }));
    assert.equal(result.regenerations, 1);
    assert.deepEqual(storageRequests().map((r) => r.status), [200]);
  });

  it('gives up with a clear message when the link keeps expiring', async () => {
    sim.setLinkTtlSeconds(0);
    const error = await failure(downloadBundle(options({ timeLeft: () => 60_000 })));
    assert.ok(error instanceof ExpiredLinkError, String(error));
    assert.match(error.message, /clock/);
    assertOnlyTarget([]);
  });

  it('restarts cleanly when the server ignores Range, and checks the archive from its start again', async () => {
    sim.injectFault({ route: 'storage.get', kind: 'truncate', afterBytes: 1_000_000 });
    sim.injectFault({ route: 'storage.get', kind: 'ignoreRange' });
    const result = await downloadBundle(options());
    assert.ok(saved().equals(content));
    assert.equal(result.restarts, 1);
    assert.deepEqual(storageRequests().map((r) => r.status), [200, 200]);
  });

  it('refuses a bundle whose size differs from sizeBytes, leaving nothing behind', async () => {
    sim.setReportedSize(content.length + 10);
    const error = await failure(downloadBundle(options()));
    assert.ok(error instanceof BundleDownloadError && error.reason === 'size', String(error));
    assert.match(error.message, /bytes/);
    assertOnlyTarget([]);
  });

  it('cancels at any point, leaving nothing behind', async () => {
    const controller = new AbortController();
    sim.injectFault({ route: 'storage.get', kind: 'stall', afterBytes: 200_000 });
    const promise = downloadBundle(options({ signal: controller.signal, onProgress: () => controller.abort() }));
    const error = await failure(promise);
    assert.ok(error instanceof AbortedError, String(error));
    assertOnlyTarget([]);

    // And before anything was asked.
    const before = new AbortController();
    before.abort();
    assert.ok((await failure(downloadBundle(options({ signal: before.signal })))) instanceof AbortedError);
    assertOnlyTarget([]);
  });

  it('never replaces an existing file unless told, and then only with a complete one', async () => {
    const target = join(dir, 'docs.tar.gz');
    writeFileSync(target, 'the old bundle');
    const refused = await failure(downloadBundle(options()));
    assert.ok(refused instanceof BundleDownloadError && refused.reason === 'exists');
    assert.equal(readFileSync(target, 'utf8'), 'the old bundle');
    assert.equal(storageRequests().length, 0);

    // A failed download with replace agreed keeps the old file.
    sim.setReportedSize(1);
    await failure(downloadBundle(options({ replace: true })));
    assert.equal(readFileSync(target, 'utf8'), 'the old bundle');
    assertOnlyTarget();

    sim.setReportedSize(undefined);
    await downloadBundle(options({ replace: true }));
    assert.ok(readFileSync(target).equals(content));
    assertOnlyTarget();
  });

  it('bytes that are no archive (an HTML page, random bytes) are refused from their first bytes, nothing saved', async () => {
    sim.setBundleContent(Buffer.from(`<!doctype html><html><body>${'502 Bad Gateway '.repeat(100)}</body></html>`));
    const page = await failure(downloadBundle(options()));
    assert.ok(page instanceof UnsafeArchiveError && page.reason === 'notAnArchive', String(page));
    assert.match(page.message, /HTML or XML page/);
    assertOnlyTarget([]);

    // 3 MiB of random bytes: refused once the first bytes are on disk, before the rest is asked for.
    sim.setBundleContent(randomBytes(3 * MiB));
    sim.setStorageDelivery({ pieceBytes: 16 * 1024, pieceGapMs: 2 });
    const random = await failure(downloadBundle(options()));
    assert.ok(random instanceof UnsafeArchiveError && random.reason === 'notAnArchive', String(random));
    assertOnlyTarget([]);
  });

  it('reports a missing object and a storage error with what to do', async () => {
    sim.injectFault({ route: 'storage.get', kind: 'status', status: 404, body: '<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>' });
    const missing = await failure(downloadBundle(options()));
    assert.ok(missing instanceof BundleDownloadError && missing.reason === 'http');
    assert.match(missing.message, /NoSuchKey.*start a new export/);
    assertOnlyTarget([]);
  });

  it('retries 5xx from the storage, and gives up after attempts without progress', async () => {
    sim.injectFault({ route: 'storage.get', kind: 'status', status: 503, times: 2 });
    await downloadBundle(options());
    assert.ok(saved().equals(content));
    rmSync(join(dir, 'docs.tar.gz'));

    sim.injectFault({ route: 'storage.get', kind: 'status', status: 500, times: null });
    const error = await failure(downloadBundle(options({ maxStalledAttempts: 3 })));
    assert.ok(error instanceof BundleDownloadError && error.reason === 'network', String(error));
    assert.match(error.message, /3 times in a row/);
    assertOnlyTarget([]);
  });

  it('refuses a link that is not https: or loopback http:', async () => {
    const error = await failure(downloadBundle(options(linkTo('http://storage.example.com/b.tar.gz?X-Amz-Signature=00'))));
    assert.ok(error instanceof BundleDownloadError && error.reason === 'link');
    assertOnlyTarget([]);
  });

  describe('without a declared size (no sizeBytes, no Content-Length: the body ends when the connection closes)', () => {
    /** A TLS store that answers each request with `answer(range)`: bytes to send before closing, or a status line. */
    async function closingStore(answer: (range: string | undefined) => { head: string; body?: Buffer }): Promise<RawServer> {
      const server = await rawServer(async (socket, request) => {
        const range = /\r\nrange: ([^\r]+)/i.exec(request)?.[1];
        const { head, body } = answer(range);
        await send(socket, [`${head}\r\nConnection: close\r\n\r\n`, ...(body === undefined ? [] : [body])], 1);
        socket.end();
      }, pki);
      servers.push(server);
      return server;
    }

    it('a whole archive before the close: saved, one request', async () => {
      const store = await closingStore(() => ({ head: 'HTTP/1.1 200 OK', body: content }));
      const result = await downloadBundle(options(linkTo(store.url())));
      assert.ok(saved().equals(content));
      assert.equal(result.requests, 1);
    });

    it('a close before the archive ends: not complete; the rest is asked for, and the archive checks out', async () => {
      const half = Math.floor(content.length / 2);
      const store = await closingStore((range) =>
        range === undefined ? { head: 'HTTP/1.1 200 OK', body: content.subarray(0, half) } : { head: `HTTP/1.1 206 Partial Content\r\nContent-Range: bytes ${half}-${content.length - 1}/*`, body: content.subarray(half) },
      );
      const result = await downloadBundle(options(linkTo(store.url())));
      assert.ok(saved().equals(content));
      assert.equal(result.requests, 2);
      assert.match(store.requests[1] ?? '', new RegExp(`\\r\\nrange: bytes=${half}-\\r\\n`, 'i'));
    });

    it('a close before the archive ends, and the store has nothing more (416): damaged, nothing saved', async () => {
      const half = Math.floor(content.length / 2);
      const store = await closingStore((range) => (range === undefined ? { head: 'HTTP/1.1 200 OK', body: content.subarray(0, half) } : { head: `HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */${half}\r\nContent-Length: 0` }));
      const error = await failure(downloadBundle(options(linkTo(store.url()))));
      assert.ok(error instanceof UnsafeArchiveError && error.reason === 'corrupt', String(error));
      assert.match(error.message, /damaged or incomplete \(unexpected end of file\)/);
      assertOnlyTarget([]);
    });
  });

  describe("deadlines for the answer's head", () => {
    it('an endless run of 1xx answers ends as a network error, not a hang', async () => {
      const store = await rawServer(async (socket) => {
        for (let i = 0; i < 400 && !socket.destroyed; i++) await send(socket, ['HTTP/1.1 102 Processing\r\n\r\n'], 0).then(() => new Promise((r) => setTimeout(r, 10)));
      }, pki);
      servers.push(store);
      const started = Date.now();
      const error = await failure(downloadBundle(options({ ...linkTo(store.url(), content.length), headTimeoutMs: 400, maxStalledAttempts: 2 })));
      assert.ok(error instanceof BundleDownloadError && error.reason === 'network', String(error));
      assert.match(error.message, /no answer from 127\.0\.0\.1:\d+ within 400 ms of asking/);
      assert.ok(Date.now() - started < 5_000, `ended after ${Date.now() - started} ms`);
      assert.equal(store.connections, 2);
      assertOnlyTarget([]);
    });

    it('a head sent a byte at a time ends as a network error, whatever the idle timeout', async () => {
      const head = `HTTP/1.1 200 OK\r\nContent-Length: ${content.length}\r\nX-Padding: ${'x'.repeat(200)}\r\n\r\n`;
      const store = await rawServer((socket) => send(socket, [...head], 5), pki);
      servers.push(store);
      const error = await failure(downloadBundle(options({ ...linkTo(store.url(), content.length), headTimeoutMs: 400, idleTimeoutMs: 10_000, maxStalledAttempts: 2 })));
      assert.ok(error instanceof BundleDownloadError && error.reason === 'network', String(error));
      assert.match(error.message, /within 400 ms of asking/);
      assertOnlyTarget([]);
    });
  });

  describe('redirects', () => {
    const linkPath = async () => {
      const url = new URL((await client.generateBundle(jobId)).bundleUrl);
      return { url, port: url.port, pathAndQuery: `${url.pathname}${url.search}` };
    };

    it('an https: link is never followed to plain http:', async () => {
      const { port, pathAndQuery } = await linkPath();
      sim.injectFault({ route: 'storage.get', kind: 'redirect', status: 302, location: `http://127.0.0.1:${port}${pathAndQuery}` });
      const error = await failure(downloadBundle(options()));
      assert.ok(error instanceof BundleDownloadError && error.reason === 'link', String(error));
      assert.match(error.message, /redirected an https: download to plain http: \(http:\/\/127\.0\.0\.1:\d+\/bundles\/[^?]+\?\[redacted\]\)/);
      assert.equal(storageRequests().length, 1);
      assertOnlyTarget([]);
    });

    it('a link on this machine may redirect on this machine (the test stores are there)', async () => {
      const { port, pathAndQuery } = await linkPath();
      sim.injectFault({ route: 'storage.get', kind: 'redirect', status: 307, location: `https://localhost:${port}${pathAndQuery}` });
      const result = await downloadBundle(options());
      assert.ok(saved().equals(content));
      assert.equal(result.requests, 1);
      assert.deepEqual(storageRequests().map((r) => r.status), [307, 200]);
    });

    it('a link on the internet is never followed to this machine or its local network', async () => {
      // The link names a host on the internet, which a proxy resolves (here, to the test store).
      const proxy = await TestProxy.start({ hosts: { 'storage.example.com': '127.0.0.1' } });
      try {
        const { url, port, pathAndQuery } = await linkPath();
        url.hostname = 'storage.example.com';
        // The certificate names 127.0.0.1 and localhost, not storage.example.com: trust aside, this is about where the redirect leads.
        const viaProxy = new Network({ proxy: proxy.url, strictSSL: false }, { env: {} });
        for (const location of [`https://127.0.0.1:${port}${pathAndQuery}`, `https://10.20.30.40${pathAndQuery}`, `https://[::1]:${port}${pathAndQuery}`, `https://169.254.169.254/latest/meta-data/`]) {
          sim.clearRequests();
          proxy.clear();
          sim.injectFault({ route: 'storage.get', kind: 'redirect', status: 302, location });
          const error = await failure(downloadBundle(options({ ...linkTo(url, content.length), network: viaProxy })));
          assert.ok(error instanceof BundleDownloadError && error.reason === 'link', `${location}: ${String(error)}`);
          assert.match(error.message, /on this machine or its local network; it was not followed/);
          assert.deepEqual(proxy.log.map((e) => e.target), [`storage.example.com:${port}`], `${location}: only the link itself was asked for`);
          assert.equal(storageRequests().length, 1);
        }
        assertOnlyTarget([]);
      } finally {
        await proxy.stop();
      }
    });
  });

  describe('writing the body to the file', () => {
    /** The answer as the download gets it, noting whether it was dropped. */
    async function body(): Promise<StorageResponse & { dropped: boolean }> {
      const link = await client.generateBundle(jobId);
      const storage = new StorageClient({ network, connectTimeoutMs: 5_000, headTimeoutMs: 5_000, idleTimeoutMs: 5_000, log });
      const res = await storage.get(new URL(link.bundleUrl), {});
      const watched = {
        statusCode: res.statusCode,
        headers: res.headers,
        dropped: false,
        read: (handlers: Parameters<StorageResponse['read']>[0]) => res.read(handlers),
        pause: () => res.pause(),
        resume: () => res.resume(),
        destroy: () => {
          watched.dropped = true;
          res.destroy();
        },
      };
      return watched;
    }

    const counting = (into: { n: number }) => ({ taken: (n: number) => void (into.n += n) });

    it('writes every byte at the position asked, counting them as they come, and tells how far they are on disk, in order', async () => {
      const path = join(dir, 'body.bin');
      writeFileSync(path, Buffer.alloc(10, 0x61));
      const counted = { n: 0 };
      const written: number[] = [];
      assert.equal(await writeBody(await body(), path, 10, { ...counting(counted), written: (end) => written.push(end) }), undefined);
      assert.equal(counted.n, content.length);
      const file = readFileSync(path);
      assert.ok(file.subarray(0, 10).equals(Buffer.alloc(10, 0x61)));
      assert.ok(file.subarray(10).equals(content));
      assert.deepEqual(written, [...written].sort((a, b) => a - b), 'in order');
      assert.equal(written.at(-1), 10 + content.length);
    });

    it('a connection dropped mid-body: what came is in the file, and the drop comes back', async () => {
      sim.injectFault({ route: 'storage.get', kind: 'truncate', afterBytes: 1_000_000 });
      const path = join(dir, 'body.bin');
      const counted = { n: 0 };
      const failure = await writeBody(await body(), path, 0, counting(counted));
      assert.ok(failure instanceof Error, String(failure));
      const written = readFileSync(path);
      assert.equal(written.length, counted.n);
      assert.ok(written.length <= 1_000_000);
      assert.ok(written.equals(content.subarray(0, written.length)));
    });

    it('a body ended without an error (destroyed elsewhere): settles with what came, never hangs', async () => {
      const path = join(dir, 'body.bin');
      const res = await body();
      let counted = 0;
      const failure = await writeBody(res, path, 0, {
        taken: (n) => {
          counted += n;
          if (!res.dropped) res.destroy();
        },
      });
      assert.equal((failure as NodeJS.ErrnoException).code, 'ECONNRESET');
      assert.ok(counted > 0 && counted < content.length);
      assert.equal(readFileSync(path).length, counted);
    });

    it('a slow disk: one write under way at a time, reading waits, memory stays flat, and every byte lands', async () => {
      content = tarGzOf(8 * MiB);
      sim.setBundleContent(content);
      const path = join(dir, 'body.bin');
      let busy = 0;
      let most = 0;
      let largest = 0;
      const slow: typeof writeAll = (fd, buffers, at, done) => {
        most = Math.max(most, ++busy);
        largest = Math.max(largest, buffers.reduce((n, b) => n + b.length, 0));
        setTimeout(() => writeAll(fd, buffers, at, (error) => {
          busy--;
          done(error);
        }), 30);
      };
      const res = await body();
      let paused = 0;
      const pause = res.pause.bind(res);
      res.pause = () => {
        paused++;
        pause();
      };
      assert.equal(await writeBody(res, path, 0, { taken: () => undefined }, slow), undefined);
      assert.equal(most, 1);
      assert.equal(largest, MiB);
      assert.ok(paused > 0, 'reading never waited for the disk');
      assert.ok(readFileSync(path).equals(content));
    });

    it('a write that fails: the file is cut back to the blocks before it, with no gap, nothing past it is told as written, and the connection is dropped', async () => {
      content = tarGzOf(6 * MiB);
      sim.setBundleContent(content);
      const path = join(dir, 'body.bin');
      let blocks = 0;
      let failedAt = -1;
      const written: number[] = [];
      // The 3rd block fails after a while, with the next ones read and waiting.
      const flaky: typeof writeAll = (fd, buffers, at, done) => {
        const index = blocks++;
        if (index === 2) {
          failedAt = at;
          setTimeout(() => done(Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' })), 50);
          return;
        }
        writeAll(fd, buffers, at, done);
      };
      const res = await body();
      const failure = await writeBody(res, path, 0, { taken: () => undefined, written: (end) => written.push(end) }, flaky);
      assert.equal((failure as NodeJS.ErrnoException).code, 'EIO');
      assert.equal(blocks, 3, 'no block is written after the one that failed');
      assert.ok(failedAt > 0);
      assert.ok(res.dropped);
      const file = readFileSync(path);
      assert.equal(file.length, failedAt);
      assert.ok(file.equals(content.subarray(0, failedAt)));
      assert.equal(written.at(-1), failedAt, 'told as written: up to the failed block, no further');
    });

    itOnLinux('a full disk: the error comes back and the connection is dropped', "/dev/full is Linux's", async () => {
      const res = await body();
      const failure = await writeBody(res, '/dev/full', 0, { taken: () => undefined });
      assert.equal((failure as NodeJS.ErrnoException).code, 'ENOSPC');
      assert.ok(res.dropped);
    });

    it('a file that cannot be opened: the error comes back and the connection is dropped', async () => {
      const res = await body();
      const failure = await writeBody(res, join(dir, 'missing', 'body.bin'), 0, { taken: () => undefined });
      assert.equal((failure as NodeJS.ErrnoException).code, 'ENOENT');
      assert.ok(res.dropped);
    });
  });
});
