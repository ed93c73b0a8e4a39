/**
 * Reliability matrix, bundles: every hostile, damaged or oversized archive, and a disk that is
 * too small. Each case asserts what the user sees (a typed error whose message says what to do)
 * and what is kept (the old folder or file, no temporary file, no staging folder).
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { declaredExpandedSize, DiskSpaceError } from '../../../src/core/bundle/diskSpace';
import { downloadBundle, type DownloadOptions } from '../../../src/core/bundle/download/download';
import { BundleDownloadError } from '../../../src/core/bundle/download/errors';
import { extractBundle, type ExtractOptions } from '../../../src/core/bundle/extract/extract';
import { BundleLinks, type IssuedLink } from '../../../src/core/bundle/links/linkCache';
import { verifyArchive } from '../../../src/core/bundle/extract/verify';
import { Simulator } from '../../simulator';
import { buildSiteArchive } from '../../simulator/site';
import { deflatedZeros, gzipMember, paxEntry, rawTar, tarHeader, tree, zip, type RawEntry, type ZipEntry } from '../support/archives';
import { tarGzipBomb, zipBomb } from '../support/bombs';
import { IN_NAMESPACE, mountSmallDisk, runInNamespace, smallDiskMode, type NamespaceResult, type SmallDisk } from '../support/smallDisk';
import { AdminApiClient } from '../../../src/core/api/client';
import { collector } from '../support/collector';
import { recordingLogger } from '../support/logger';
import { storeCertificates, tarGzOf, tlsStorage, trustingNetwork } from '../support/tlsStore';
import { UnsafeArchiveError, type UnsafeArchiveReason } from '../../../src/core/bundle/extract/archivePaths';
import { onLinux } from '../support/platform';

const MiB = 1024 * 1024;
/** Every refusal names what to do next. */
const SAYS_WHAT_TO_DO = /Download it again|Regenerate the bundle|download again|raise the setting|Free some space|choose another folder|extract it somewhere else|ask the platform's support/i;

function expectRefusal(error: unknown, reason: UnsafeArchiveReason, entry?: string): UnsafeArchiveError {
  assert.ok(error instanceof UnsafeArchiveError, `expected UnsafeArchiveError, got ${String(error)}`);
  assert.equal(error.reason, reason, error.message);
  if (entry !== undefined) {
    assert.equal(error.entry, entry);
    assert.ok(error.message.includes(entry), `the message names the entry: ${error.message}`);
  }
  assert.match(error.message, SAYS_WHAT_TO_DO);
  return error;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail('expected a refusal');
}

/** A folder for one case: an archive, and the old site the user agreed to replace. */
class Scene {
  constructor(readonly base: string) {}

  static async make(): Promise<Scene> {
    return new Scene(await mkdtemp(join(tmpdir(), 'docs-admin-rel-bundle-')));
  }

  get target(): string {
    return join(this.base, 'out', 'site');
  }

  async archive(name: string, bytes: Buffer): Promise<string> {
    const path = join(this.base, name);
    await writeFile(path, bytes);
    return path;
  }

  async oldSite(): Promise<void> {
    await mkdir(join(this.target, 'guide'), { recursive: true });
    await writeFile(join(this.target, 'index.html'), 'the old site');
    await writeFile(join(this.target, 'guide', 'old.html'), 'old page');
  }

  snapshot(): Promise<Map<string, Buffer | null>> {
    return tree(this.base);
  }

  dispose(): Promise<void> {
    return rm(this.base, { recursive: true, force: true });
  }
}

/**
 * Extracts `bytes` twice: into a missing folder (nothing may appear) and over an old site with
 * replacing agreed (the old site must survive whole). Returns the first refusal.
 */
async function refusedBothWays(name: string, bytes: Buffer, options: ExtractOptions = {}): Promise<unknown> {
  const scene = await Scene.make();
  try {
    const path = await scene.archive(name, bytes);
    const empty = await scene.snapshot();
    const first = await rejection(extractBundle(path, scene.target, options));
    assert.deepEqual(await scene.snapshot(), empty, 'nothing was left behind');
    assert.equal(existsSync(join(scene.base, 'out')), false, 'no folder was created');
    await scene.oldSite();
    const withOld = await scene.snapshot();
    const second = await rejection(extractBundle(path, scene.target, { ...options, replace: true }));
    assert.equal((second as Error).constructor, (first as Error).constructor);
    assert.deepEqual(await scene.snapshot(), withOld, 'the old site is whole, and nothing else is there');
    return first;
  } finally {
    await scene.dispose();
  }
}

describe('reliability: bundles @bundles', function () {
  this.timeout(60_000);

  describe('archive attacks are refused, said so, and the old folder is kept', () => {
    const ok: RawEntry = { name: 'index.html', data: 'ok' };
    const tarCases: { title: string; entries: RawEntry[]; reason: UnsafeArchiveReason; entry?: string; options?: ExtractOptions }[] = [
      { title: 'a ../ entry', entries: [{ name: '../evil.txt', data: 'x' }], reason: 'traversal', entry: '../evil.txt' },
      { title: 'a .. segment in the middle', entries: [{ name: 'docs/../../../evil.txt', data: 'x' }], reason: 'traversal', entry: 'docs/../../../evil.txt' },
      { title: 'a backslash ..\\ entry', entries: [{ name: '..\\..\\evil.txt', data: 'x' }], reason: 'traversal', entry: '..\\..\\evil.txt' },
      { title: 'an absolute path', entries: [{ name: '/tmp/docs-admin-evil.txt', data: 'x' }], reason: 'absolute', entry: '/tmp/docs-admin-evil.txt' },
      { title: 'a drive-letter path', entries: [{ name: 'C:\\Windows\\evil.txt', data: 'x' }], reason: 'absolute', entry: 'C:\\Windows\\evil.txt' },
      { title: 'a UNC path', entries: [{ name: '\\\\server\\share\\evil.txt', data: 'x' }], reason: 'absolute', entry: '\\\\server\\share\\evil.txt' },
      { title: 'a PAX header renaming an entry to ../', entries: [paxEntry({ path: '../pax-evil.txt' }), { name: 'harmless.txt', data: 'x' }], reason: 'traversal', entry: '../pax-evil.txt' },
      { title: 'a GNU long name with ../', entries: [{ name: '././@LongLink', type: 'L', data: `${'a/'.repeat(60)}../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../evil.txt\0` }, { name: 'short', data: 'x' }], reason: 'traversal' },
      { title: 'a symlink pointing outside', entries: [{ name: 'etc', type: '2', linkname: '../../../../etc' }, { name: 'etc/passwd', data: 'x' }], reason: 'link', entry: 'etc' },
      { title: 'a symlink pointing inside', entries: [{ name: 'home.html', type: '2', linkname: 'index.html' }], reason: 'link', entry: 'home.html' },
      { title: 'a hard link', entries: [{ name: 'passwd', type: '1', linkname: '/etc/passwd' }], reason: 'link', entry: 'passwd' },
      { title: 'a character device', entries: [{ name: 'null', type: '3' }], reason: 'device', entry: 'null' },
      { title: 'a block device', entries: [{ name: 'sda', type: '4' }], reason: 'device', entry: 'sda' },
      { title: 'a FIFO', entries: [{ name: 'pipe', type: '6' }], reason: 'device', entry: 'pipe' },
      { title: 'a file under a file', entries: [{ name: 'page', data: 'x' }, { name: 'page/child.html', data: 'y' }], reason: 'conflict' },
      { title: 'more entries than docsAdmin.extract.maxEntries', entries: Array.from({ length: 30 }, (_, i) => ({ name: `p${i}.html`, data: 'p' })), reason: 'tooManyEntries', options: { maxEntries: 20 } },
      { title: 'more bytes than docsAdmin.extract.maxTotalMegabytes', entries: [{ name: 'big.bin', data: Buffer.alloc(2 * MiB) }], reason: 'tooLarge', options: { maxTotalBytes: MiB } },
      { title: 'a Windows device name with an extension (NUL.html)', entries: [{ name: 'NUL.html', data: 'x' }], reason: 'reservedName', entry: 'NUL.html' },
      { title: 'a Windows device name as a folder, with trailing dots and spaces (docs/con. ./index.html)', entries: [{ name: 'docs/con. /index.html', data: 'x' }], reason: 'reservedName', entry: 'docs/con. /index.html' },
      { title: 'a Windows device name before a colon (nul:x)', entries: [{ name: 'nul:x', data: 'x' }], reason: 'reservedName', entry: 'nul:x' },
      { title: 'an NTFS data stream (docs/index.html:hidden)', entries: [{ name: 'docs/index.html:hidden', data: 'x' }], reason: 'reservedName', entry: 'docs/index.html:hidden' },
      { title: 'a name Windows would cut short (a folder with a trailing space)', entries: [{ name: 'guide /index.html', data: 'x' }], reason: 'reservedName', entry: 'guide /index.html' },
    ];
    for (const c of tarCases) {
      it(`tar.gz: ${c.title}`, async () => {
        const error = await refusedBothWays('bundle.tar.gz', gzipSync(rawTar([ok, ...c.entries, { name: 'z.html', data: 'z' }])), c.options);
        expectRefusal(error, c.reason, c.entry);
        if (c.reason === 'tooManyEntries') assert.match((error as Error).message, /docsAdmin\.extract\.maxEntries/);
        if (c.reason === 'tooLarge') assert.match((error as Error).message, /docsAdmin\.extract\.maxTotalMegabytes/);
      });
    }

    const zipOk: ZipEntry = { name: 'index.html', data: 'ok' };
    const zipCases: { title: string; entries: ZipEntry[]; reason: UnsafeArchiveReason; entry?: string; options?: ExtractOptions }[] = [
      { title: 'a ../ entry', entries: [{ name: '../evil.txt', data: 'x' }], reason: 'traversal', entry: '../evil.txt' },
      { title: 'a backslash ..\\ entry', entries: [{ name: 'docs\\..\\..\\evil.txt', data: 'x' }], reason: 'traversal', entry: 'docs\\..\\..\\evil.txt' },
      { title: 'an absolute path', entries: [{ name: '/tmp/evil.txt', data: 'x' }], reason: 'absolute', entry: '/tmp/evil.txt' },
      { title: 'a drive-letter path', entries: [{ name: 'C:/evil.txt', data: 'x' }], reason: 'absolute', entry: 'C:/evil.txt' },
      { title: 'a symlink (attributes 0xA1FF0000)', entries: [{ name: 'etc', data: '../../etc', mode: 0o120777 }], reason: 'link', entry: 'etc' },
      { title: 'a character device', entries: [{ name: 'tty', mode: 0o20644 }], reason: 'device', entry: 'tty' },
      { title: 'a FIFO', entries: [{ name: 'pipe', mode: 0o10644 }], reason: 'device', entry: 'pipe' },
      { title: 'more entries than allowed', entries: Array.from({ length: 30 }, (_, i) => ({ name: `p${i}.html`, data: 'p' })), reason: 'tooManyEntries', options: { maxEntries: 20 } },
      { title: 'declared sizes past the cap', entries: [{ name: 'zeros.bin', data: Buffer.alloc(2 * MiB), deflate: true }], reason: 'tooLarge', options: { maxTotalBytes: MiB } },
      { title: 'a declared size that lies (smaller than the data)', entries: [{ name: 'zeros.bin', data: Buffer.alloc(2 * MiB), deflate: true, declaredSize: 100 }], reason: 'corrupt', options: { maxTotalBytes: MiB } },
      { title: 'a Windows device name (COM1.txt)', entries: [{ name: 'COM1.txt', data: 'x' }], reason: 'reservedName', entry: 'COM1.txt' },
      { title: 'a Windows device name behind a backslash (assets\\lpt9)', entries: [{ name: 'assets\\lpt9', data: 'x' }], reason: 'reservedName', entry: 'assets\\lpt9' },
      { title: 'a Windows device name with a stream (CON:$DATA)', entries: [{ name: 'assets/CON:$DATA', data: 'x' }], reason: 'reservedName', entry: 'assets/CON:$DATA' },
      { title: 'an NTFS data stream (page:stream)', entries: [{ name: 'page:stream', data: 'x' }], reason: 'reservedName', entry: 'page:stream' },
      { title: 'a drive letter before a colon (x:stream)', entries: [{ name: 'x:stream', data: 'x' }], reason: 'absolute', entry: 'x:stream' },
      { title: 'a name Windows would cut short (index.html. with a trailing dot)', entries: [{ name: 'index.html.', data: 'x' }], reason: 'reservedName', entry: 'index.html.' },
    ];
    for (const c of zipCases) {
      it(`zip: ${c.title}`, async () => {
        expectRefusal(await refusedBothWays('bundle.zip', zip([zipOk, ...c.entries]), c.options), c.reason, c.entry);
      });
    }
  });

  describe('gzip bombs: a small file expanding far past the cap stops at the cap', () => {
    const cap = 8 * MiB;
    /** About 1 GiB expanded from about 1 MB. */
    const GiB_IN_MiB = 1024;

    async function bombed(bytes: Buffer, name = 'bomb.tar.gz', options: ExtractOptions = {}): Promise<{ error: unknown; written: number }> {
      assert.ok(bytes.length < 2 * MiB, `the bomb is small (${bytes.length} bytes)`);
      let written = 0;
      const error = await refusedBothWays(name, bytes, {
        maxTotalBytes: cap,
        ...options,
        onProgress: (p) => {
          written = Math.max(written, p.bytes);
        },
      });
      assert.ok(written <= cap, `wrote ${written} bytes, more than the ${cap} allowed`);
      return { error, written };
    }

    it('a header that declares 1 GiB: refused before a byte is written', async () => {
      const { error, written } = await bombed(gzipMember(await deflatedZeros(tarHeader('zeros.bin', '0', GiB_IN_MiB * MiB + 64 * 1024), GiB_IN_MiB)));
      expectRefusal(error, 'tooLarge');
      assert.equal(written, 0);
    });

    it('a header that declares 1 KiB, followed by 1 GiB nobody declared', async () => {
      const head = rawTar([{ name: 'index.html', data: Buffer.alloc(1024, 65) }]).subarray(0, 1536);
      expectRefusal((await bombed(gzipMember(await deflatedZeros(head, GiB_IN_MiB)))).error, 'tooLarge');
    });

    it('a PAX size of 1 GiB over a ustar size of 0', async () => {
      const head = Buffer.concat([rawTar([paxEntry({ size: String(GiB_IN_MiB * MiB) })]).subarray(0, 1024), tarHeader('zeros.bin', '0', 0)]);
      const { error, written } = await bombed(gzipMember(await deflatedZeros(head, GiB_IN_MiB)));
      expectRefusal(error, 'tooLarge');
      assert.equal(written, 0);
    });

    it('a PAX size of 1 KiB under a ustar size of 1 GiB', async () => {
      const head = Buffer.concat([rawTar([paxEntry({ size: '1024' })]).subarray(0, 1024), tarHeader('zeros.bin', '0', GiB_IN_MiB * MiB)]);
      expectRefusal((await bombed(gzipMember(await deflatedZeros(head, GiB_IN_MiB)))).error, 'tooLarge');
    });

    it('a base-256 size of 1 TiB', async () => {
      const { error, written } = await bombed(gzipMember(await deflatedZeros(tarHeader('huge.bin', '0', 2 ** 40), 16)));
      expectRefusal(error, 'tooLarge');
      assert.equal(written, 0);
    });

    it('a gzip trailer (ISIZE) that says 1 KiB: the hint does not let it through', async () => {
      const head = rawTar([{ name: 'index.html', data: 'hi' }]).subarray(0, 1024);
      expectRefusal((await bombed(gzipMember(await deflatedZeros(head, GiB_IN_MiB), 1024))).error, 'tooLarge');
    });

    it('zip: an entry of 1 GiB, declared honestly: refused before a byte is written', async () => {
      const { error, written } = await bombed(zip([{ name: 'zeros.bin', raw: await deflatedZeros(Buffer.alloc(0), GiB_IN_MiB) }]), 'bomb.zip');
      expectRefusal(error, 'tooLarge');
      assert.equal(written, 0);
    });

    it('zip: an entry of 1 GiB declared as 100 bytes', async () => {
      expectRefusal((await bombed(zip([{ name: 'zeros.bin', raw: await deflatedZeros(Buffer.alloc(0), GiB_IN_MiB), declaredSize: 100 }]), 'bomb.zip')).error, 'corrupt');
    });
  });

  describe('a corrupt gzip is refused, through Extract and through the archive check of Download and Import', () => {
    let good: Buffer;
    let tar: Buffer;
    before(() => {
      // Big enough that the damage sits well past the first tar header.
      const files = Array.from({ length: 40 }, (_, i) => ({ name: `page-${i}.html`, data: randomBytes(8_000).toString('base64') }));
      tar = rawTar(files);
      good = gzipSync(tar);
    });

    const damaged: { title: string; make: (good: Buffer) => Buffer }[] = [
      { title: 'a bad CRC in the trailer', make: (g) => flip(g, g.length - 8) },
      { title: 'a wrong length (ISIZE) in the trailer', make: (g) => flip(g, g.length - 2) },
      { title: 'cut short inside the gzip header', make: (g) => g.subarray(0, 6) },
      { title: 'cut short after the first kilobyte', make: (g) => g.subarray(0, 1024) },
      { title: 'cut short inside the first tar header', make: (g) => g.subarray(0, 40) },
      { title: 'cut short in the middle', make: (g) => g.subarray(0, Math.floor(g.length / 2)) },
      { title: 'cut short inside the trailer', make: (g) => g.subarray(0, g.length - 3) },
      { title: 'garbage right after the gzip header', make: (g) => Buffer.concat([g.subarray(0, 10), randomBytes(g.length - 10)]) },
      { title: 'an unknown compression method in the header', make: (g) => Buffer.concat([g.subarray(0, 2), Buffer.from([0x07]), g.subarray(3)]) },
      { title: 'garbage after the end of the gzip stream', make: (g) => Buffer.concat([g, Buffer.from('<html>garbage</html>')]) },
      { title: 'damaged compressed data in the middle', make: (g) => fill(g, Math.floor(g.length * 0.6), 64, 0xff) },
      { title: 'a whole gzip whose tar stops before its end-of-archive marker', make: () => gzipSync(tar.subarray(0, tar.length - 1024)) },
    ];

    for (const c of damaged) {
      it(`Extract: ${c.title}`, async () => {
        const error = await refusedBothWays('bundle.tar.gz', c.make(good));
        expectRefusal(error, 'corrupt');
        assert.match((error as Error).message, /damaged or incomplete/);
      });
    }

    it('the archive check (Download, Import) refuses every one: it reads the archive through to its end', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'docs-admin-rel-verify-'));
      try {
        const outcomes: string[] = [];
        for (const c of damaged) {
          const path = join(dir, 'bundle.tar.gz');
          await writeFile(path, c.make(good));
          const error = await verifyArchive(path).then(() => undefined, (e: unknown) => (e instanceof Error ? e : new Error(String(e))));
          if (error !== undefined) {
            assert.ok(error instanceof UnsafeArchiveError && error.reason === 'corrupt', error.message);
            assert.match(error.message, /The bundle file is damaged or incomplete \(.+\)\. Copy it again from where it was made, or download it again\./);
          }
          outcomes.push(`${c.title}: ${error === undefined ? 'passes' : 'refused'}`);
        }
        assert.deepEqual(outcomes, damaged.map((c) => `${c.title}: refused`));
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });

  it('a zip whose stored entry has one byte changed (sizes and directory intact): Extract and the archive check refuse it, naming the entry', async () => {
    const photo = randomBytes(60_000);
    const good = zip([{ name: 'index.html', data: '<title>Docs</title>', deflate: true }, { name: 'img/photo.jpg', data: photo }]);
    const changed = flip(good, good.indexOf(photo) + 30_000);
    const error = await refusedBothWays('bundle.zip', changed);
    expectRefusal(error, 'corrupt');
    assert.match((error as Error).message, /img\/photo\.jpg does not match its CRC-32/);
    const dir = await mkdtemp(join(tmpdir(), 'docs-admin-rel-zipcrc-'));
    try {
      await writeFile(join(dir, 'bundle.zip'), changed);
      const checked = await rejection(verifyArchive(join(dir, 'bundle.zip')));
      expectRefusal(checked, 'corrupt');
      assert.match((checked as Error).message, /img\/photo\.jpg does not match its CRC-32/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  describe('an HTML or S3 XML error page saved as the bundle', () => {
    const pages: { title: string; body: string | Buffer; says: RegExp }[] = [
      { title: 'an HTML error page', body: '<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>', says: /HTML or XML page.*error page/ },
      { title: 'an S3 XML error (expired link)', body: '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>', says: /HTML or XML page.*expired link/ },
      { title: 'an S3 XML error after a byte-order mark and blank lines', body: '\uFEFF\n\n  <Error><Code>NoSuchKey</Code></Error>', says: /HTML or XML page/ },
      { title: 'a captive portal page in capitals', body: '<HTML><HEAD><TITLE>Sign in to the Wi-Fi</TITLE></HEAD></HTML>', says: /HTML or XML page/ },
      { title: 'a JSON error', body: '{"error":"Forbidden"}', says: /not a tar\.gz or zip archive/ },
      { title: 'an empty file', body: '', says: /is empty/ },
    ];

    for (const p of pages) {
      it(`Extract: ${p.title}`, async () => {
        const error = await refusedBothWays('bundle.tar.gz', Buffer.from(p.body));
        expectRefusal(error, 'notAnArchive');
        assert.match((error as Error).message, p.says);
      });
    }

    describe('through Download (the storage answers 200 with the page)', () => {
      let sim: Simulator;
      let client: AdminApiClient;
      let dir: string;
      let jobId: string;

      beforeEach(async () => {
        sim = await Simulator.start(tlsStorage());
        client = new AdminApiClient({ baseUrl: sim.baseUrl, projectId: sim.projectId, getKey: () => sim.key, log: recordingLogger('client') });
        dir = await mkdtemp(join(tmpdir(), 'docs-admin-rel-download-'));
        jobId = String(sim.addExportJob({ queuedMs: 0, durationMs: 0, createdAt: sim.now() - 60_000 }).jobId);
      });

      afterEach(async () => {
        await client.close();
        await sim.stop();
        await rm(dir, { recursive: true, force: true });
      });

      for (const p of pages.filter((page) => page.body !== '')) {
        it(`Download: ${p.title}, over an old bundle the user agreed to replace`, async () => {
          const target = join(dir, 'docs.tar.gz');
          await writeFile(target, 'the old bundle');
          sim.setBundleContent(Buffer.from(p.body));
          const links = new BundleLinks((id, o) => client.generateBundle(id, o));
          const error = await rejection(
            downloadBundle({ target, replace: true, link: () => links.fresh(jobId, 60_000), regenerate: () => links.regenerate(jobId), timeLeft: (l) => links.timeLeft(l), network: trustingNetwork(), sleep: () => Promise.resolve() }),
          );
          expectRefusal(error, 'notAnArchive');
          assert.match((error as Error).message, p.says);
          assert.deepEqual(await readdir(dir), ['docs.tar.gz'], 'no temporary file');
          assert.equal(await readFile(target, 'utf8'), 'the old bundle');
        });
      }
    });
  });
});

function flip(bytes: Buffer, at: number): Buffer {
  const copy = Buffer.from(bytes);
  copy[at] = (copy[at] ?? 0) ^ 0xff;
  return copy;
}

function fill(bytes: Buffer, at: number, length: number, value: number): Buffer {
  const copy = Buffer.from(bytes);
  copy.fill(value, at, at + length);
  return copy;
}

// --- A disk too small: real ENOSPC from a tmpfs. ---------------------------------------------------

const DISK_TITLE = 'reliability: a full disk (tmpfs)';
const mode = smallDiskMode();
const CLI = resolve(__dirname, '../../../../dist/cli.js');

/**
 * Each full-disk case is its own test, and must pass. As root (CI) it runs here, on a tmpfs
 * mounted in place; otherwise the ten run in one child mocha as root of a user and mount
 * namespace (with the secrets scan loaded), and each test here passes only if its own case
 * passed there. Where neither works the case fails in CI (`CI=true`), and is skipped with the
 * reason elsewhere (a developer's machine that forbids user namespaces).
 */
let namespaceRun: Map<string, NamespaceResult> | undefined;
function diskCase(title: string, body: () => Promise<void>): void {
  // A tmpfs is Linux's: elsewhere (CI's Windows and macOS unit jobs) the cases are not defined (test/unit/support/platform.ts).
  if (!onLinux) return;
  if (mode.kind === 'mount') {
    it(title, body);
  } else if (mode.kind === 'namespace') {
    it(title, function () {
      namespaceRun ??= runInNamespace(__filename, DISK_TITLE, resolve(__dirname, '../support/secretsHook.js'));
      const result = namespaceRun.get(this.test?.fullTitle() ?? '');
      assert.ok(result !== undefined, `the case did not run in the user namespace (${[...namespaceRun.keys()].join('; ')})`);
      assert.equal(result.state, 'passed', `in the user namespace: ${result.error ?? result.state}`);
    });
  } else {
    it(title, function () {
      const why = `the full-disk cases need a tmpfs: ${mode.why}. Run as root, or where unprivileged user namespaces are allowed.`;
      if (process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false') assert.fail(`in CI a full-disk case must run: ${why}`);
      console.warn(`      NOT RUN: ${why}`);
      this.skip();
    });
  }
}

describe(`${DISK_TITLE} @bundles`, function () {
    this.timeout(mode.kind === 'namespace' ? 240_000 : 60_000);
    let disk: SmallDisk | undefined;
    let outside = '';

    beforeEach(async () => {
      if (mode.kind !== 'mount') return;
      disk = mountSmallDisk(4 * MiB);
      outside = await mkdtemp(join(tmpdir(), 'docs-admin-rel-disk-'));
    });

    afterEach(async () => {
      disk?.dispose();
      disk = undefined;
      if (outside !== '') await rm(outside, { recursive: true, force: true });
    });

    function small(): SmallDisk {
      assert.ok(disk !== undefined);
      return disk;
    }

    /** The tmpfs holds only these names: no temporary file, no staging folder. */
    async function onlyThere(...names: string[]): Promise<void> {
      assert.deepEqual((await readdir(small().dir)).sort(), names.sort());
    }

    describe('download', () => {
      let sim: Simulator;
      let client: AdminApiClient;
      let jobId: string;

      beforeEach(async () => {
        sim = await Simulator.start(tlsStorage());
        client = new AdminApiClient({ baseUrl: sim.baseUrl, projectId: sim.projectId, getKey: () => sim.key, log: recordingLogger('client') });
        jobId = String(sim.addExportJob({ queuedMs: 0, durationMs: 0, createdAt: sim.now() - 60_000 }).jobId);
      });

      afterEach(async () => {
        await client.close();
        await sim.stop();
      });

      function options(over: Partial<DownloadOptions> = {}): DownloadOptions {
        const links = new BundleLinks((id, o) => client.generateBundle(id, o));
        return { target: join(small().dir, 'docs.tar.gz'), link: () => links.fresh(jobId, 60_000), regenerate: () => links.regenerate(jobId), timeLeft: (l) => links.timeLeft(l), network: trustingNetwork(), sleep: () => Promise.resolve(), ...over };
      }

      function storageWrites(): number {
        return sim.requests.filter((r) => r.origin === 'storage').length;
      }

      diskCase('a bundle larger than the free space (sizeBytes): refused before writing, saying how much is needed', async () => {
        sim.setBundleContent(tarGzOf(6 * MiB));
        let progressed = 0;
        const error = await rejection(downloadBundle(options({ onProgress: (p) => (progressed = p.received) })));
        assert.ok(error instanceof BundleDownloadError && error.reason === 'disk', String(error));
        assert.match(error.message, /6\.0 MB, but only .* free in .*Free some space or choose another folder.*Nothing was saved/);
        assert.equal(progressed, 0, 'not a byte was written');
        assert.equal(storageWrites(), 1, 'no retry either');
        await onlyThere();
      });

      diskCase('a bundle larger than the free space, known only from Content-Length', async () => {
        sim.setBundleContent(tarGzOf(6 * MiB));
        const links = new BundleLinks((id, o) => client.generateBundle(id, o));
        const unsized = async (): Promise<IssuedLink> => {
          const issued = await links.fresh(jobId, 60_000);
          const { sizeBytes: _dropped, ...bundle } = issued.bundle;
          return { ...issued, bundle };
        };
        const error = await rejection(downloadBundle(options({ link: unsized, regenerate: unsized })));
        assert.ok(error instanceof BundleDownloadError && error.reason === 'disk', String(error));
        assert.match(error.message, /only .* free/);
        await onlyThere();
      });

      diskCase('the disk fills up while the bundle downloads: ENOSPC, no temporary file, the old bundle kept', async () => {
        await writeFile(join(small().dir, 'docs.tar.gz'), 'the old bundle');
        sim.setBundleContent(tarGzOf(3 * MiB));
        let filled = false;
        // The CLI runs in plain Node, where an unhandled rejection ends the process: there must be none.
        const unhandled: unknown[] = [];
        const record = (reason: unknown) => unhandled.push(reason);
        process.on('unhandledRejection', record);
        const error = await rejection(
          downloadBundle(
            options({
              replace: true,
              onProgress: () => {
                if (filled) return;
                filled = true;
                small().fill(4 * MiB, 'someone-else.bin');
              },
            }),
          ),
        );
        await new Promise((r) => setTimeout(r, 50));
        process.off('unhandledRejection', record);
        assert.deepEqual(unhandled.map(String), [], 'no promise was left to reject unhandled');
        assert.ok(filled);
        assert.ok(error instanceof BundleDownloadError && error.reason === 'disk', String(error));
        assert.match(error.message, /not enough free disk space.*Free some space or choose another folder/);
        await onlyThere('docs.tar.gz', 'someone-else.bin');
        assert.equal(await readFile(join(small().dir, 'docs.tar.gz'), 'utf8'), 'the old bundle');
      });

      diskCase('CLI: export download onto a full disk exits 2 with one line, and saves nothing', async () => {
        sim.setBundleContent(tarGzOf(6 * MiB));
        const run = await cli(['export', 'download', jobId, '--out', join(small().dir, 'docs.tar.gz'), '--ca-file', storeCertificates().caFile], { DOCS_ADMIN_API_KEY: sim.key, DOCS_ADMIN_BASE_URL: sim.baseUrl, DOCS_ADMIN_PROJECT_ID: sim.projectId });
        assert.equal(run.code, 2, run.stderr);
        assert.match(run.stderr, /^docs-admin: The bundle is 6\.0 MB, but only .* free/);
        assert.equal(run.stderr.trim().split('\n').length, 1);
        await onlyThere();
      });
    });

    describe('extraction', () => {
      const files = (n: number, size: number) => Array.from({ length: n }, (_, i) => ({ name: `section/page-${i}.html`, data: randomBytes(size) }));

      diskCase('tar.gz: its trailer says it expands past the free space: refused before anything is written', async () => {
        const archive = join(outside, 'big.tar.gz');
        await writeFile(archive, gzipSync(rawTar(files(12, 512 * 1024))));
        const error = await rejection(extractBundle(archive, join(small().dir, 'site')));
        assert.ok(error instanceof DiskSpaceError, String(error));
        assert.match(error.message, /expands to about 6\.0 MB, but only .* free in .*Free some space or extract it somewhere else\. Nothing was extracted/);
        await onlyThere();
      });

      diskCase('zip: its central directory says it expands past the free space: refused up front', async () => {
        const archive = join(outside, 'big.zip');
        await writeFile(archive, zip(files(12, 512 * 1024)));
        const error = await rejection(extractBundle(archive, join(small().dir, 'site')));
        assert.ok(error instanceof DiskSpaceError, String(error));
        assert.match(error.message, /expands to about 6\.0 MB/);
        await onlyThere();
      });

      for (const kind of ['tar.gz', 'zip'] as const) {
        diskCase(`${kind}: the disk fills up while extracting: ENOSPC, no staging folder, the old site kept`, async () => {
          const archive = join(outside, `site.${kind}`);
          const entries = files(12, 200 * 1024);
          await writeFile(archive, kind === 'zip' ? zip(entries) : gzipSync(rawTar(entries)));
          const target = join(small().dir, 'site');
          await mkdir(target);
          await writeFile(join(target, 'index.html'), 'the old site');
          let filled = false;
          const error = await rejection(
            extractBundle(archive, target, {
              replace: true,
              onProgress: () => {
                if (filled) return;
                filled = true;
                small().fill(4 * MiB, 'someone-else.bin');
              },
            }),
          );
          assert.ok(filled);
          assert.ok(error instanceof DiskSpaceError, String(error));
          assert.match(error.message, /ran out of space in .* while the bundle was being extracted\. Free some space or extract it somewhere else\. Nothing was extracted, and the folder was left as it was/);
          await onlyThere('site', 'someone-else.bin');
          assert.deepEqual([...(await tree(target)).entries()], [['index.html', Buffer.from('the old site')]]);
        });
      }

      const STOPPED = /^The extraction stopped before the disk was full: only .* was still free in .*, and .* is kept free\. Free some space or extract it somewhere else\. Nothing was extracted, and the folder was left as it was\.$/;

      diskCase('tar.gz whose trailer lies small (under the archive\'s own size): not believed; the watch stops it before the disk is full, nothing is left', async () => {
        const archive = join(outside, 'liar.tar.gz');
        const honest = gzipSync(rawTar(files(12, 512 * 1024)));
        honest.writeUInt32LE(1000, honest.length - 4);
        await writeFile(archive, honest);
        const error = await rejection(extractBundle(archive, join(small().dir, 'site')));
        assert.ok(error instanceof DiskSpaceError, String(error));
        assert.match(error.message, STOPPED);
        await onlyThere();
      });

      for (const kind of ['tar.gz', 'zip'] as const) {
        diskCase(`${kind}: the 4 GiB bomb (its ISIZE wraps to 1,536 bytes; ZIP64 sizes are not read up front): the watch stops it before the disk is full, nothing is left`, async () => {
          const archive = join(outside, `bomb.${kind}`);
          await writeFile(archive, kind === 'zip' ? await zipBomb(4 * 1024 * MiB) : await tarGzipBomb(4 * 1024 * MiB));
          assert.equal(await declaredExpandedSize(archive, kind), undefined, 'no size believed up front');
          const error = await rejection(extractBundle(archive, join(small().dir, 'site')));
          assert.ok(error instanceof DiskSpaceError, String(error));
          assert.match(error.message, STOPPED);
          await onlyThere();
        });
      }

      diskCase('CLI: export extract onto a full disk exits 2 with one line, and creates no folder', async () => {
        const archive = join(outside, 'big.tar.gz');
        await writeFile(archive, gzipSync(rawTar(files(12, 512 * 1024))));
        const run = await cli(['export', 'extract', archive, '--dir', join(small().dir, 'site')], {});
        assert.equal(run.code, 2, run.stderr);
        assert.match(run.stderr, /^docs-admin: The bundle expands to about 6\.0 MB, but only/);
        assert.equal(run.stderr.trim().split('\n').length, 1);
        await onlyThere();
      });
    });
});

function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', ...env, ...(process.env[IN_NAMESPACE] === undefined ? {} : { [IN_NAMESPACE]: '1' }) } }, (error, stdout, stderr) => {
      // What the CLI printed goes to the secrets scan (loaded in the namespace's child run too).
      collector.record(`cli: docs-admin ${args.join(' ')} (stdout)`, stdout);
      collector.record(`cli: docs-admin ${args.join(' ')} (stderr)`, stderr);
      done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stderr });
    });
  });
}

describe('reliability: the expanded size an archive declares (read before extracting) @bundles @control', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'docs-admin-rel-declared-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  async function declared(name: string, bytes: Buffer, kind: 'zip' | 'tar.gz'): Promise<number | undefined> {
    const path = join(dir, name);
    await writeFile(path, bytes);
    return declaredExpandedSize(path, kind);
  }

  it('zip: the sum of the central directory\'s sizes, whatever the names, extra fields and comments', async () => {
    // An extended-timestamp extra field (0x5455) on some, a comment on others, as zip tools write them.
    const timestamp = Buffer.from([0x55, 0x54, 0x05, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00]);
    const entries = Array.from({ length: 300 }, (_, i) => ({ name: `${'d/'.repeat(i % 7)}page-${i}.html`, data: Buffer.alloc(i * 10, 65), deflate: i % 2 === 0, ...(i % 3 === 0 ? { extra: timestamp } : {}), ...(i % 5 === 0 ? { comment: `page ${i}` } : {}) }));
    assert.equal(await declared('a.zip', zip(entries), 'zip'), entries.reduce((n, e) => n + e.data.length, 0));
    assert.equal(await declared('empty.zip', zip([]), 'zip'), 0);
    const withComment = zip([{ name: 'a.html', data: 'hello' }]);
    withComment.writeUInt16LE(7, withComment.length - 2);
    assert.equal(await declared('comment.zip', Buffer.concat([withComment, Buffer.from('comment')]), 'zip'), 5);
  });

  it('zip: says nothing for a cut-short or ZIP64 directory (the extractor decides)', async () => {
    const whole = zip([{ name: 'a.html', data: 'hello' }, { name: 'b.html', data: 'world' }]);
    assert.equal(await declared('cut.zip', whole.subarray(0, whole.length - 30), 'zip'), undefined);
    const zip64 = Buffer.from(whole);
    zip64.writeUInt32LE(0xffffffff, zip64.length - 6);
    assert.equal(await declared('zip64.zip', zip64, 'zip'), undefined);
  });

  it('tar.gz: the gzip trailer, unless deflate could not have reached it', async () => {
    const tarball = rawTar([{ name: 'a.html', data: Buffer.alloc(5000, 65) }]);
    assert.equal(await declared('a.tar.gz', gzipSync(tarball), 'tar.gz'), tarball.length);
    const liar = gzipSync(tarball);
    liar.writeUInt32LE(0xfffffff0, liar.length - 4);
    assert.equal(await declared('liar.tar.gz', liar, 'tar.gz'), undefined, 'more than 1032 times the file: not believed');
  });

  it('tar.gz: ISIZE is not believed when it is smaller than the archive (a 4 GiB bomb\'s wraps to its tar framing, 1,536 bytes)', async function () {
    this.timeout(60_000);
    const bomb = await tarGzipBomb(4 * 1024 * MiB);
    assert.equal(bomb.readUInt32LE(bomb.length - 4), 1536, 'ISIZE wrapped');
    assert.equal(await declared('bomb.tar.gz', bomb, 'tar.gz'), undefined);
    const small = gzipSync(rawTar([{ name: 'a.html', data: Buffer.alloc(5000, 65) }]));
    small.writeUInt32LE(small.length - 1, small.length - 4);
    assert.equal(await declared('small.tar.gz', small, 'tar.gz'), undefined);
  });
});

// The site archive the simulator serves is a valid bundle: the matrix above is not refusing everything.
describe('reliability: bundles (control) @bundles @control', () => {
  it('a real bundle extracts', async () => {
    const scene = await Scene.make();
    try {
      const summary = await extractBundle(await scene.archive('site.tar.gz', buildSiteArchive()), scene.target);
      assert.ok(summary.pages > 0);
    } finally {
      await scene.dispose();
    }
  });
});
