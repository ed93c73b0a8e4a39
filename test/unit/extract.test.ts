import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { createGzip, gzipSync } from 'node:zlib';
import * as tar from 'tar';
import { readTar, readZip } from '../../src/core/bundle/extract/archiveReaders';
import { checkEntryPath, zipEntryKind, UnsafeArchiveError, type UnsafeArchiveReason } from '../../src/core/bundle/extract/archivePaths';
import { detectArchiveKind, extractBundle, TargetFolderError } from '../../src/core/bundle/extract/extract';
import { received, sendable } from '../../src/core/bundle/extract/extractThread';
import { Staging } from '../../src/core/bundle/extract/staging';
import { DEFAULT_LIMITS } from '../../src/core/bundle/extract/limits';
import { rawTar, tarHeader, tree, zip, type RawEntry, type ZipEntry } from './support/archives';
import { AbortedError } from '../../src/core/abort';
import { itOnLinux } from './support/platform';

// --- Looking at what landed on disk (the archive writers and tree() are in support/archives.ts). ---

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

function refused(reason: UnsafeArchiveReason, entry?: string, message?: RegExp) {
  return (error: unknown): boolean => {
    assert.ok(error instanceof UnsafeArchiveError, `expected UnsafeArchiveError, got ${String(error)}`);
    assert.equal(error.reason, reason, error.message);
    if (entry !== undefined) assert.equal(error.entry, entry);
    if (message) assert.match(error.message, message);
    return true;
  };
}

describe('bundle extraction', function () {
  this.timeout(60_000);
  let base: string;
  /** The folder the bundle goes to, beside the archive. */
  let target: string;

  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'docs-admin-extract-'));
    target = join(base, 'out', 'site');
  });

  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  async function archive(name: string, bytes: Buffer): Promise<string> {
    const path = join(base, name);
    await writeFile(path, bytes);
    return path;
  }

  /** Nothing of the refused bundle anywhere below `base`: the listing is what it was before. */
  async function assertNothingLeft(before: Map<string, Buffer | null>): Promise<void> {
    assert.deepEqual(await tree(base), before);
  }

  async function sourceTree(): Promise<string> {
    const src = join(base, 'src');
    const files: Record<string, Buffer | string> = {
      'index.html': '<!doctype html><title>Home</title>',
      'guide/intro.html': '<h1>Intro</h1>',
      'guide/setup.HTML': '<h1>Setup</h1>',
      'assets/app.css': 'body { margin: 0 }',
      'assets/logo.png': randomBytes(40_000),
      'assets/big.bin': randomBytes(3 * 1024 * 1024 + 17),
      'empty.txt': '',
      'un dossier/été ü.html': '<p>accents</p>',
      [`deep/${'d'.repeat(60)}/${'e'.repeat(60)}/long-name-${'x'.repeat(80)}.html`]: 'long path',
    };
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(src, path)), { recursive: true });
      await writeFile(join(src, path), content);
    }
    await mkdir(join(src, 'empty-folder'));
    return src;
  }

  describe('valid bundles', () => {
    for (const maker of ['node-tar', 'GNU tar'] as const) {
      itOnLinux(`extracts a tar.gz made by ${maker} exactly as the system tar -xzf does`, "the reference is the system's GNU tar", async () => {
        const src = await sourceTree();
        const path = join(base, 'bundle.tar.gz');
        if (maker === 'node-tar') await tar.c({ gzip: true, file: path, cwd: src }, ['.']);
        else execFileSync('tar', ['-czf', path, '-C', src, '.']);
        const reference = join(base, 'reference');
        await mkdir(reference);
        execFileSync('tar', ['-xzf', path, '-C', reference]);
        const progress: number[] = [];

        const summary = await extractBundle(path, target, { onProgress: (p) => progress.push(p.entries) });

        const ours = await tree(target);
        assert.deepEqual([...ours.keys()].sort(), [...(await tree(reference)).keys()].sort());
        assert.deepEqual(ours, await tree(reference));
        assert.equal(ours.get('assets/big.bin')?.length, 3 * 1024 * 1024 + 17);
        assert.equal(summary.kind, 'tar.gz');
        assert.equal(summary.files, 9);
        assert.equal(summary.pages, 5);
        assert.deepEqual(summary.types, { '.html': 5, '.css': 1, '.png': 1, '.bin': 1, '.txt': 1 });
        assert.deepEqual(summary.duplicates, []);
        assert.ok(progress.length > 0 && progress.at(-1) === summary.entries);
        assert.deepEqual((await readdir(join(base, 'out'))).sort(), ['site']);
      });
    }

    it('streams: memory stays flat while a 200 MB file is extracted', async () => {
      const size = 200 * 1024 * 1024;
      const path = join(base, 'large.tar.gz');
      const gzip = createGzip({ level: 0 });
      const written = new Promise<void>((resolve, reject) => gzip.pipe(createWriteStream(path)).on('finish', () => resolve()).on('error', reject));
      const block = randomBytes(1024 * 1024);
      gzip.write(tarHeader('large.bin', '0', size));
      for (let i = 0; i < size / block.length; i++) {
        if (!gzip.write(block)) await new Promise<void>((resolve) => gzip.once('drain', () => resolve()));
      }
      gzip.end(Buffer.alloc(1024));
      await written;
      const baseline = process.memoryUsage().rss;
      let peak = baseline;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
      try {
        await extractBundle(path, target);
      } finally {
        clearInterval(sampler);
      }
      assert.equal((await stat(join(target, 'large.bin'))).size, size);
      assert.ok(peak - baseline < 100 * 1024 * 1024, `memory grew by ${Math.round((peak - baseline) / 1024 ** 2)} MB`);
    });

    it('extracts a zip (stored, deflated, folders, Windows separators)', async () => {
      const big = randomBytes(200_000);
      const path = await archive('bundle.zip', zip([
        { name: 'docs/' },
        { name: 'docs/index.html', data: '<h1>Docs</h1>', deflate: true },
        { name: 'docs/big.bin', data: big },
        { name: 'assets\\style.css', data: 'a{}' },
        { name: 'README', data: 'read me', deflate: true },
      ]));

      const summary = await extractBundle(path, target);

      assert.deepEqual(await tree(target), new Map<string, Buffer | null>([
        ['README', Buffer.from('read me')],
        ['assets/', null],
        ['assets/style.css', Buffer.from('a{}')],
        ['docs/', null],
        ['docs/big.bin', big],
        ['docs/index.html', Buffer.from('<h1>Docs</h1>')],
      ]));
      assert.deepEqual({ ...summary, types: undefined }, { kind: 'zip', entries: 5, files: 4, bytes: 200_000 + 13 + 3 + 7, pages: 1, types: undefined, duplicates: [] });
      assert.deepEqual(summary.types, { '.html': 1, '.bin': 1, '.css': 1, '': 1 });
    });

    it('extracts an empty zip to an empty folder', async () => {
      const path = await archive('empty.zip', zip([]));
      assert.equal(await detectArchiveKind(path), 'zip');
      const summary = await extractBundle(path, target);
      assert.equal(summary.entries, 0);
      assert.deepEqual(await readdir(target), []);
    });

    it('keeps the last of entries with the same name, and lists the name', async () => {
      const tarPath = await archive('dup.tar.gz', gzipSync(rawTar([
        { name: 'a.html', data: 'first' },
        { name: 'b.css', data: 'b' },
        { name: './a.html', data: 'second, longer' },
      ])));
      const zipPath = await archive('dup.zip', zip([
        { name: 'a.html', data: 'first' },
        { name: 'a.html', data: 'second', deflate: true },
      ]));

      const fromTar = await extractBundle(tarPath, target);
      assert.equal(await readFile(join(target, 'a.html'), 'utf8'), 'second, longer');
      assert.deepEqual([fromTar.duplicates, fromTar.files, fromTar.entries, fromTar.pages], [['a.html'], 2, 3, 1]);

      const fromZip = await extractBundle(zipPath, join(base, 'z'));
      assert.equal(await readFile(join(base, 'z', 'a.html'), 'utf8'), 'second');
      assert.deepEqual(fromZip.duplicates, ['a.html']);
    });
  });

  describe('detecting the kind', () => {
    it('tells tar.gz and zip by their first bytes, and nothing else', async () => {
      assert.equal(await detectArchiveKind(await archive('a.bin', gzipSync(rawTar([])))), 'tar.gz');
      assert.equal(await detectArchiveKind(await archive('b.bin', zip([{ name: 'x', data: 'x' }]))), 'zip');
      assert.equal(await detectArchiveKind(await archive('c.tar.gz', Buffer.from('<html>AccessDenied</html>'))), undefined);
      assert.equal(await detectArchiveKind(await archive('d.tar', rawTar([{ name: 'x', data: 'x' }]))), undefined);
      assert.equal(await detectArchiveKind(await archive('e', Buffer.alloc(0))), undefined);
    });

    it('refuses an HTML error page saved as the bundle, saying what it probably is', async () => {
      const page = '\uFEFF  <?xml version="1.0"?><Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>';
      const path = await archive('bundle.tar.gz', Buffer.from(page));
      await assert.rejects(extractBundle(path, target), refused('notAnArchive', undefined, /HTML or XML page.*expired link/));
      assert.equal(await exists(join(base, 'out')), false);
      await assert.rejects(extractBundle(await archive('x.zip', Buffer.from('PK garbage')), target), refused('notAnArchive', undefined, /not a tar\.gz or zip/));
    });
  });

  describe('hostile entries are refused and nothing is written', () => {
    const cases: { title: string; entries: RawEntry[]; reason: UnsafeArchiveReason; entry: string }[] = [
      { title: 'a ../ entry', entries: [{ name: '../evil.txt', data: 'x' }], reason: 'traversal', entry: '../evil.txt' },
      { title: 'a .. segment in the middle', entries: [{ name: 'docs/../../../evil.txt', data: 'x' }], reason: 'traversal', entry: 'docs/../../../evil.txt' },
      { title: 'a backslash ..\\ entry', entries: [{ name: '..\\..\\evil.txt', data: 'x' }], reason: 'traversal', entry: '..\\..\\evil.txt' },
      { title: 'a drive-letter path', entries: [{ name: 'C:\\Windows\\evil.txt', data: 'x' }], reason: 'absolute', entry: 'C:\\Windows\\evil.txt' },
      { title: 'a UNC path', entries: [{ name: '\\\\server\\share\\evil.txt', data: 'x' }], reason: 'absolute', entry: '\\\\server\\share\\evil.txt' },
      { title: 'a symlink pointing outside', entries: [{ name: 'etc', type: '2', linkname: '../../../../etc' }, { name: 'etc/passwd', data: 'x' }], reason: 'link', entry: 'etc' },
      { title: 'a symlink pointing inside', entries: [{ name: 'home.html', type: '2', linkname: 'index.html' }], reason: 'link', entry: 'home.html' },
      { title: 'a hard link', entries: [{ name: 'passwd', type: '1', linkname: '/etc/passwd' }], reason: 'link', entry: 'passwd' },
      { title: 'a character device', entries: [{ name: 'null', type: '3' }], reason: 'device', entry: 'null' },
      { title: 'a FIFO', entries: [{ name: 'pipe', type: '6' }], reason: 'device', entry: 'pipe' },
      { title: 'a file under a file', entries: [{ name: 'page', data: 'x' }, { name: 'page/child.html', data: 'y' }], reason: 'conflict', entry: 'page/child.html' },
    ];
    for (const c of cases) {
      it(`tar.gz: ${c.title}`, async () => {
        const path = await archive('bundle.tar.gz', gzipSync(rawTar([{ name: 'index.html', data: 'ok' }, ...c.entries, { name: 'z.html', data: 'z' }])));
        const before = await tree(base);
        await assert.rejects(extractBundle(path, target), refused(c.reason, c.entry, /Nothing was extracted/));
        await assertNothingLeft(before);
        assert.equal(await exists(join(base, 'out')), false);
      });
    }

    it('tar.gz: an absolute path (the file is not created there)', async () => {
      const outside = join(base, 'abs-evil.txt');
      const path = await archive('bundle.tar.gz', gzipSync(rawTar([{ name: 'index.html', data: 'ok' }, { name: outside, data: 'x' }])));
      const before = await tree(base);
      await assert.rejects(extractBundle(path, target), refused('absolute', outside));
      await assertNothingLeft(before);
    });

    it('tar.gz made by node-tar with preservePaths (../ and absolute names)', async () => {
      const inner = join(base, 'a', 'b');
      await mkdir(inner, { recursive: true });
      await writeFile(join(base, 'a', 'evil.txt'), 'x');
      const path = join(base, 'bundle.tar.gz');
      await tar.c({ gzip: true, file: path, cwd: inner, preservePaths: true }, ['../evil.txt']);
      const before = await tree(base);
      await assert.rejects(extractBundle(path, target), refused('traversal', '../evil.txt'));
      await assertNothingLeft(before);
    });

    const zipCases: { title: string; entries: ZipEntry[]; reason: UnsafeArchiveReason; entry: string }[] = [
      { title: 'a ../ entry', entries: [{ name: '../evil.txt', data: 'x' }], reason: 'traversal', entry: '../evil.txt' },
      { title: 'a backslash ..\\ entry', entries: [{ name: 'docs\\..\\..\\evil.txt', data: 'x' }], reason: 'traversal', entry: 'docs\\..\\..\\evil.txt' },
      { title: 'an absolute path', entries: [{ name: '/tmp/evil.txt', data: 'x' }], reason: 'absolute', entry: '/tmp/evil.txt' },
      { title: 'a drive-letter path', entries: [{ name: 'C:/evil.txt', data: 'x' }], reason: 'absolute', entry: 'C:/evil.txt' },
      { title: 'a symlink (attributes 0xA1FF0000)', entries: [{ name: 'etc', data: '../../etc', mode: 0o120777 }], reason: 'link', entry: 'etc' },
      { title: 'a FIFO', entries: [{ name: 'pipe', mode: 0o10644 }], reason: 'device', entry: 'pipe' },
    ];
    for (const c of zipCases) {
      it(`zip: ${c.title}`, async () => {
        const path = await archive('bundle.zip', zip([{ name: 'index.html', data: 'ok' }, ...c.entries]));
        const before = await tree(base);
        await assert.rejects(extractBundle(path, target), refused(c.reason, c.entry));
        await assertNothingLeft(before);
      });
    }
  });

  describe('caps', () => {
    const files = (n: number, size: number): RawEntry[] => Array.from({ length: n }, (_, i) => ({ name: `p${i}.html`, data: Buffer.alloc(size, 65) }));

    it('refuses more entries than allowed, naming the setting', async () => {
      const tarPath = await archive('many.tar.gz', gzipSync(rawTar(files(20, 10))));
      const zipPath = await archive('many.zip', zip(files(20, 10).map((f) => ({ name: f.name, data: f.data ?? '' }))));
      const before = await tree(base);
      for (const path of [tarPath, zipPath]) {
        await assert.rejects(extractBundle(path, target, { maxEntries: 10 }), refused('tooManyEntries', undefined, /docsAdmin\.extract\.maxEntries/));
      }
      await assertNothingLeft(before);
      assert.equal((await extractBundle(tarPath, target, { maxEntries: 20 })).files, 20);
    });

    it('refuses a bundle that expands past the size cap, naming the setting', async () => {
      const path = await archive('big.tar.gz', gzipSync(rawTar(files(3, 1024 * 1024))));
      const before = await tree(base);
      await assert.rejects(extractBundle(path, target, { maxTotalBytes: 2.5 * 1024 * 1024 }), refused('tooLarge', undefined, /docsAdmin\.extract\.maxTotalMegabytes/));
      await assertNothingLeft(before);
    });

    it('refuses a zip whose declared sizes pass the cap, or lie about it', async () => {
      const data = Buffer.alloc(3 * 1024 * 1024);
      const honest = await archive('honest.zip', zip([{ name: 'zeros.bin', data, deflate: true }]));
      const lying = await archive('lying.zip', zip([{ name: 'zeros.bin', data, deflate: true, declaredSize: 100 }]));
      const before = await tree(base);
      await assert.rejects(extractBundle(honest, target, { maxTotalBytes: 1024 * 1024 }), refused('tooLarge'));
      await assert.rejects(extractBundle(lying, target, { maxTotalBytes: 1024 * 1024 }), refused('corrupt'));
      await assertNothingLeft(before);
    });

    describe('gzip bombs (200 MB of zeros)', () => {
      let bomb: string;
      let trailing: string;
      const zeros = 200 * 1024 * 1024;

      /** gzip of `head`, then `zeros` zero bytes streamed (never held in memory). */
      async function gzipWithZeros(path: string, head: Buffer): Promise<void> {
        const gzip = createGzip({ level: 1 });
        const done = new Promise<void>((resolve, reject) => gzip.pipe(createWriteStream(path)).on('finish', () => resolve()).on('error', reject));
        gzip.write(head);
        const block = Buffer.alloc(1024 * 1024);
        for (let i = 0; i < zeros / block.length; i++) {
          if (!gzip.write(block)) await new Promise<void>((resolve) => gzip.once('drain', () => resolve()));
        }
        gzip.end();
        await done;
      }

      before(async function () {
        this.timeout(120_000);
        const dir = await mkdtemp(join(tmpdir(), 'docs-admin-bomb-'));
        bomb = join(dir, 'bomb.tar.gz');
        trailing = join(dir, 'trailing.tar.gz');
        // One file declaring 200 MB; the body follows as zeros.
        await gzipWithZeros(bomb, tarHeader('zeros.bin', '0', zeros));
        // A tiny valid tar whose end is followed by 200 MB nobody declared.
        await gzipWithZeros(trailing, rawTar([{ name: 'index.html', data: 'hi' }]));
      });

      after(async () => {
        await rm(dirname(bomb), { recursive: true, force: true });
      });

      it('stops at the declared size, before writing, and fast', async () => {
        const started = Date.now();
        await assert.rejects(extractBundle(bomb, target, { maxTotalBytes: 10 * 1024 * 1024 }), refused('tooLarge'));
        assert.ok(Date.now() - started < 2_000, `took ${Date.now() - started} ms`);
        assert.deepEqual(await tree(base), new Map());
      });

      it('stops on the bytes actually decompressed when the headers say nothing of them', async () => {
        const started = Date.now();
        await assert.rejects(extractBundle(trailing, target, { maxTotalBytes: 10 * 1024 * 1024, maxEntries: 100 }), refused('tooLarge'));
        assert.ok(Date.now() - started < 5_000, `took ${Date.now() - started} ms`);
        assert.deepEqual(await tree(base), new Map());
      });
    });
  });

  describe('damaged archives', () => {
    async function validTarGz(): Promise<string> {
      const entries = Array.from({ length: 30 }, (_, i) => ({ name: `f${i}.bin`, data: randomBytes(20_000) }));
      return archive('bundle.tar.gz', gzipSync(rawTar(entries)));
    }

    it('refuses a truncated tar.gz', async () => {
      const path = await validTarGz();
      await truncate(path, Math.floor((await stat(path)).size / 2));
      const before = await tree(base);
      await assert.rejects(extractBundle(path, target), refused('corrupt', undefined, /damaged or incomplete.*Download it again/));
      await assertNothingLeft(before);
    });

    it('refuses a tar.gz with damaged compressed data, early or in the middle of a file', async () => {
      const path = await validTarGz();
      const good = await readFile(path);
      for (const at of [1000, Math.floor(good.length * 0.7)]) {
        const bytes = Buffer.from(good);
        for (let i = at; i < at + 100; i++) bytes[i] = 0xff;
        await writeFile(path, bytes);
        const before = await tree(base);
        await assert.rejects(extractBundle(path, target), refused('corrupt'));
        await assertNothingLeft(before);
      }
    });

    it('refuses gzip that holds no tar, and a tar header with a bad checksum', async () => {
      const notTar = await archive('page.tar.gz', gzipSync('<html>not a tar</html>'.repeat(100)));
      const header = rawTar([{ name: 'a.html', data: 'x' }]);
      header[0] = 'b'.charCodeAt(0);
      const badSum = await archive('badsum.tar.gz', gzipSync(header));
      const before = await tree(base);
      await assert.rejects(extractBundle(notTar, target), refused('corrupt'));
      await assert.rejects(extractBundle(badSum, target), refused('corrupt'));
      await assertNothingLeft(before);
    });

    it('refuses a truncated zip', async () => {
      const bytes = zip([{ name: 'a.html', data: randomBytes(5000) }]);
      const path = await archive('bundle.zip', bytes.subarray(0, bytes.length - 30));
      const before = await tree(base);
      await assert.rejects(extractBundle(path, target), refused('corrupt'));
      await assertNothingLeft(before);
    });
  });

  describe('cancelling', () => {
    const entries = Array.from({ length: 40 }, (_, i) => ({ name: `dir/p${i}.html`, data: randomBytes(50_000) }));

    it('stops in the middle of the file where the stop was asked, and closes it (the worker\'s readers, on this thread)', async () => {
      // Files larger than a read, so that the stop lands between two chunks of the 5th.
      const large = Array.from({ length: 10 }, (_, i) => ({ name: `dir/p${i}.html`, data: randomBytes(600_000) }));
      const readers = { 'tar.gz': readTar, zip: readZip };
      const archives = { 'tar.gz': await archive('a.tar.gz', gzipSync(rawTar(large))), zip: await archive('a.zip', zip(large)) };
      const openFiles = async (): Promise<number> => (await readdir('/proc/self/fd').catch(() => [])).length;
      for (const kind of ['tar.gz', 'zip'] as const) {
        const root = join(base, `staging-${kind}`);
        await mkdir(root);
        const fds = await openFiles();
        let stop = false;
        const staging = new Staging(root, { ...DEFAULT_LIMITS, maxEntries: 100, maxTotalBytes: 1024 ** 3 }, undefined, {
          aborted: () => stop,
          progress: (n, bytes) => {
            if (n === 5 && bytes > 4 * 600_000) stop = true;
          },
        });
        await assert.rejects(readers[kind](archives[kind], staging), AbortedError, kind);
        assert.equal(staging.entries, 5, kind);
        assert.deepEqual((await readdir(join(root, 'dir'))).sort(), ['p0.html', 'p1.html', 'p2.html', 'p3.html', 'p4.html'], kind);
        const fifth = (await stat(join(root, 'dir', 'p4.html'))).size;
        assert.ok(fifth > 0 && fifth < 600_000, `${kind}: the 5th file has ${fifth} bytes`);
        assert.equal(await openFiles(), fds, `${kind}: a file was left open`);
      }
    });

    it('leaves nothing behind when cancelled while the worker runs (tar.gz and zip)', async () => {
      const paths = [await archive('a.tar.gz', gzipSync(rawTar(entries))), await archive('a.zip', zip(entries))];
      const before = await tree(base);
      for (const path of paths) {
        const abort = new AbortController();
        let seen = 0;
        const pending = extractBundle(path, target, {
          signal: abort.signal,
          onProgress: (p) => {
            seen = p.entries;
            abort.abort();
          },
        });
        await assert.rejects(pending, AbortedError);
        assert.ok(seen >= 1 && seen < 40, `progress stopped at ${seen} entries`);
        await assertNothingLeft(before);
      }
    });

    it('asks the worker to stop through the shared flag, and waits for its answer', async () => {
      // A stand-in worker that does nothing but watch the flag, and leaves a mark when it sees it.
      const script = await archive('watching-worker.js', Buffer.from(`
        const { parentPort, workerData } = require('node:worker_threads');
        parentPort.postMessage({ type: 'progress', entries: 1, bytes: 1 });
        const watch = () => {
          if (Atomics.load(workerData.abort, 0) === 0) return setTimeout(watch, 5);
          require('node:fs').writeFileSync(workerData.archivePath + '.saw-stop', '');
          parentPort.postMessage({ type: 'failed', error: { kind: 'aborted' } });
        };
        watch();
      `));
      const path = await archive('a.tar.gz', gzipSync(rawTar(entries)));
      const abort = new AbortController();
      const started = Date.now();
      await assert.rejects(extractBundle(path, target, { signal: abort.signal, workerScript: script, onProgress: () => abort.abort() }), AbortedError);
      assert.ok(await exists(`${path}.saw-stop`), 'the worker never saw the flag');
      assert.ok(Date.now() - started < 1_500, 'the worker was ended the hard way, not asked');
    });

    it('the real worker reads the flag: set before it starts, it stops before the first entry and says so', async () => {
      const path = await archive('a.tar.gz', gzipSync(rawTar(entries)));
      const root = join(base, 'staging');
      await mkdir(root);
      const abort = new Int32Array(new SharedArrayBuffer(4));
      Atomics.store(abort, 0, 1);
      const worker = new Worker(join(__dirname, '..', '..', 'src', 'core', 'bundle', 'extract', 'extractWorker.js'), { workerData: { kind: 'tar.gz', archivePath: path, root, limits: { ...DEFAULT_LIMITS, maxEntries: 100, maxTotalBytes: 1024 ** 3 }, abort } });
      const messages: unknown[] = [];
      worker.on('message', (message) => messages.push(message));
      await once(worker, 'exit');
      assert.deepEqual(messages, [{ type: 'failed', error: { kind: 'aborted' } }]);
      assert.deepEqual(await readdir(root), []);
    });

    it('ends a worker that does not stop when asked, and leaves nothing behind', async () => {
      // A stand-in worker: writes into the staging folder, says so, then never looks at the flag again.
      const script = await archive('stuck-worker.js', Buffer.from(`
        const { parentPort, workerData } = require('node:worker_threads');
        require('node:fs').writeFileSync(require('node:path').join(workerData.root, 'half.html'), 'x');
        parentPort.postMessage({ type: 'progress', entries: 1, bytes: 1 });
        for (;;) {}
      `));
      const path = await archive('a.tar.gz', gzipSync(rawTar(entries)));
      const before = await tree(base);
      const abort = new AbortController();
      await assert.rejects(extractBundle(path, target, { signal: abort.signal, workerScript: script, onProgress: () => abort.abort() }), AbortedError);
      await assertNothingLeft(before);
    });

    it('does nothing when aborted before it starts', async () => {
      const path = await archive('a.tar.gz', gzipSync(rawTar([{ name: 'a.html', data: 'a' }])));
      const before = await tree(base);
      await assert.rejects(extractBundle(path, target, { signal: AbortSignal.abort() }), AbortedError);
      await assertNothingLeft(before);
    });
  });

  describe('the worker thread', () => {
    /** A stand-in worker that writes into the staging folder, then fails with `ending`. */
    async function failingWorker(ending: string): Promise<string> {
      return archive('failing-worker.js', Buffer.from(`
        const { workerData } = require('node:worker_threads');
        require('node:fs').writeFileSync(require('node:path').join(workerData.root, 'half.html'), 'x');
        ${ending}
      `));
    }

    for (const [what, ending, detail] of [
      ['throws', 'throw new Error("boom in the worker");', /boom in the worker/],
      ['exits without a word', 'process.exit(3);', /exit code 3/],
    ] as const) {
      it(`a worker that ${what}: says the extraction stopped, leaves nothing behind, the old contents kept`, async () => {
        await mkdir(join(target, 'old'), { recursive: true });
        await writeFile(join(target, 'old', 'page.html'), 'old');
        const script = await failingWorker(ending);
        const path = await archive('a.tar.gz', gzipSync(rawTar([{ name: 'new.html', data: 'new' }])));
        const before = await tree(base);
        await assert.rejects(extractBundle(path, target, { replace: true, workerScript: script }), (error: unknown) => {
          assert.ok(error instanceof Error && !(error instanceof UnsafeArchiveError), String(error));
          assert.match(error.message, /stopped unexpectedly/);
          assert.match(error.message, detail);
          assert.match(error.message, /Nothing was extracted.*Try again/);
          return true;
        });
        await assertNothingLeft(before);
      });
    }

    it('a worker script that is not there: the same, not a hang', async () => {
      const path = await archive('a.tar.gz', gzipSync(rawTar([{ name: 'new.html', data: 'new' }])));
      const before = await tree(base);
      await assert.rejects(extractBundle(path, target, { workerScript: join(base, 'missing-worker.js') }), /stopped unexpectedly/);
      await assertNothingLeft(before);
    });

    it('errors keep their kind and fields across the thread boundary', () => {
      const across = (error: Error): Error => received(structuredClone(sendable(error)));
      const unsafe = across(new UnsafeArchiveError('link', 'The bundle holds a link (a -> b).', 'a'));
      assert.ok(unsafe instanceof UnsafeArchiveError);
      assert.deepEqual([unsafe.reason, unsafe.entry, unsafe.message], ['link', 'a', 'The bundle holds a link (a -> b).']);
      assert.ok(across(new AbortedError()) instanceof AbortedError);
      const disk = across(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write', path: '/x/y' }));
      assert.deepEqual([disk.message, (disk as NodeJS.ErrnoException).code, (disk as NodeJS.ErrnoException).syscall, (disk as NodeJS.ErrnoException).path], ['ENOSPC: no space left on device, write', 'ENOSPC', 'write', '/x/y']);
    });
  });

  describe('the target folder', () => {
    async function oldSite(): Promise<void> {
      await mkdir(join(target, 'old'), { recursive: true });
      await writeFile(join(target, 'old', 'page.html'), 'old');
    }

    it('refuses a non-empty folder unless replacing is agreed, touching nothing', async () => {
      await oldSite();
      const path = await archive('a.tar.gz', gzipSync(rawTar([{ name: 'new.html', data: 'new' }])));
      const before = await tree(base);
      await assert.rejects(extractBundle(path, target), (e: unknown) => e instanceof TargetFolderError && e.reason === 'notEmpty');
      await assertNothingLeft(before);
    });

    it('replaces the old contents only after the new bundle extracted', async () => {
      await oldSite();
      const path = await archive('a.tar.gz', gzipSync(rawTar([{ name: 'new.html', data: 'new' }])));
      await extractBundle(path, target, { replace: true });
      assert.deepEqual(await tree(target), new Map([['new.html', Buffer.from('new')]]));
      assert.deepEqual(await readdir(join(base, 'out')), ['site']);
    });

    it('keeps the old contents when the new bundle is refused', async () => {
      await oldSite();
      const path = await archive('a.tar.gz', gzipSync(rawTar([{ name: 'new.html', data: 'new' }, { name: '../x', data: 'x' }])));
      const before = await tree(base);
      await assert.rejects(extractBundle(path, target, { replace: true }), refused('traversal'));
      await assertNothingLeft(before);
    });

    it('uses an existing empty folder, and refuses a file in the way', async () => {
      await mkdir(target, { recursive: true });
      const path = await archive('a.zip', zip([{ name: 'a.html', data: 'a' }]));
      await extractBundle(path, target);
      assert.deepEqual([...(await tree(target)).keys()], ['a.html']);
      const file = join(base, 'file');
      await writeFile(file, 'x');
      await assert.rejects(extractBundle(path, file, { replace: true }), (e: unknown) => e instanceof TargetFolderError && e.reason === 'notAFolder');
    });
  });

  describe('entry names (pure)', () => {
    it('accepts plain relative names, dropping . and empty segments', () => {
      assert.deepEqual(checkEntryPath('./docs//a.html'), { ok: true, path: 'docs/a.html' });
      assert.deepEqual(checkEntryPath('docs\\a.html'), { ok: true, path: 'docs/a.html' });
      assert.deepEqual(checkEntryPath('./'), { ok: true, path: '' });
      // Dots inside a name are no traversal (a name ending in a dot is refused: Windows drops it).
      assert.deepEqual(checkEntryPath('..foo/bar..baz'), { ok: true, path: '..foo/bar..baz' });
    });

    it('refuses .. segments and rooted names however they are spelled', () => {
      for (const name of ['..', '../x', 'a/../../x', 'a/..', 'a\\..\\x']) assert.deepEqual(checkEntryPath(name), { ok: false, problem: 'traversal' }, name);
      for (const name of ['/etc/passwd', '\\x', '\\\\server\\share', 'C:\\x', 'c:x', 'C:/x', 'a\0b']) assert.deepEqual(checkEntryPath(name), { ok: false, problem: 'absolute' }, name);
    });

    it('reads zip entry kinds from the Unix mode bits', () => {
      assert.equal(zipEntryKind('l', 0xa1ff0000), 'link');
      assert.equal(zipEntryKind('d/', 0), 'directory');
      assert.equal(zipEntryKind('f', 0), 'file');
      assert.equal(zipEntryKind('f', 0o100644 << 16), 'file');
      assert.equal(zipEntryKind('c', (0o20644 << 16) >>> 0), 'device');
    });
  });
});
