/**
 * The archive check of a bundle file (Import's; a download's runs the same on its file as it
 * is written): read through to its end, a tar.gz and a zip alike, on the archive worker.
 */
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { AbortedError } from '../../src/core/abort';
import { verifyArchive } from '../../src/core/bundle/extract/verify';
import { buildSiteArchive } from '../simulator/site';
import { UnsafeArchiveError } from '../../src/core/bundle/extract/archivePaths';
import { rawTar, zip } from './support/archives';

describe('a bundle file is checked through to its end', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-verify-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  function file(name: string, content: Buffer | string): string {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  }

  async function refusal(path: string): Promise<string> {
    try {
      await verifyArchive(path);
    } catch (error) {
      assert.ok(error instanceof UnsafeArchiveError && (error.reason === 'notAnArchive' || error.reason === 'corrupt'), String(error));
      return error.message;
    }
    assert.fail('expected a refusal');
  }

  it('accepts a real tar.gz bundle, a multi-member gzip, one padded with zeros, and a zip', async () => {
    const tar = rawTar([{ name: 'index.html', data: '<title>Docs</title>' }, { name: 'big.bin', data: randomBytes(300_000) }]);
    assert.equal(await verifyArchive(file('site.tar.gz', buildSiteArchive())), 'tar.gz');
    // gzip -c a b > ab.gz: two members, one tar across them.
    assert.equal(await verifyArchive(file('members.tar.gz', Buffer.concat([gzipSync(tar.subarray(0, 100_000)), gzipSync(tar.subarray(100_000))]))), 'tar.gz');
    assert.equal(await verifyArchive(file('padded.tar.gz', Buffer.concat([gzipSync(tar), Buffer.alloc(10_240)]))), 'tar.gz');
    assert.equal(await verifyArchive(file('site.zip', zip([{ name: 'index.html', data: '<title>Docs</title>', deflate: true }, { name: 'img/a.png', data: randomBytes(50_000) }]))), 'zip');
  });

  it('says what the file is when it is not an archive', async () => {
    assert.match(await refusal(file('page.tar.gz', '<!DOCTYPE html><html><body>502 Bad Gateway</body></html>')), /HTML or XML page.*error page/);
    assert.match(await refusal(file('s3.tar.gz', '<?xml version="1.0"?><Error><Code>AccessDenied</Code></Error>')), /HTML or XML page.*expired link/);
    assert.match(await refusal(file('empty.tar.gz', '')), /is empty/);
    assert.match(await refusal(file('json.tar.gz', '{"error":"nope"}')), /not a tar\.gz or zip/);
  });

  it('refuses a gzip cut short, one whose content is not a tar, a tar without its end, and one byte changed anywhere', async () => {
    const real = buildSiteArchive();
    assert.match(await refusal(file('cut.tar.gz', real.subarray(0, 12))), /damaged or incomplete \(unexpected end of file\)/);
    assert.match(await refusal(file('notar.tar.gz', gzipSync(Buffer.alloc(2048, 'x')))), /damaged or incomplete/);
    const tar = rawTar([{ name: 'index.html', data: '<title>Docs</title>' }]);
    assert.match(await refusal(file('noend.tar.gz', gzipSync(tar.subarray(0, tar.length - 1024)))), /damaged or incomplete \(the tar archive inside ends before its end-of-archive marker\)/);
    const stored = gzipSync(rawTar([{ name: 'video.bin', data: randomBytes(500_000) }]), { level: 1 });
    for (const at of [1_000, 250_000, stored.length - 30]) {
      const flipped = Buffer.from(stored);
      flipped[at] = (flipped[at] ?? 0) ^ 0x01;
      assert.match(await refusal(file(`flipped-${at}.tar.gz`, flipped)), /The bundle file is damaged or incomplete/, `a byte changed at ${at}`);
    }
  });

  it('refuses a zip whose entry does not match its CRC-32, or whose directory is cut off', async () => {
    const photo = randomBytes(50_000);
    const good = zip([{ name: 'index.html', data: '<title>Docs</title>' }, { name: 'img/photo.jpg', data: photo }]);
    const changed = Buffer.from(good);
    const at = good.indexOf(photo) + 20_000;
    changed[at] = (changed[at] ?? 0) ^ 0x80;
    assert.match(await refusal(file('changed.zip', changed)), /img\/photo\.jpg does not match its CRC-32/);
    assert.match(await refusal(file('cut.zip', good.subarray(0, good.length - 40))), /damaged or incomplete/);
  });

  it('stops when cancelled', async () => {
    const big = file('big.tar.gz', gzipSync(rawTar([{ name: 'video.bin', data: randomBytes(24 * 1024 * 1024) }]), { level: 1 }));
    const controller = new AbortController();
    const checking = verifyArchive(big, { signal: controller.signal, onProgress: () => controller.abort() });
    await assert.rejects(checking, AbortedError);
  });
});
