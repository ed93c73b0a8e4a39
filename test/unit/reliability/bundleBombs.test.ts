/**
 * Reliability matrix, bundles: archive bombs against the compression-ratio guard, with the
 * default caps (one set, for the CLI and the extension), and a large real site that must pass.
 * The bombs are made here, streaming zeros through zlib. Each bomb case asserts what the user
 * sees (a refusal naming the limit and how to raise it), how much was written before it (at most
 * the ratio threshold's worth, plus what one inflated chunk adds), and that nothing is left.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readTar, readZip } from '../../../src/core/bundle/extract/archiveReaders';
import { UnsafeArchiveError } from '../../../src/core/bundle/extract/archivePaths';
import { extractBundle, type ExtractOptions } from '../../../src/core/bundle/extract/extract';
import { DEFAULT_LIMITS, EXTRACT_DEFAULTS, type ExtractLimits } from '../../../src/core/bundle/extract/limits';
import { Staging } from '../../../src/core/bundle/extract/staging';
import { rawTar, tree } from '../support/archives';
import { bigSite, writeSiteTarGz, writeSiteZip } from '../support/bigSite';
import { TAR_END, tarGzip, tarGzipBomb, tarZerosEntry, zipBomb, zipOfZeros } from '../support/bombs';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
/** The most a refused bomb may have written: the threshold, plus one inflated chunk (256 KiB). */
const THRESHOLD = DEFAULT_LIMITS.ratioAfterBytes;
const CHUNK = 256 * 1024;
const CLI = resolve(__dirname, '../../../../dist/cli.js');

type Kind = 'tar.gz' | 'zip';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail('expected a refusal');
}

async function bytesUnder(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/** The bomb, made once for the two cases that use it (4 s of zlib). */
let fourGiB: Promise<Buffer> | undefined;
const fourGiBTarGz = (): Promise<Buffer> => (fourGiB ??= tarGzipBomb(4 * GiB));

describe('reliability: bundles, bombs against the compression ratio (default caps) @bundles', function () {
  this.timeout(180_000);
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'docs-admin-rel-bombs-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  /**
   * The refusal, and what the worker's reader had written when it came (read here, on this
   * thread, from a staging folder of its own: what is on disk, not what progress said).
   */
  async function writtenBeforeRefusal(kind: Kind, archive: string, limits: ExtractLimits = DEFAULT_LIMITS): Promise<{ error: unknown; written: number }> {
    const root = await mkdtemp(join(dir, 'staging-'));
    try {
      const staging = new Staging(root, limits, undefined, { aborted: () => false, progress: () => undefined });
      const error = await rejection(kind === 'zip' ? readZip(archive, staging) : readTar(archive, staging));
      const written = await bytesUnder(root);
      assert.equal(written, staging.bytes, 'the count is what is on disk');
      return { error, written };
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }

  /** Extracted into a missing folder, then over an old site the user agreed to replace: refused both times, nothing left. */
  async function refusedLeavingNothing(archive: string, options: ExtractOptions = {}): Promise<unknown> {
    const scene = await mkdtemp(join(dir, 'scene-'));
    try {
      const target = join(scene, 'out', 'site');
      const first = await rejection(extractBundle(archive, target, options));
      assert.deepEqual(await readdir(scene), [], 'nothing was left behind, no folder created');
      await mkdir(target, { recursive: true });
      await writeFile(join(target, 'index.html'), 'the old site');
      const second = await rejection(extractBundle(archive, target, { ...options, replace: true }));
      assert.equal((second as Error).constructor, (first as Error).constructor);
      assert.deepEqual([...(await tree(scene)).entries()], [['out/', null], ['out/site/', null], ['out/site/index.html', Buffer.from('the old site')]], 'the old site is whole, nothing else is there');
      return first;
    } finally {
      await rm(scene, { recursive: true, force: true });
    }
  }

  function ratioRefusal(error: unknown, entry?: string): UnsafeArchiveError {
    assert.ok(error instanceof UnsafeArchiveError, `expected UnsafeArchiveError, got ${String(error)}`);
    assert.equal(error.reason, 'compressionRatio', error.message);
    assert.equal(error.entry, entry);
    assert.match(error.message, new RegExp(`more than ${EXTRACT_DEFAULTS.maxCompressionRatio} times over`));
    assert.match(error.message, /as an archive bomb does; nothing was extracted\. If you trust the bundle, raise the setting docsAdmin\.extract\.maxCompressionRatio\./);
    if (entry !== undefined) assert.ok(error.message.includes(entry), error.message);
    return error;
  }

  const bombs: { title: string; kind: Kind; make: () => Promise<Buffer>; entry?: string; before?: number }[] = [
    { title: 'tar.gz: one 4 GiB file of zeros (about 4 MB; its header declares exactly the 4096 MB cap)', kind: 'tar.gz', make: fourGiBTarGz },
    { title: 'zip: one deflated 4 GiB entry (ZIP64, declared honestly)', kind: 'zip', make: () => zipBomb(4 * GiB) },
    {
      title: 'tar.gz under every cap: 300 files of 1 MiB of zeros (each file under the threshold; the whole archive is not)',
      kind: 'tar.gz',
      make: () => tarGzip((function* () {
        for (let i = 0; i < 300; i++) yield* tarZerosEntry(`page-${i}.html`, MiB);
        yield TAR_END;
      })()),
    },
    { title: 'zip under every cap: 300 entries of 1 MiB of zeros', kind: 'zip', make: () => zipOfZeros(Array.from({ length: 300 }, (_, i): [string, number] => [`page-${i}.html`, MiB])) },
    {
      title: 'tar.gz: 4 MB of real-looking data, then a 512 MiB file of zeros (the archive\'s ratio stays low; the file\'s does not)',
      kind: 'tar.gz',
      make: () => tarGzip((function* () {
        yield rawTar([{ name: 'assets/photo.jpg', data: randomBytes(4 * MiB) }]).subarray(0, 512 + 4 * MiB);
        yield* tarZerosEntry('assets/zeros.bin', 512 * MiB);
        yield TAR_END;
      })()),
      entry: 'assets/zeros.bin',
      before: 4 * MiB,
    },
    { title: 'zip: 4 MB stored, then a deflated 512 MiB entry of zeros', kind: 'zip', make: () => zipOfZeros([['assets/photo.jpg', randomBytes(4 * MiB)], ['assets/zeros.bin', 512 * MiB]]), entry: 'assets/zeros.bin', before: 4 * MiB },
  ];

  for (const b of bombs) {
    it(`${b.title}: refused by the ratio, at most ${THRESHOLD / MiB} MiB written, nothing left`, async () => {
      const bytes = await b.make();
      assert.ok(bytes.length < 8 * MiB, `the bomb is small (${bytes.length} bytes)`);
      const archive = join(dir, `bomb.${b.kind}`);
      await writeFile(archive, bytes);
      const { error, written } = await writtenBeforeRefusal(b.kind, archive);
      ratioRefusal(error, b.entry);
      const most = (b.before ?? 0) + THRESHOLD + CHUNK;
      assert.ok(written <= most, `wrote ${written} bytes before the refusal, more than ${most}`);
      ratioRefusal(await refusedLeavingNothing(archive), b.entry);
    });
  }

  it('CLI: export extract of the 4 GiB gzip bomb exits 6 with one line naming the flag to raise, and creates no folder', async () => {
    const archive = join(dir, 'cli-bomb.tar.gz');
    await writeFile(archive, await fourGiBTarGz());
    const target = join(dir, 'cli-out', 'site');
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
      execFile(process.execPath, [CLI, 'export', 'extract', archive, '--dir', target], { env: { PATH: process.env.PATH ?? '' } }, (error, stdout, stderr) => {
        done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
      });
    });
    assert.equal(run.code, 6, run.stderr);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /^docs-admin: .*expands more than 100 times over .*nothing was extracted\. If you trust the bundle, raise the option --max-compression-ratio\.\n$/);
    assert.equal(existsSync(join(dir, 'cli-out')), false, 'no folder was created');
  });

  for (const kind of ['tar.gz', 'zip'] as const) {
    it(`${kind}: a realistic 300 MB site (7,000 varied pages, compressing 5-10:1) extracts whole with the default caps @control`, async () => {
      const archive = join(dir, `site.${kind}`);
      const made = await (kind === 'zip' ? writeSiteZip : writeSiteTarGz)(bigSite(300_000_000), archive);
      const ratio = made.expanded / (await stat(archive)).size;
      assert.ok(ratio >= 5 && ratio <= 10, `the site compresses ${ratio.toFixed(1)}:1, as a real one does`);
      const target = join(dir, `site-${kind}`);
      try {
        const summary = await extractBundle(archive, target);
        assert.equal(summary.files, made.files);
        assert.equal(summary.bytes, made.expanded);
        assert.equal(await bytesUnder(target), made.expanded);
        assert.ok(summary.pages > 7000, `${summary.pages} pages`);
      } finally {
        await rm(target, { recursive: true, force: true });
        await rm(archive, { force: true });
      }
    });
  }
});
