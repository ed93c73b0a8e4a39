import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { PublishResult } from '../../src/core/helm/publishPipeline';
import { readStaticExport } from '../../src/core/helm/values';
import type { DocsAdminInternals } from '../../src/extension';
import { Simulator } from '../simulator';
import { configure, fromCode, internals, waitFor } from './support';

const EXPIRED = 'https://bucket.s3.amazonaws.com/exports/old/bundle.tar.gz?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20260101T000000Z&X-Amz-Expires=3600&X-Amz-Signature=0ld';

describe('Helm values in the editor: diagnostics, quick fix, update, publish, import', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let api: DocsAdminInternals;
  let dir: string;
  let uri: vscode.Uri;
  let jobId: string;

  const valuesText = (url: string) => `# the docs deployment\nimage:\n  tag: "3"   # keep\nstaticExport:\n  enabled: true\n  bundleUrl: "${url}"\n`;
  const onDisk = () => readFileSync(uri.fsPath, 'utf8');
  const ours = () => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Docs Admin');

  before(async () => {
    sim = await Simulator.start({ timeScale: 1_000 });
    api = await internals();
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-values-it-'));
    uri = vscode.Uri.file(join(dir, 'values.yaml'));
    writeFileSync(uri.fsPath, valuesText(EXPIRED));
    await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'default' }));
    await configure({ baseUrl: sim.baseUrl, projectId: sim.projectId, environments: [], 'polling.minIntervalSeconds': 1, 'polling.maxIntervalSeconds': 5 });
    assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: sim.key })), true);
    await waitFor('the ok state', () => api.session.state === 'ok');
    // Jobs other suites tracked would make the quick fix ask which export to use.
    for (const job of api.session.service?.list() ?? []) await api.session.service?.untrack(`${job.kind}:${job.id}`);
    jobId = String(sim.addExportJob({ domain: 'docs.acme.dev', queuedMs: 0, durationMs: 0, createdAt: sim.now() - 60_000 }).jobId);
    await api.session.service?.trackExportJob(jobId);
    await waitFor('the export to read as completed', () => api.session.service?.get(`export:${jobId}`)?.snapshot?.status === 'completed');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('docsAdmin.key.clear', fromCode({ confirmed: true }));
    await configure({
      baseUrl: undefined,
      projectId: undefined,
      environments: undefined,
      'polling.minIntervalSeconds': undefined,
      'polling.maxIntervalSeconds': undefined,
      'rollout.command': undefined,
      deploymentType: undefined,
      'airGapped.bundleDirectory': undefined,
      'airGapped.bundleBaseUrl': undefined,
    });
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an expired link in a values file is an error, with a hover, and the quick fix replaces it', async () => {
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    await waitFor('the diagnostic', () => ours().length > 0);
    const [problem] = ours();
    assert.equal(problem?.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(problem?.code, 'expired');
    assert.match(problem?.message ?? '', /the deployment cannot start on its next restart/);

    const inside = problem.range.start.translate(0, 10);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, inside);
    const hoverText = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))).join('\n');
    assert.match(hoverText, /Bundle link\*\* expired/);

    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
    assert.ok(lenses.some((l) => /Bundle link expired/.test(l.command?.title ?? '')));

    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, problem.range);
    const fix = actions.find((a) => a.title === 'Regenerate bundle and update');
    assert.ok(fix?.command, 'the quick fix is offered');
    const before = sim.requests.filter((r) => r.route === 'export.bundle').length;
    const url = await vscode.commands.executeCommand<string>(fix.command.command, ...((fix.command.arguments ?? []) as unknown[]));
    assert.equal(sim.requests.filter((r) => r.route === 'export.bundle').length, before + 1, 'a new link was generated');
    assert.ok(url.startsWith(`${sim.storageBaseUrl}/bundles/`));
    assert.equal(onDisk(), valuesText(url), 'only the link changed, and the file is saved');
    await waitFor('the expiry error to clear', () => !ours().some((d) => d.code === 'expired'));
    // What stays is true of the simulator's link, and proves the file is still checked: it is
    // plain http on loopback (a deployment must not use that), and it lives an hour (within the
    // 24-hour warning window).
    assert.deepEqual(ours().map((d) => d.code as string).sort(), ['expiring', 'insecure']);
  });

  it('Update Helm Values pins a version, as an edit that can be undone', async () => {
    const row = api.exportTree.getChildren().find((n) => n.key === `export:${jobId}`);
    assert.ok(row, 'the export\'s row');
    const url = await vscode.commands.executeCommand<string>('docsAdmin.values.update', row, fromCode({ uri, version: 'v3' }));
    assert.ok(url);
    assert.equal(readStaticExport(onDisk())?.version?.value, 'v3');
    await vscode.window.showTextDocument(uri);
    await vscode.commands.executeCommand('undo');
    const document = await vscode.workspace.openTextDocument(uri);
    assert.equal(readStaticExport(document.getText())?.version?.value, undefined, 'undone in the editor');
    await vscode.commands.executeCommand('redo');
    await document.save();
  });

  it('Publish Static Export runs the whole loop, the rollout in a terminal task', async () => {
    const marker = join(dir, 'rolled-out');
    await configure({ 'rollout.command': `"${process.execPath}" -e "require('fs').writeFileSync(process.argv[1], 'done')" ${marker}` });
    const result = await vscode.commands.executeCommand<PublishResult>('docsAdmin.publish', undefined, fromCode({ domain: 'docs.acme.dev', uri }));
    assert.ok(result, 'published');
    assert.ok(result.rolledOut);
    assert.equal(readFileSync(marker, 'utf8'), 'done', 'the rollout command ran');
    assert.equal(readStaticExport(onDisk())?.bundleUrl?.value, result.bundle.bundleUrl);
    await waitFor('the published export in the tree', () => api.exportTree.getChildren().some((n) => n.key === `export:${result.jobId}`));
  });

  it('a failing rollout leaves the values file as it was', async () => {
    const before = onDisk();
    await configure({ 'rollout.command': `"${process.execPath}" -e "process.exit(4)"` });
    assert.equal(await vscode.commands.executeCommand('docsAdmin.publish', undefined, fromCode({ domain: 'docs.acme.dev', uri })), undefined);
    assert.equal(onDisk(), before);
  });

  it('air-gapped: publishing is refused, and a carried-in bundle file is imported instead', async () => {
    const served = join(dir, 'served');
    mkdirSync(served);
    await configure({ deploymentType: 'airGapped', 'airGapped.bundleDirectory': served, 'airGapped.bundleBaseUrl': 'https://docs-internal.example/bundles' });
    await waitFor('the view to say what is unavailable', () => /^Air-gapped deployment — unavailable: documentation search/.test(api.exportView.message ?? ''));
    const requests = sim.requests.length;
    assert.equal(await vscode.commands.executeCommand('docsAdmin.publish', undefined, fromCode({ domain: 'docs.acme.dev', uri })), undefined);
    assert.equal(sim.requests.length, requests, 'nothing was sent');
    const file = join(dir, 'docs-carried-in.tar.gz');
    writeFileSync(file, sim.defaultBundle());
    // Someone who can write to the served folder plants a link under the name the copy once used.
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'not to be overwritten');
    symlinkSync(victim, join(served, 'docs-carried-in.tar.gz.importing'));
    const imported = await vscode.commands.executeCommand<{ bundleUrl: string; path: string }>('docsAdmin.bundle.import', fromCode({ file, uri, rollout: false }));
    assert.equal(imported.bundleUrl, 'https://docs-internal.example/bundles/docs-carried-in.tar.gz');
    assert.deepEqual(readFileSync(join(served, 'docs-carried-in.tar.gz')), sim.defaultBundle());
    assert.equal(readFileSync(victim, 'utf8'), 'not to be overwritten', 'the planted link was not followed');
    assert.deepEqual(readdirSync(served).sort(), ['docs-carried-in.tar.gz', 'docs-carried-in.tar.gz.importing'], 'no temporary file was left');
    assert.equal(readStaticExport(onDisk())?.bundleUrl?.value, imported.bundleUrl);
    writeFileSync(join(dir, 'page.tar.gz'), '<html>not a bundle</html>');
    assert.equal(await vscode.commands.executeCommand('docsAdmin.bundle.import', fromCode({ file: join(dir, 'page.tar.gz'), uri, rollout: false })), undefined, 'an HTML page is refused');
    assert.equal(readStaticExport(onDisk())?.bundleUrl?.value, imported.bundleUrl);
  });
});
