/**
 * The download's proof of content off its critical path (issue 37): the archive check runs on its
 * own thread and reads the very blocks the download wrote (lent to it, not copied, and given back),
 * not the file read back from the disk; the blocks are the download's whole buffer, so a check
 * that falls behind slows the reading instead of growing memory; and the result is the same: a
 * bundle is saved only once its archive was read through, a damaged one never.
 */
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { AdminApiClient } from '../../src/core/api/client';
import { writeBody } from '../../src/core/bundle/download/bodyFile';
import { BLOCK_BYTES, BlockPool } from '../../src/core/bundle/download/blocks';
import { downloadBundle, type DownloadOptions } from '../../src/core/bundle/download/download';
import { StorageClient } from '../../src/core/bundle/download/objectStore';
import { UnsafeArchiveError } from '../../src/core/bundle/extract/archivePaths';
import { BundleLinks } from '../../src/core/bundle/links/linkCache';
import { Simulator } from '../simulator';
import { rawTar } from './support/archives';
import { recordingLogger } from './support/logger';
import { itOnLinux } from './support/platform';

const KEY = 'da_test_download_proof_7e21';
const MiB = 1024 * 1024;

function tarGzOf(bytes: number): Buffer {
  return gzipSync(rawTar([{ name: 'index.html', data: '<!doctype html><title>Docs</title>' }, { name: 'assets/video.bin', data: randomBytes(bytes) }]), { level: 1 });
}

/** Bytes this process passed to read() and pread(), all its threads (Linux). */
function bytesRead(): number {
  const line = readFileSync('/proc/self/io', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('rchar:'));
  return Number(line?.split(/\s+/)[1]);
}

describe("the download's proof of content, on its own thread, from the download's own blocks", function () {
  this.timeout(60_000);
  let sim: Simulator;
  let client: AdminApiClient;
  let dir: string;
  let content: Buffer;
  let jobId: string;
  const log = recordingLogger('download');

  beforeEach(async () => {
    sim = await Simulator.start({ keys: [{ key: KEY }], linkTtlSeconds: 3600 });
    client = new AdminApiClient({ baseUrl: sim.baseUrl, projectId: sim.projectId, getKey: () => KEY, log });
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-proof-'));
    content = tarGzOf(24 * MiB);
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
    return { target: join(dir, 'docs.tar.gz'), link: () => links.fresh(jobId, 60_000), regenerate: () => links.regenerate(jobId), timeLeft: (link) => links.timeLeft(link), log, ...over };
  }

  itOnLinux('one connection: the file is not read back (the process reads the body from its socket, and not again from the disk)', 'It counts the bytes the process read from /proc/self/io, which only Linux has.', async () => {
    const before = bytesRead();
    const result = await downloadBundle(options({ connections: 1 }));
    const read = bytesRead() - before;
    assert.equal(result.kind, 'tar.gz');
    assert.ok(readFileSync(join(dir, 'docs.tar.gz')).equals(content));
    // The socket's bytes once (and a little: the API's answers, the first 512 bytes sniffed), never the file's again.
    assert.ok(read < content.length * 1.25, `read ${read} bytes for a bundle of ${content.length}: the archive was read back from the disk`);
  });

  it('four ranges: saved byte for byte, and a flipped byte in the first range (lent) or the last (read from the file) refused, nothing left', async () => {
    const result = await downloadBundle(options({ connections: 4, parallelFromBytes: MiB }));
    assert.equal(result.kind, 'tar.gz');
    assert.ok(readFileSync(join(dir, 'docs.tar.gz')).equals(content));
    rmSync(join(dir, 'docs.tar.gz'));
    for (const at of [Math.floor(content.length / 8), content.length - 5 * MiB]) {
      sim.setStorageDelivery({ flipByteAt: at });
      await assert.rejects(downloadBundle(options({ connections: 4, parallelFromBytes: MiB })), (error: unknown) => error instanceof UnsafeArchiveError && error.reason === 'corrupt');
      assert.deepEqual(readdirSync(dir), [], `a byte flipped at ${at}: nothing at the target, no temporary file`);
    }
  });

  it('a check that falls behind: the body stops reading when the blocks are all out, memory stays within the pool, and every byte lands once they come back', async () => {
    const storage = new StorageClient({ connectTimeoutMs: 5_000, headTimeoutMs: 5_000, idleTimeoutMs: 5_000, log });
    const link = await client.generateBundle(jobId);
    const res = await storage.get(new URL(link.bundleUrl), {});
    let paused = 0;
    const pause = res.pause.bind(res);
    res.pause = () => {
      paused++;
      pause();
    };
    const pool = new BlockPool(4);
    const taken = { most: 0, out: 0 };
    const take = pool.take.bind(pool);
    pool.take = () => {
      taken.most = Math.max(taken.most, ++taken.out);
      return take();
    };
    const held: Buffer[] = [];
    // The "check" keeps every block it is lent for 40 ms, then gives it back.
    const lend = (_at: number, block: Buffer) => {
      held.push(block);
      setTimeout(() => {
        taken.out--;
        pool.give(block);
      }, 40);
      return true;
    };
    const path = join(dir, 'body.bin');
    try {
      const failure = await writeBody(res, path, 0, { taken: () => undefined, lend }, undefined, pool);
      assert.equal(failure, undefined);
    } finally {
      storage.close();
    }
    assert.ok(readFileSync(path).equals(content), 'every byte landed');
    assert.ok(paused > 0, 'reading never waited for the blocks to come back');
    assert.ok(taken.most <= pool.max + 1, `${taken.most} blocks out at once, for a pool of ${pool.max}`);
    assert.ok(new Set(held).size <= pool.max + 1, `${new Set(held).size} different blocks made`);
    assert.ok(held.every((b) => b.length === BLOCK_BYTES));
  });
});

describe('the block pool (blocks.ts)', () => {
  it('gives a freed block to the body that waited longest, and to the next when that one no longer reads', () => {
    const pool = new BlockPool(1);
    const block = pool.take();
    assert.equal(pool.short(), true);
    const woken: string[] = [];
    pool.whenFree(() => (woken.push('ended'), false));
    pool.whenFree(() => (woken.push('reading'), true));
    pool.whenFree(() => (woken.push('last'), true));
    pool.give(block);
    assert.deepEqual(woken, ['ended', 'reading'], 'one block: one body goes on; the one that had ended passes it along');
    assert.equal(pool.take(), block, 'the same memory again, not a new block');
  });

  it('lets go of blocks made past its size once nobody waits, and counts a block lost with a thread', () => {
    const pool = new BlockPool(1);
    const [a, b] = [pool.take(), pool.take()];
    assert.notEqual(a, b);
    pool.give(a);
    assert.equal(pool.short(), true, 'the extra one was let go: one block out, none free');
    pool.lost();
    assert.equal(pool.short(), false, 'the lost block no longer counts');
    void b;
  });
});
