import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
// The module itself (the extension host's, which VS Code patches), to count the requests made with it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
import https = require('node:https');
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as vscode from 'vscode';
import type { DownloadResult } from '../../src/core/bundle/download/download';
import type { ExtractSummary } from '../../src/core/bundle/extract/extract';
import type { DocsAdminInternals } from '../../src/extension';
import type { JobNode } from '../../src/vscode/views/jobsTree';
import { Simulator } from '../simulator';
import { makeTestCertificates, type TestCertificates } from '../support/certificates';
import { siteFiles } from '../simulator/site';
import { rawTar } from '../unit/support/archives';
import { hands, openOnScreen } from './screen';
import { configure, fromCode, internals, waitFor } from './support';

describe('the bundle in the editor: generate, download, extract, preview', function () {
  this.timeout(60_000);
  let pki: TestCertificates;
  let sim: Simulator;
  let api: DocsAdminInternals;
  let dir: string;
  let jobId: string;

  const jobRow = () => api.exportTree.getChildren().find((n) => n.key === `export:${jobId}`);
  const parts = () => {
    const row = jobRow();
    return row === undefined ? [] : api.exportTree.getChildren(row);
  };
  const part = (name: 'archive' | 'folder') => parts().find((n) => n.part === name);
  const itemOf = (node: JobNode) => api.exportTree.getTreeItem(node);
  const bundleCalls = () => sim.requests.filter((r) => r.route === 'export.bundle').length;

  before(async () => {
    // The storage over TLS, as every real store is, signed by a test CA the settings trust.
    pki = makeTestCertificates();
    sim = await Simulator.start({ timeScale: 1_000, storageTls: { key: pki.key, cert: pki.cert } });
    api = await internals();
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-bundle-it-'));
    await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'default' }));
    await configure({ baseUrl: sim.baseUrl, projectId: sim.projectId, environments: [], 'polling.minIntervalSeconds': 1, 'polling.maxIntervalSeconds': 5, 'network.extraCaCertificates': [pki.caFile] });
    assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: sim.key })), true);
    await waitFor('the ok state', () => api.session.state === 'ok');
    jobId = String(sim.addExportJob({ domain: 'docs.acme.dev', queuedMs: 0, durationMs: 0, createdAt: sim.now() - 60_000, pages: 7 }).jobId);
    await api.session.service?.trackExportJob(jobId);
    await waitFor('the completed row', () => {
      const row = jobRow();
      return row !== undefined && String(itemOf(row).description).startsWith('completed');
    });
  });

  after(async () => {
    await api.previews.stop();
    await vscode.commands.executeCommand('docsAdmin.key.clear', fromCode({ confirmed: true }));
    await configure({ baseUrl: undefined, projectId: undefined, environments: undefined, 'polling.minIntervalSeconds': undefined, 'polling.maxIntervalSeconds': undefined, 'network.extraCaCertificates': undefined, 'download.connections': undefined });
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
    pki.remove();
  });

  it('Generate Bundle shows the time left on the row', async () => {
    const before = bundleCalls();
    const result = await vscode.commands.executeCommand<{ expiresInMs: number }>('docsAdmin.export.generateBundle', jobRow());
    assert.ok(result.expiresInMs > 59 * 60_000 && result.expiresInMs <= 3600_000, String(result.expiresInMs));
    assert.equal(bundleCalls(), before + 1);
    await waitFor('the expiry on the row', () => String(itemOf(jobRow()!).description).includes('link expires in 59m'));
  });

  it('an expired link is marked, and Copy Bundle Link regenerates it first', async () => {
    sim.setLinkTtlSeconds(2);
    await vscode.commands.executeCommand('docsAdmin.export.generateBundle', jobRow());
    const stale = api.session.links?.peek(jobId);
    assert.ok(stale);
    sim.setLinkTtlSeconds(3600);
    // Nobody touches the row: it redraws itself when the link expires.
    await waitFor('the expired mark', () => String(itemOf(jobRow()!).description).includes('link expired'), 5_000);
    const before = bundleCalls();
    assert.equal(await vscode.commands.executeCommand('docsAdmin.export.copyBundleLink', jobRow()), true);
    assert.equal(bundleCalls(), before + 1, 'a new link was generated');
    const copied = await vscode.env.clipboard.readText();
    assert.notEqual(copied, stale.bundle.bundleUrl);
    await waitFor('the new expiry', () => String(itemOf(jobRow()!).description).includes('link expires in 59m'));
  });

  it('a link that comes already expired is never copied or shown as ready: asked for again (3 in all), then refused with what to check', async () => {
    sim.setLinkTtlSeconds(-120);
    api.session.links?.forget(jobId);
    await vscode.env.clipboard.writeText('before');
    const mark = api.messages.recent.at(-1);
    const before = bundleCalls();
    try {
      assert.notEqual(await vscode.commands.executeCommand('docsAdmin.export.copyBundleLink', jobRow()), true);
      assert.equal(bundleCalls(), before + 3);
      assert.equal(await vscode.env.clipboard.readText(), 'before', 'no expired link reached the clipboard');
      await vscode.commands.executeCommand('docsAdmin.export.generateBundle', jobRow());
      assert.equal(bundleCalls(), before + 6);
      const shown = api.messages.recent.slice(mark === undefined ? 0 : api.messages.recent.indexOf(mark) + 1);
      assert.equal(shown.filter((m) => m.severity === 'error' && /had already expired .*3 asked for in all.*clock/.test(m.text)).length, 2, JSON.stringify(shown));
      assert.ok(!shown.some((m) => /Bundle ready|link copied/.test(m.text)), JSON.stringify(shown));
    } finally {
      sim.setLinkTtlSeconds(3600);
    }
  });

  it('Download Bundle saves a verified file, sends no key to the storage, and shows it under the job', async () => {
    const target = join(dir, 'docs-acme.tar.gz');
    const result = await vscode.commands.executeCommand<DownloadResult>('docsAdmin.export.downloadBundle', jobRow(), fromCode({ target }));
    assert.equal(result.bytes, sim.defaultBundle().length);
    assert.ok(readFileSync(target).equals(sim.defaultBundle()));
    const storage = sim.requests.filter((r) => r.origin === 'storage');
    assert.ok(storage.length > 0);
    for (const r of storage) assert.equal(r.headers.authorization, undefined, 'no Authorization to the link host');
    await waitFor('the archive row', () => part('archive') !== undefined);
    const archive = itemOf(part('archive')!);
    assert.equal(archive.contextValue, 'exportJob.bundle.archive');
    assert.match(String(archive.description), /^docs-acme\.tar\.gz · /);
    assert.equal(itemOf(jobRow()!).collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
  });

  describe('over TLS, as every real store serves bundles', () => {
    /** A real tar.gz just over the 64 MiB from which the editor downloads in ranges (random content: stored, not compressed). */
    let big: Buffer;
    before(async () => {
      // Mocha runs these after the tests above, the last of which stopped tracking the job.
      await api.session.service?.trackExportJob(jobId);
      await waitFor('the completed row', () => {
        const row = jobRow();
        return row !== undefined && String(itemOf(row).description).startsWith('completed');
      });
      big = gzipSync(rawTar([{ name: 'index.html', data: '<!doctype html><title>Docs</title>' }, { name: 'assets/video.bin', data: randomBytes(64 * 1024 * 1024) }]), { level: 1 });
    });

    afterEach(async () => {
      sim.setStorageDelivery({});
      sim.setBundleContent(sim.defaultBundle());
      await configure({ 'download.connections': undefined });
      // The next link names the default bundle's size.
      await api.session.links?.regenerate(jobId);
    });

    it('the storage is https:, trusted through docsAdmin.network.extraCaCertificates', () => {
      assert.match(sim.storageBaseUrl, /^https:\/\/127\.0\.0\.1:\d+$/);
      assert.match(api.session.network?.describe() ?? '', /1 extra CA certificate\(s\) trusted/);
    });

    for (const connections of [1, 4]) {
      it(`Download Bundle from a store writing 4,000-byte TLS records, docsAdmin.download.connections ${connections}: the stored object byte for byte`, async () => {
        await configure({ 'download.connections': connections });
        sim.setBundleContent(big);
        sim.setStorageDelivery({ pieceBytes: 4_000 });
        await api.session.links?.regenerate(jobId);
        sim.clearRequests();
        const target = join(dir, `records-${connections}.tar.gz`);
        const result = await vscode.commands.executeCommand<DownloadResult>('docsAdmin.export.downloadBundle', jobRow(), fromCode({ target }));
        assert.equal(result.kind, 'tar.gz');
        assert.ok(readFileSync(target).equals(big), 'the saved file differs from the stored object');
        const gets = sim.requests.filter((r) => r.route === 'storage.get');
        assert.deepEqual(gets.map((r) => r.headers.range === undefined), Array.from({ length: connections }, () => connections === 1), 'one stream, or four ranges');
        rmSync(target);
      });
    }

    it('Download Bundle from a store that flips one byte mid-file, the length right: a clear error, nothing saved', async () => {
      sim.setBundleContent(big);
      sim.setStorageDelivery({ flipByteAt: Math.floor(big.length / 2) });
      await api.session.links?.regenerate(jobId);
      const before = api.messages.recent.at(-1);
      const target = join(dir, 'flipped.tar.gz');
      assert.equal(await vscode.commands.executeCommand('docsAdmin.export.downloadBundle', jobRow(), fromCode({ target })), undefined);
      const shown = api.messages.recent.slice(before === undefined ? 0 : api.messages.recent.indexOf(before) + 1);
      assert.ok(
        shown.some((m) => /^The downloaded bundle is damaged or incomplete \(.+\): its bytes are not the archive the export made\. Nothing was saved\./.test(m.text)),
        JSON.stringify(shown.map((m) => m.text)),
      );
      assert.ok(!readdirSync(dir).some((f) => f.includes('flipped')), `nothing saved, no temporary file: ${readdirSync(dir).join(', ')}`);
    });

    it("Download Bundle makes every storage request with Node's https, as docs/proxies.md says (VS Code's proxy support patches it; its original serves loopback)", async () => {
      const module = https as unknown as { get: (...args: unknown[]) => unknown; __vscodeOriginal?: { get: (...args: unknown[]) => unknown } };
      const targets = [module, module.__vscodeOriginal].filter((m): m is { get: (...args: unknown[]) => unknown } => m !== undefined && m !== null);
      const originals = targets.map((m) => m.get);
      let calls = 0;
      targets.forEach((m, i) => {
        m.get = (...args: unknown[]) => {
          calls++;
          return originals[i]?.(...args);
        };
      });
      sim.clearRequests();
      try {
        const target = join(dir, 'counted.tar.gz');
        await vscode.commands.executeCommand<DownloadResult>('docsAdmin.export.downloadBundle', jobRow(), fromCode({ target }));
        assert.ok(readFileSync(target).equals(sim.defaultBundle()));
        rmSync(target);
      } finally {
        targets.forEach((m, i) => (m.get = originals[i] ?? m.get));
      }
      const gets = sim.requests.filter((r) => r.route === 'storage.get').length;
      assert.equal(gets, 1);
      assert.equal(calls, gets);
      const page = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'proxies.md'), 'utf8');
      assert.match(page, /Every bundle download, in the CLI and in the editor, is one GET per connection made with Node's own `https` module/);
    });
  });

  it('Download Bundle\'s save dialog (the real one, as this window shows it): Enter on the suggested name saves <name>.tar.gz, not .tar.gz.tar.gz, in the last folder used, not the repository', async () => {
    // In the suite's folder, kept to its end: the job's row now points to the bundle saved here,
    // and the tests after this one extract and preview it.
    const where = mkdtempSync(join(dir, 'save-'));
    // A download there first (no dialog): the dialog starts where the last download went.
    assert.ok(await vscode.commands.executeCommand('docsAdmin.export.downloadBundle', jobRow(), fromCode({ target: join(where, 'first.tar.gz') })));
    const name = `docs-docs.acme.dev-${new Date().toISOString().slice(0, 10)}.tar.gz`;
    const pending = vscode.commands.executeCommand<DownloadResult | undefined>('docsAdmin.export.downloadBundle', jobRow());
    await waitFor('the save dialog', () => openOnScreen().quickInput, 20_000);
    // As a person who takes the suggestion: Enter.
    await hands({ press: 'Enter' });
    const result = await pending;
    assert.equal(result?.path, join(where, name), `saved as ${result?.path ?? 'nothing'}`);
    assert.deepEqual(readdirSync(where).sort(), ['first.tar.gz', name].sort(), 'no .tar.gz.tar.gz, nothing else');
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    assert.ok(!readdirSync(workspace).some((f) => f.endsWith('.tar.gz')), 'nothing saved in the repository');
  });

  it('Download Bundle never overwrites a file the user did not agree to replace', async () => {
    const target = join(dir, 'keep-me.tar.gz');
    writeFileSync(target, 'precious');
    assert.equal(await vscode.commands.executeCommand('docsAdmin.export.downloadBundle', jobRow(), fromCode({ target })), undefined);
    assert.equal(readFileSync(target, 'utf8'), 'precious');
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.includes('keep-me')),
      ['keep-me.tar.gz'],
      'no temporary file left',
    );
  });

  it('Download Bundle refuses an HTML error page served as the bundle, and saves nothing', async () => {
    sim.setBundleContent(Buffer.from('<!doctype html><html><body>502 Bad Gateway</body></html>'));
    try {
      // A link whose sizeBytes matches the page, so the check that catches it is "the archive opens".
      await api.session.links?.regenerate(jobId);
      const target = join(dir, 'error-page.tar.gz');
      assert.equal(await vscode.commands.executeCommand('docsAdmin.export.downloadBundle', jobRow(), fromCode({ target })), undefined);
      assert.ok(!readdirSync(dir).some((f) => f.includes('error-page')), 'nothing saved');
    } finally {
      sim.setBundleContent(sim.defaultBundle());
    }
  });

  it('Extract Bundle extracts into a folder and shows pages, size and file types under the job', async () => {
    const folder = join(dir, 'site');
    const summary = await vscode.commands.executeCommand<ExtractSummary>('docsAdmin.export.extractBundle', jobRow(), fromCode({ folder }));
    assert.equal(summary.pages, 7);
    for (const [name, content] of siteFiles()) assert.equal(readFileSync(join(folder, name), 'utf8'), content, name);
    await waitFor('the folder row', () => part('folder') !== undefined);
    const row = itemOf(part('folder')!);
    assert.match(row.label as string, /^Extracted: 7 pages · [\d.]+ KB$/);
    assert.match(String(row.description), /^html 7 · css 1 · js 1$/);
    assert.equal(row.contextValue, 'exportJob.bundle.folder');
  });

  it('Extract Bundle holds to docsAdmin.extract.ratioCheckAfterMegabytes and maxCompressionRatio from the settings', async () => {
    // 8 MiB of zeros: within the defaults (the ratio counts after 64 MiB).
    const archive = join(dir, 'zeros.tar.gz');
    writeFileSync(archive, gzipSync(rawTar([{ name: 'zeros.bin', data: Buffer.alloc(8 * 1024 * 1024) }])));
    try {
      await configure({ 'extract.ratioCheckAfterMegabytes': 1 });
      assert.equal(await vscode.commands.executeCommand('docsAdmin.export.extractBundle', undefined, fromCode({ archive, folder: join(dir, 'refused') })), undefined);
      assert.ok(!readdirSync(dir).some((f) => f.includes('refused')), 'nothing extracted');
      await configure({ 'extract.maxCompressionRatio': 5000 });
      const summary = await vscode.commands.executeCommand<ExtractSummary>('docsAdmin.export.extractBundle', undefined, fromCode({ archive, folder: join(dir, 'allowed') }));
      assert.equal(summary.bytes, 8 * 1024 * 1024);
    } finally {
      await configure({ 'extract.ratioCheckAfterMegabytes': undefined, 'extract.maxCompressionRatio': undefined });
    }
  });

  it('Serve Bundle Locally serves the folder on loopback with the export rewrite, and stops when its tab closes', async () => {
    const url = await vscode.commands.executeCommand<string>('docsAdmin.export.previewBundle', part('folder'));
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await fetch(new URL('guides/install', url));
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<title>Install<\/title>/);
    const isPreviewTab = (tab: vscode.Tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.includes('simpleBrowser');
    await waitFor('the Simple Browser tab', () => vscode.window.tabGroups.all.some((g) => g.tabs.some(isPreviewTab)));
    assert.equal(api.previews.list().length, 1);
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs.filter(isPreviewTab));
    await vscode.window.tabGroups.close(tabs);
    await waitFor('the server to stop', () => api.previews.list().length === 0);
    await assert.rejects(fetch(url), 'the port is closed');
  });

  it('Stop Tracking forgets the bundle rows but leaves the files', async () => {
    assert.equal(await vscode.commands.executeCommand('docsAdmin.job.stopTracking', jobRow()), true);
    assert.equal(api.session.shelf?.get(jobId), undefined);
    assert.ok(readFileSync(join(dir, 'docs-acme.tar.gz')).length > 0);
    assert.ok(readdirSync(join(dir, 'site')).length > 0);
  });
});
