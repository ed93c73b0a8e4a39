import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { downloadBundle, type DownloadOptions, type DownloadResult } from '../../src/core/bundle/download/download';
import { BundleDownloadError, ExpiredLinkError } from '../../src/core/bundle/download/errors';
import { BundleLinks } from '../../src/core/bundle/links/linkCache';
import { writeAll, writeBody } from '../../src/core/bundle/download/bodyFile';
import { fromIncoming, type StorageResponse } from '../../src/core/bundle/download/response';
import { StorageClient } from '../../src/core/bundle/download/storage';
import { verifyArchive } from '../../src/core/bundle/extract/verify';
import { Simulator } from '../simulator';
import { collector } from './support/collector';
import { recordingLogger } from './support/logger';
import { AbortedError } from '../../src/core/abort';
import { AdminApiClient } from '../../src/core/api/client';
import { UnsafeArchiveError } from '../../src/core/bundle/extract/archivePaths';

const KEY = 'da_test_download_key_51c0';

describe('bundle download', function () {
  let sim: Simulator;
  let client: AdminApiClient;
  let dir: string;
  let content: Buffer;
  let jobId: string;
  const log = recordingLogger('download');

  beforeEach(async () => {
    sim = await Simulator.start({ keys: [{ key: KEY }], linkTtlSeconds: 3600 });
    client = new AdminApiClient({ baseUrl: sim.baseUrl, projectId: sim.projectId, getKey: () => KEY, log });
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-download-'));
    content = randomBytes(3 * 1024 * 1024 + 17);
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
      log,
      sleep: () => Promise.resolve(),
      ...over,
    };
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

  it('saves the bundle, byte for byte, with progress, and sends no Authorization to the storage', async () => {
    const progress: number[] = [];
    const result = await downloadBundle(options({ onProgress: (p) => progress.push(p.received) }));
    assert.ok(readFileSync(join(dir, 'docs.tar.gz')).equals(content));
    assert.equal(result.bytes, content.length);
    assert.equal(result.requests, 1);
    assert.equal(progress.at(-1), content.length);
    assertOnlyTarget();
    const storage = storageRequests();
    assert.equal(storage.length, 1);
    for (const r of storage) assert.equal(r.headers.authorization, undefined);
    // The API calls did carry it: the check above is not vacuous.
    assert.ok(sim.requests.some((r) => r.origin === 'api' && r.headers.authorization === `Bearer ${KEY}`));
  });

  it('a real bundle passes the archive check and is saved', async () => {
    sim.setBundleContent(sim.defaultBundle());
    const result = await downloadBundle(options({ verify: verifyArchive }));
    assert.equal(result.bytes, sim.defaultBundle().length);
    assert.ok(readFileSync(join(dir, 'docs.tar.gz')).equals(sim.defaultBundle()));
  });

  it('resumes a truncated body with a Range request', async () => {
    sim.injectFault({ route: 'storage.get', kind: 'truncate', afterBytes: 1_000_000 });
    const result = await downloadBundle(options());
    assert.ok(readFileSync(join(dir, 'docs.tar.gz')).equals(content));
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
    assert.ok(readFileSync(join(dir, 'docs.tar.gz')).equals(content));
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
    assert.ok(readFileSync(join(dir, 'docs.tar.gz')).equals(content));
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
    assert.ok(readFileSync(join(dir, 'docs.tar.gz')).equals(content));
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

  it('restarts cleanly when the server ignores Range', async () => {
    sim.injectFault({ route: 'storage.get', kind: 'truncate', afterBytes: 1_000_000 });
    sim.injectFault({ route: 'storage.get', kind: 'ignoreRange' });
    const result = await downloadBundle(options());
    assert.ok(readFileSync(join(dir, 'docs.tar.gz')).equals(content));
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

  it('keeps the temporary file out of the target when the archive does not open', async () => {
    // The random bytes of these tests are no archive.
    const error = await failure(
      downloadBundle(
        options({
          verify: verifyArchive,
        }),
      ),
    );
    assert.ok(error instanceof UnsafeArchiveError && error.reason === 'notAnArchive', String(error));
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
    assert.ok(readFileSync(join(dir, 'docs.tar.gz')).equals(content));
    rmSync(join(dir, 'docs.tar.gz'));

    sim.injectFault({ route: 'storage.get', kind: 'status', status: 500, times: null });
    const error = await failure(downloadBundle(options({ maxStalledAttempts: 3 })));
    assert.ok(error instanceof BundleDownloadError && error.reason === 'network', String(error));
    assert.match(error.message, /3 times in a row/);
    assertOnlyTarget([]);
  });

  it('refuses a link that is not https: or loopback http:', async () => {
    const bad = { bundle: { bundleUrl: 'http://storage.example.com/b.tar.gz?X-Amz-Signature=00' }, receivedAt: Date.now() };
    const error = await failure(downloadBundle(options({ link: () => Promise.resolve(bad), timeLeft: () => undefined })));
    assert.ok(error instanceof BundleDownloadError && error.reason === 'link');
    assertOnlyTarget([]);
  });

  describe('writing the body to the file', () => {
    /** The answer as the download gets it (our own reader: the storage is on loopback), noting whether it was dropped. */
    async function body(): Promise<StorageResponse & { dropped: boolean }> {
      const link = await client.generateBundle(jobId);
      const storage = new StorageClient({ connectTimeoutMs: 5_000, idleTimeoutMs: 5_000, log });
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

    it('writes every byte at the position asked, counting them as they come', async () => {
      const path = join(dir, 'body.bin');
      writeFileSync(path, Buffer.alloc(10, 0x61));
      let counted = 0;
      assert.equal(await writeBody(await body(), path, 10, (n) => (counted += n)), undefined);
      assert.equal(counted, content.length);
      const written = readFileSync(path);
      assert.ok(written.subarray(0, 10).equals(Buffer.alloc(10, 0x61)));
      assert.ok(written.subarray(10).equals(content));
    });

    it('a connection dropped mid-body: what came is in the file, and the drop comes back', async () => {
      sim.injectFault({ route: 'storage.get', kind: 'truncate', afterBytes: 1_000_000 });
      const path = join(dir, 'body.bin');
      let counted = 0;
      const failure = await writeBody(await body(), path, 0, (n) => (counted += n));
      assert.ok(failure instanceof Error, String(failure));
      const written = readFileSync(path);
      assert.equal(written.length, counted);
      assert.ok(written.length <= 1_000_000);
      assert.ok(written.equals(content.subarray(0, written.length)));
    });

    it('a body ended without an error (destroyed elsewhere): settles with what came, never hangs', async () => {
      const path = join(dir, 'body.bin');
      const res = await body();
      let counted = 0;
      const failure = await writeBody(res, path, 0, (n) => {
        counted += n;
        if (!res.dropped) res.destroy();
      });
      assert.equal((failure as NodeJS.ErrnoException).code, 'ECONNRESET');
      assert.ok(counted > 0 && counted < content.length);
      assert.equal(readFileSync(path).length, counted);
    });

    it('a slow disk: one write under way at a time, reading waits, memory stays flat, and every byte lands', async () => {
      content = randomBytes(8 * 1024 * 1024);
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
      assert.equal(await writeBody(res, path, 0, () => undefined, slow), undefined);
      assert.equal(most, 1);
      assert.equal(largest, 1024 * 1024);
      assert.ok(paused > 0, 'reading never waited for the disk');
      assert.ok(readFileSync(path).equals(content));
    });

    it("Node's own response (through a proxy) is written the same way", async () => {
      const link = await client.generateBundle(jobId);
      const res = await new Promise<http.IncomingMessage>((resolve, reject) => http.get(link.bundleUrl, resolve).on('error', reject));
      const path = join(dir, 'body.bin');
      let counted = 0;
      assert.equal(await writeBody(fromIncoming(res), path, 0, (n) => (counted += n)), undefined);
      assert.equal(counted, content.length);
      assert.ok(readFileSync(path).equals(content));
    });

    it('a write that fails: the file is cut back to the blocks before it, with no gap, and the connection is dropped', async () => {
      content = randomBytes(6 * 1024 * 1024);
      sim.setBundleContent(content);
      const path = join(dir, 'body.bin');
      let blocks = 0;
      let failedAt = -1;
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
      const failure = await writeBody(res, path, 0, () => undefined, flaky);
      assert.equal((failure as NodeJS.ErrnoException).code, 'EIO');
      assert.equal(blocks, 3, 'no block is written after the one that failed');
      assert.ok(failedAt > 0);
      assert.ok(res.dropped);
      const written = readFileSync(path);
      assert.equal(written.length, failedAt);
      assert.ok(written.equals(content.subarray(0, failedAt)));
    });

    it('a full disk: the error comes back and the connection is dropped', async function () {
      if (!existsSync('/dev/full')) this.skip();
      const res = await body();
      const failure = await writeBody(res, '/dev/full', 0, () => undefined);
      assert.equal((failure as NodeJS.ErrnoException).code, 'ENOSPC');
      assert.ok(res.dropped);
    });

    it('a file that cannot be opened: the error comes back and the connection is dropped', async () => {
      const res = await body();
      const failure = await writeBody(res, join(dir, 'missing', 'body.bin'), 0, () => undefined);
      assert.equal((failure as NodeJS.ErrnoException).code, 'ENOENT');
      assert.ok(res.dropped);
    });
  });
});
