import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { verifyArchive } from '../../src/core/bundle/extract/verify';
import { buildSiteArchive } from '../simulator/site';
import { UnsafeArchiveError } from '../../src/core/bundle/extract/archivePaths';

describe('a downloaded bundle must open as an archive', () => {
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

  it('accepts a real tar.gz bundle', async () => {
    assert.equal(await verifyArchive(file('site.tar.gz', buildSiteArchive())), 'tar.gz');
  });

  it('says what the file is when it is not an archive', async () => {
    assert.match(await refusal(file('page.tar.gz', '<!DOCTYPE html><html><body>502 Bad Gateway</body></html>')), /HTML or XML page.*error page/);
    assert.match(await refusal(file('s3.tar.gz', '<?xml version="1.0"?><Error><Code>AccessDenied</Code></Error>')), /HTML or XML page.*expired link/);
    assert.match(await refusal(file('empty.tar.gz', '')), /is empty/);
    assert.match(await refusal(file('json.tar.gz', '{"error":"nope"}')), /not a tar\.gz or zip/);
  });

  it('refuses a gzip that is cut short or whose content is not a tar', async () => {
    const real = buildSiteArchive();
    assert.match(await refusal(file('cut.tar.gz', real.subarray(0, 12))), /does not open/);
    assert.match(await refusal(file('notar.tar.gz', gzipSync(Buffer.alloc(2048, 'x')))), /does not open/);
  });
});
