/**
 * Reliability matrix, the download in byte ranges (several connections at once), from a store
 * over TLS as every real one is: one range truncated, one range's connection reset, the link
 * expiring between ranges, a store that ignores `Range`, a range that fails for good, a cancel,
 * a byte flipped in one range. Each case asserts what the user gets (the bundle byte for byte,
 * or a typed error saying what to do) and what is left (the file at the target, or nothing: no
 * temporary file).
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AbortedError } from '../../../src/core/abort';
import { AdminApiClient } from '../../../src/core/api/client';
import { downloadBundle, type DownloadOptions, type DownloadResult } from '../../../src/core/bundle/download/download';
import { BundleDownloadError } from '../../../src/core/bundle/download/downloadErrors';
import { splitRanges } from '../../../src/core/bundle/download/ranged';
import { BundleLinks } from '../../../src/core/bundle/links/linkCache';
import { Simulator } from '../../simulator';
import { recordingLogger } from '../support/logger';
import { tarGzOf, tlsStorage, trustingNetwork } from '../support/tlsStore';
import { UnsafeArchiveError } from '../../../src/core/bundle/extract/archivePaths';

const KEY = 'da_test_ranges_key_7d2e';
const MiB = 1024 * 1024;

describe('reliability: the download in byte ranges @ranges', function () {
  this.timeout(30_000);
  let sim: Simulator;
  let client: AdminApiClient;
  let dir: string;
  let content: Buffer;
  let jobId: string;
  const log = recordingLogger('ranges');

  beforeEach(async () => {
    log.lines.length = 0;
    sim = await Simulator.start({ keys: [{ key: KEY }], linkTtlSeconds: 3600, ...tlsStorage() });
    client = new AdminApiClient({ baseUrl: sim.baseUrl, projectId: sim.projectId, getKey: () => KEY, log });
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-ranges-'));
    content = tarGzOf(4 * MiB + 17);
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
      network: trustingNetwork(),
      sleep: () => Promise.resolve(),
      connections: 4,
      parallelFromBytes: MiB,
      ...over,
    };
  }

  const storage = () => sim.requests.filter((r) => r.origin === 'storage');
  const ranges = () => storage().map((r) => r.headers.range);
  const saved = () => readFileSync(join(dir, 'docs.tar.gz'));
  const left = () => readdirSync(dir).sort();

  async function failure(promise: Promise<DownloadResult>): Promise<Error> {
    try {
      await promise;
    } catch (error) {
      assert.ok(error instanceof Error);
      return error;
    }
    assert.fail('expected the download to fail');
  }

  /** The four ranges asked first, as `bytes=a-b`. */
  function firstRanges(): string[] {
    return splitRanges(content.length, 4).map((r) => `bytes=${r.start}-${r.end}`);
  }

  it('@control four ranges at once, one request each, the bundle byte for byte', async () => {
    const result = await downloadBundle(options());
    assert.ok(saved().equals(content));
    assert.equal(result.requests, 4);
    assert.deepEqual(ranges().sort(), firstRanges().sort());
    assert.deepEqual(left(), ['docs.tar.gz']);
    for (const r of storage()) assert.equal(r.headers.authorization, undefined);
  });

  it('@control below the size threshold, or with connections: 1, one stream without Range', async () => {
    await downloadBundle(options({ parallelFromBytes: 64 * MiB }));
    rmSync(join(dir, 'docs.tar.gz'));
    await downloadBundle(options({ connections: 1 }));
    assert.deepEqual(ranges(), [undefined, undefined]);
    assert.ok(saved().equals(content));
  });

  it('one range truncated: that range alone resumes from where its bytes reached the disk', async () => {
    sim.injectFault({ route: 'storage.get', kind: 'truncate', afterBytes: 300_000 });
    const result = await downloadBundle(options());
    assert.ok(saved().equals(content));
    assert.equal(result.resumes, 1);
    assert.equal(result.restarts, 0);
    assert.equal(result.requests, 5);
    const cut = storage()[0]?.headers.range ?? '';
    const [, start, end] = /^bytes=(\d+)-(\d+)$/.exec(cut) ?? [];
    const resume = ranges().slice(4)[0] ?? '';
    const [, from, to] = /^bytes=(\d+)-(\d+)$/.exec(resume) ?? [];
    assert.equal(to, end, `the resume ends where the cut range did: ${resume} after ${cut}`);
    assert.ok(Number(from) > Number(start) && Number(from) <= Number(start) + 300_000, `resumes inside what came: ${resume} after ${cut}`);
    assert.deepEqual(left(), ['docs.tar.gz']);
  });

  it("one range's connection reset (RST), three times: resumed each time, no gap, no overlap into another range", async () => {
    sim.injectFault({ route: 'storage.get', kind: 'truncate', afterBytes: 200_000, reset: true, times: 3 });
    const result = await downloadBundle(options());
    assert.ok(saved().equals(content));
    assert.equal(result.resumes, 3);
    const asked = new Set(firstRanges().map((r) => r.split('-')[1]));
    for (const range of ranges()) assert.ok(asked.has(range?.split('-')[1]), `every request ends where a range ends: ${range}`);
    assert.deepEqual(left(), ['docs.tar.gz']);
  });

  it('the link expires between ranges: one new link for all of them, and the missing ranges resume', async () => {
    sim.injectFault({ route: 'storage.get', kind: 'truncate', afterBytes: 300_000, times: 2 });
    // The link expires once the store has answered all four ranges with it, and not before: a
    // range asked for after that would meet a 403 and take one of the two truncations with it
    // (seen under load). The resumes wait (their sleep) for the expiry, so each of them meets it.
    let expiry: Promise<void> | undefined;
    const expire = async (): Promise<void> => {
      while (storage().length < 4) await new Promise((resolve) => setTimeout(resolve, 5));
      sim.advance(2 * 3600_000);
    };
    const result = await downloadBundle(options({ sleep: () => (expiry ??= expire()) }));
    assert.ok(saved().equals(content));
    assert.equal(result.regenerations, 1);
    assert.equal(sim.requests.filter((r) => r.route === 'export.bundle').length, 2);
    const statuses = storage().map((r) => r.status);
    assert.ok(statuses.includes(403), `the old link was refused: ${statuses.join(',')}`);
    assert.equal(statuses.filter((s) => s === 206).length, 4 + 2, `four ranges, then two resumed: ${statuses.join(',')}`);
    assert.deepEqual(left(), ['docs.tar.gz']);
  });

  it('a store that ignores Range: starts over on one connection, and the bundle is whole', async () => {
    sim.injectFault({ route: 'storage.get', kind: 'ignoreRange', times: null });
    const result = await downloadBundle(options());
    assert.ok(saved().equals(content));
    assert.equal(result.restarts, 1);
    assert.equal(storage().at(-1)?.headers.range, undefined, 'the last request is one plain GET');
    // The first answer stops the other ranges: none of them retries (they once did, until they gave up).
    const retried = log.lines.filter((line) => /Bundle download, range .*; retry at byte/.test(line));
    assert.deepEqual(retried, []);
    assert.deepEqual(left(), ['docs.tar.gz']);
  });

  it('a range refused for good (404): the others stop, a message says what to do, nothing is left', async () => {
    sim.injectFault({ route: 'storage.get', kind: 'status', status: 404, body: '<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>' });
    const error = await failure(downloadBundle(options()));
    assert.ok(error instanceof BundleDownloadError && error.reason === 'http', String(error));
    assert.match(error.message, /start a new export/);
    assert.deepEqual(left(), []);
  });

  it('a range that keeps failing without progress: gives up, nothing is left', async () => {
    sim.injectFault({ route: 'storage.get', kind: 'status', status: 503, times: null });
    const error = await failure(downloadBundle(options({ maxStalledAttempts: 3 })));
    assert.ok(error instanceof BundleDownloadError && error.reason === 'network', String(error));
    assert.match(error.message, /3 times in a row/);
    assert.deepEqual(left(), []);
  });

  it('cancelled while the ranges stream: nothing is left, and no write lands after', async () => {
    sim.injectFault({ route: 'storage.get', kind: 'stall', afterBytes: 100_000, times: 4 });
    const controller = new AbortController();
    const error = await failure(downloadBundle(options({ signal: controller.signal, onProgress: () => controller.abort() })));
    assert.ok(error instanceof AbortedError, String(error));
    assert.deepEqual(left(), []);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(left(), []);
  });

  it('a store that flips one byte in one range, the length right: refused as damaged, the other ranges stopped, nothing is left', async () => {
    sim.setStorageDelivery({ flipByteAt: (splitRanges(content.length, 4)[2]?.start ?? 0) + 1000 });
    const error = await failure(downloadBundle(options()));
    assert.ok(error instanceof UnsafeArchiveError && error.reason === 'corrupt', String(error));
    assert.match(error.message, /^The downloaded bundle is damaged or incomplete \(.+\): its bytes are not the archive the export made\. Nothing was saved\. Download it again; if it happens again, the stored bundle itself is damaged: start a new export\.$/);
    assert.deepEqual(left(), []);
  });

  it('a store that sends another size than the API said: refused, nothing is left', async () => {
    sim.setReportedSize(content.length + 10);
    const error = await failure(downloadBundle(options()));
    assert.ok(error instanceof BundleDownloadError && error.reason === 'size', String(error));
    assert.deepEqual(left(), []);
  });
});
