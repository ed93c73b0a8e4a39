/**
 * The extraction's second locks and its settings: Windows device names, the joined path kept
 * inside the staging folder, the free space watched as bytes are written, the ratio thresholds
 * as settings and flags (one set of defaults, in the core and in package.json), the settings
 * restricted in untrusted workspaces, and Import's temporary copy.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { copyIntoPlace } from '../../src/core/bundle/copyIntoPlace';
import { DiskSpaceError, DiskWatch, diskReserve } from '../../src/core/bundle/diskSpace';
import { checkEntryPath, isWindowsReservedName, UnsafeArchiveError } from '../../src/core/bundle/extract/archivePaths';
import { extractBundle } from '../../src/core/bundle/extract/extract';
import { DEFAULT_LIMITS, EXTRACT_DEFAULTS, extractLimits, flagNames } from '../../src/core/bundle/extract/limits';
import { Staging } from '../../src/core/bundle/extract/staging';
import { rawTar, zip } from './support/archives';

const MiB = 1024 * 1024;
const ROOT = resolve(__dirname, '../../..');

describe('extraction hardening', function () {
  this.timeout(30_000);
  let base: string;

  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'docs-admin-harden-'));
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  describe('Windows device names', () => {
    it('are refused in any segment, with or without an extension, trailing dots and spaces, in any case', () => {
      const reserved = ['CON', 'con', 'Nul', 'PRN.html', 'aux.tar.gz', 'COM1', 'com9.txt', 'LPT1', 'lpt9.', 'NUL.', 'CON...', 'nul ', 'NUL .txt', 'COM0', 'COM\u00b9', 'LPT\u00b3.log', 'CONIN$', 'conout$.x'];
      for (const name of reserved) assert.ok(isWindowsReservedName(name), name);
      for (const name of ['docs/nul.html', 'a\\CON\\b.html', 'LPT1/index.html']) assert.equal(checkEntryPath(name).ok, false, name);
      assert.deepEqual(checkEntryPath('docs/aux.html'), { ok: false, problem: 'reservedName', segment: 'aux.html', why: 'device' });
    });

    it('are refused before a colon too, and so are data streams and names Windows would cut short', () => {
      for (const name of ['nul:x', 'CON:', 'com1:stream', 'aux :x', 'Lpt1.:y', 'conin$:z']) assert.ok(isWindowsReservedName(name), name);
      for (const name of ['page:stream', 'docs/index.html:hidden', 'a/bc:d/e.html', 'index.html.', 'guide /index.html', 'page.html ', 'dir./x']) {
        const checked = checkEntryPath(name);
        assert.equal(checked.ok, false, name);
        assert.equal(!checked.ok && checked.problem, 'reservedName', name);
      }
      // One letter before the colon: Windows reads a drive (x:stream is x: and stream).
      assert.deepEqual(checkEntryPath('x:stream'), { ok: false, problem: 'absolute' });
      for (const name of ['docs/a.b.c.html', 'v1.2/index.html', '.well-known/x', 'a b/c d.html']) assert.equal(checkEntryPath(name).ok, true, name);
    });

    it('are told from names that only look like them', () => {
      for (const name of ['console.html', 'null', 'nul_', 'COM10', 'LPT', 'com', 'auxiliary.css', 'a.con', 'x.NUL', 'conin', 'CON-1']) assert.ok(!isWindowsReservedName(name), name);
      assert.deepEqual(checkEntryPath('guide/console/null.html'), { ok: true, path: 'guide/console/null.html' });
    });

    for (const kind of ['tar.gz', 'zip'] as const) {
      it(`${kind}: an archive with one is refused, said so, and nothing is written`, async () => {
        const entries = [{ name: 'index.html', data: 'ok' }, { name: 'docs/NUL.html', data: 'x' }];
        const path = join(base, `a.${kind}`);
        await writeFile(path, kind === 'zip' ? zip(entries) : gzipSync(rawTar(entries)));
        const error = await extractBundle(path, join(base, 'site')).then(() => undefined, (e: unknown) => e);
        assert.ok(error instanceof UnsafeArchiveError && error.reason === 'reservedName', String(error));
        assert.match(error.message, /named like a Windows device \(docs\/NUL\.html: NUL\.html\).*Nothing was extracted/);
        assert.deepEqual(await readdir(base), [`a.${kind}`]);
      });
    }
  });

  describe('the path as the disk takes it', () => {
    it('a path that resolves outside the staging folder is refused before anything is created', async () => {
      const root = join(base, 'staging');
      await mkdir(root);
      const staging = new Staging(root, DEFAULT_LIMITS, undefined, { aborted: () => false, progress: () => undefined });
      for (const path of ['../escaped.html', 'a/../../escaped.html', '..', '']) {
        assert.throws(() => staging.file(path, path, () => 0), (e: unknown) => e instanceof UnsafeArchiveError && e.reason === 'traversal', path);
      }
      assert.throws(() => staging.directory('../escaped-dir', '../escaped-dir'), (e: unknown) => e instanceof UnsafeArchiveError && e.reason === 'traversal');
      assert.deepEqual(await readdir(base), ['staging']);
      assert.deepEqual(await readdir(root), []);
    });
  });

  describe('the disk, watched as bytes are written', () => {
    /** A disk of `total` bytes with `free` free, which shrinks as the watch lets bytes through. */
    function disk(total: number, free: number) {
      const state = { free, looks: 0 };
      return { state, stat: () => (state.looks++, { free: state.free, total }) };
    }

    it('stops before the reserve, saying so, and looks more often as the free space nears it', () => {
      const d = disk(1000 * MiB, 100 * MiB);
      const watch = new DiskWatch('/staging', '/target-parent', d.stat);
      const reserve = diskReserve(1000 * MiB);
      assert.equal(reserve, 20 * MiB);
      let written = 0;
      const error = (() => {
        try {
          for (;;) {
            watch.take(256 * 1024);
            written += 256 * 1024;
            d.state.free -= 256 * 1024;
          }
        } catch (e) {
          return e;
        }
      })();
      assert.ok(error instanceof DiskSpaceError, String(error));
      assert.match(error.message, /^The extraction stopped before the disk was full: only 20\.\d MB was still free in \/target-parent, and 20\.0 MB is kept free\. Free some space or extract it somewhere else\. Nothing was extracted, and the folder was left as it was\.$/);
      assert.ok(d.state.free >= reserve, `the reserve was kept (${d.state.free} free)`);
      assert.ok(written >= 80 * MiB - 256 * 1024, `it wrote up to the reserve (${written})`);
      assert.ok(d.state.looks > 5 && d.state.looks < 40, `looked ${d.state.looks} times`);
    });

    it('a disk filled by someone else meanwhile is seen at the next look', () => {
      const d = disk(1000 * MiB, 900 * MiB);
      const watch = new DiskWatch('/staging', '/p', d.stat);
      watch.take(MiB);
      d.state.free = 10 * MiB;
      assert.throws(() => {
        for (let i = 0; i < 64; i++) watch.take(MiB);
      }, DiskSpaceError);
    });

    it('a system that does not say lets the writes through (the disk itself is then the check)', () => {
      const watch = new DiskWatch('/staging', '/p', () => undefined);
      for (let i = 0; i < 100; i++) watch.take(64 * MiB);
    });
  });

  describe('the ratio thresholds are settings and flags', () => {
    const zeros = (n: number) => gzipSync(rawTar([{ name: 'index.html', data: 'ok' }, { name: 'zeros.bin', data: Buffer.alloc(n) }]));

    it('8 MiB of zeros passes the defaults; with the check starting after 4 MiB it is refused, naming the setting; with the ratio raised it passes', async () => {
      const path = join(base, 'z.tar.gz');
      await writeFile(path, zeros(8 * MiB));
      assert.equal((await extractBundle(path, join(base, 'a'))).bytes, 8 * MiB + 2);
      const error = await extractBundle(path, join(base, 'b'), { ratioAfterBytes: 4 * MiB }).then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof UnsafeArchiveError && error.reason === 'compressionRatio', String(error));
      assert.match(error.message, /raise the setting docsAdmin\.extract\.maxCompressionRatio\.$/);
      assert.equal(existsSync(join(base, 'b')), false);
      assert.equal((await extractBundle(path, join(base, 'c'), { ratioAfterBytes: 4 * MiB, maxRatio: 5000 })).bytes, 8 * MiB + 2);
    });

    it('the CLI names its flags instead', async () => {
      const path = join(base, 'z.tar.gz');
      await writeFile(path, zeros(8 * MiB));
      const names = flagNames();
      const ratio = await extractBundle(path, join(base, 'b'), { ratioAfterBytes: 4 * MiB, limitNames: names }).then(() => undefined, (e: unknown) => e);
      assert.match(String((ratio as Error).message), /raise the option --max-compression-ratio\.$/);
      const size = await extractBundle(path, join(base, 'b'), { maxTotalBytes: MiB, limitNames: names }).then(() => undefined, (e: unknown) => e);
      assert.match(String((size as Error).message), /raise the option --max-total-mb\.$/);
      const entries = await extractBundle(path, join(base, 'b'), { maxEntries: 1, limitNames: names }).then(() => undefined, (e: unknown) => e);
      assert.match(String((entries as Error).message), /raise the option --max-entries\.$/);
    });

    it('nonsense from a setting or flag falls back to the default', () => {
      assert.deepEqual(extractLimits({ maxEntries: 'lots', maxTotalMegabytes: -1, maxCompressionRatio: Number.NaN, ratioCheckAfterMegabytes: null }), DEFAULT_LIMITS);
      assert.deepEqual(extractLimits({ maxEntries: 10, maxTotalMegabytes: 1, maxCompressionRatio: 7, ratioCheckAfterMegabytes: 2 }), { maxEntries: 10, maxTotalBytes: MiB, maxRatio: 7, ratioAfterBytes: 2 * MiB });
    });
  });

  describe('one set of defaults, and the settings restricted', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
      contributes: { configuration: { properties: Record<string, { default?: unknown; scope?: string }> } };
    };
    const settings = manifest.contributes.configuration.properties;

    it("package.json's docsAdmin.extract.* defaults are the core's (which the CLI uses)", () => {
      const extract = Object.keys(settings).filter((k) => k.startsWith('docsAdmin.extract.'));
      assert.deepEqual(extract.sort(), Object.keys(EXTRACT_DEFAULTS).map((k) => `docsAdmin.extract.${k}`).sort());
      for (const [key, value] of Object.entries(EXTRACT_DEFAULTS)) assert.equal(settings[`docsAdmin.extract.${key}`]?.default, value, key);
    });

    it('an untrusted workspace cannot raise them: every docsAdmin.extract.* setting is restricted', () => {
      const restricted = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations;
      for (const key of Object.keys(settings).filter((k) => k.startsWith('docsAdmin.extract.'))) assert.ok(restricted.includes(key), key);
    });
  });

  describe("Import's copy into the served folder", () => {
    it('never follows a link planted under a guessable name, and leaves no temporary file', async () => {
      const served = join(base, 'served');
      await mkdir(served);
      const source = join(base, 'bundle.tar.gz');
      await writeFile(source, 'the bundle');
      const victim = join(base, 'victim.txt');
      await writeFile(victim, 'not to be overwritten');
      const target = join(served, 'bundle.tar.gz');
      await symlink(victim, `${target}.importing`);
      await copyIntoPlace(source, target);
      assert.equal(await readFile(target, 'utf8'), 'the bundle');
      assert.equal(await readFile(victim, 'utf8'), 'not to be overwritten');
      assert.deepEqual((await readdir(served)).sort(), ['bundle.tar.gz', 'bundle.tar.gz.importing']);
    });

    it('a failed copy leaves nothing beside the target', async () => {
      const served = join(base, 'served');
      await mkdir(served);
      await assert.rejects(copyIntoPlace(join(base, 'missing.tar.gz'), join(served, 'b.tar.gz')), /ENOENT/);
      assert.deepEqual(await readdir(served), []);
      assert.ok(existsSync(dirname(served)));
    });
  });
});
