import * as assert from 'node:assert/strict';
import { BundleShelf } from '../../src/core/bundle/shelf/shelf';
import { recordingLogger } from './support/logger';
import { MemoryStore } from './support/memoryStore';
import { describeSummary, shelfRows } from '../../src/core/bundle/shelf/shelfRows';
import { formatBytes } from '../../src/core/formatUnits';

describe('bundle shelf (what this machine holds of each bundle)', () => {
  const log = recordingLogger('shelf');
  const warnings = log.lines;

  it('merges updates, persists them, tells listeners, and forgets', async () => {
    const store = new MemoryStore();
    const shelf = new BundleShelf(store, 'docsAdmin.bundles.default', log);
    const changed: string[] = [];
    shelf.onDidChange((id) => changed.push(id));
    await shelf.update('exp_1', { archive: '/tmp/a.tar.gz', archiveBytes: 2048 });
    await shelf.update('exp_1', { folder: '/tmp/a', summary: { pages: 3, files: 5, bytes: 4096, types: { html: 3, css: 2 } } });
    const reloaded = new BundleShelf(store, 'docsAdmin.bundles.default', log);
    assert.deepEqual(reloaded.get('exp_1'), { archive: '/tmp/a.tar.gz', archiveBytes: 2048, folder: '/tmp/a', summary: { pages: 3, files: 5, bytes: 4096, types: { html: 3, css: 2 } } });
    await shelf.update('exp_1', { archive: undefined });
    assert.equal(shelf.get('exp_1')?.archive, undefined);
    assert.equal(shelf.get('exp_1')?.folder, '/tmp/a');
    await shelf.forget('exp_1');
    assert.equal(shelf.get('exp_1'), undefined);
    assert.deepEqual(changed, ['exp_1', 'exp_1', 'exp_1', 'exp_1']);
  });

  it('skips an unreadable entry with a log line, and keeps the others and the entry itself', async () => {
    const store = new MemoryStore();
    await store.update('k', { bad: { folder: 42 }, good: { folder: '/tmp/g' } });
    const shelf = new BundleShelf(store, 'k', log);
    assert.equal(shelf.get('bad'), undefined);
    assert.match(warnings.at(-1) ?? '', /unreadable bundle record for export job bad/);
    await shelf.update('good', { extractedAt: 1 });
    assert.deepEqual((store.get('k') as Record<string, unknown>).bad, { folder: 42 }, 'kept as it was');
    // Storage that is not an object at all reads as empty.
    await store.update('k2', 'garbage');
    assert.equal(new BundleShelf(store, 'k2', log).get('x'), undefined);
  });

  it('rows under an export job: the archive, then the extracted folder with pages, size and types', () => {
    assert.deepEqual(shelfRows(undefined), []);
    const rows = shelfRows({
      archive: '/home/me/docs-acme-2026-11-23.tar.gz',
      archiveBytes: 1_500_000,
      folder: '/home/me/docs-acme-2026-11-23',
      summary: { pages: 7, files: 9, bytes: 14_540, types: { html: 7, css: 1, js: 1 } },
    });
    assert.deepEqual(
      rows.map((r) => [r.part, r.label, r.description, r.contextValue]),
      [
        ['archive', 'Downloaded', 'docs-acme-2026-11-23.tar.gz · 1.4 MB', 'exportJob.bundle.archive'],
        ['folder', 'Extracted: 7 pages · 14.2 KB', 'html 7 · css 1 · js 1', 'exportJob.bundle.folder'],
      ],
    );
    assert.ok(rows[1]?.details.includes('Folder: /home/me/docs-acme-2026-11-23'));
  });

  it('describes sizes and types for people', () => {
    assert.equal(formatBytes(0), '0 B');
    assert.equal(formatBytes(1023), '1023 B');
    assert.equal(formatBytes(1536), '1.5 KB');
    assert.equal(formatBytes(200 * 1024 * 1024), '200 MB');
    assert.equal(formatBytes(3 * 1024 ** 3), '3.0 GB');
    assert.deepEqual(describeSummary({ pages: 1, files: 2, bytes: 10, types: { '': 1, html: 1 } }), { headline: '1 page · 10 B', types: '(none) 1 · html 1' });
  });
});
