import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { DocsAdminInternals } from '../../src/extension';
import { Simulator } from '../simulator';
import { configure, fromCode, internals, waitFor } from './support';

/**
 * The Getting Started walkthrough: each step completes on a `docsAdmin.setup.*` context key
 * (see package.json), which must turn true only when the step has really been done.
 */
describe('the Getting Started walkthrough follows what was really done', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let api: DocsAdminInternals;
  let dir: string;

  before(async () => {
    sim = await Simulator.start({ timeScale: 1_000, exportDefaults: { queuedMs: 0, durationMs: 2_000 } });
    api = await internals();
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-setup-'));
    // A fresh environment: no key, no project id, no jobs.
    await configure({ environments: [{ name: 'walkthrough', baseUrl: sim.baseUrl, projectId: '' }], 'polling.minIntervalSeconds': 1 });
    await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'env:walkthrough' }));
    await waitFor('the walkthrough environment', () => api.session.environment.id === 'env:walkthrough');
  });

  after(async () => {
    await vscode.commands.executeCommand('docsAdmin.key.clear', fromCode({ confirmed: true }));
    await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'default' }));
    await configure({ environments: undefined, 'polling.minIntervalSeconds': undefined, 'rollout.command': undefined });
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const step = (name: keyof typeof api.setup.current) => api.setup.current[name];

  it('opens from its command', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const tabs = () => vscode.window.tabGroups.all.flatMap((group) => group.tabs);
    assert.deepEqual(tabs().map((t) => t.label), [], 'no editor open before');
    await vscode.commands.executeCommand('docsAdmin.walkthrough.open');
    await waitFor('the walkthrough\'s editor', () => tabs().some((t) => t.isActive));
    // The walkthrough shows in the workbench's Welcome editor; without the command, no editor opens.
    assert.deepEqual(tabs().map((t) => t.label), ['Welcome']);
  });

  it('starts with the key, project, job and export steps open', async () => {
    await api.setup.update();
    assert.deepEqual([step('keySet'), step('projectSet'), step('agentJobTracked'), step('exportStarted')], [false, false, false, false]);
  });

  it('the key step completes when a key is stored', async () => {
    assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: sim.key })), true);
    await waitFor('the key step', () => step('keySet') === true);
    assert.equal(step('projectSet'), false, 'a key alone does not connect the project');
  });

  it('the project step completes once the base URL and project id are set', async () => {
    await vscode.commands.executeCommand('docsAdmin.projectId.set', fromCode({ value: sim.projectId }));
    await waitFor('the project step', () => step('projectSet') === true);
  });

  it('the job and export steps complete when a job is tracked and an export started', async () => {
    sim.addAgentJob({ id: 'walkthrough-job', durationMs: 1_000 });
    assert.equal(step('agentJobTracked'), false);
    await vscode.commands.executeCommand('docsAdmin.agentJob.track', fromCode({ value: 'walkthrough-job' }));
    await waitFor('the job step', () => step('agentJobTracked') === true);
    assert.equal(step('exportStarted'), false);
    await vscode.commands.executeCommand('docsAdmin.export.start', fromCode({ value: 'docs.acme.dev' }));
    await waitFor('the export step', () => step('exportStarted') === true);
  });

  it('the publish step completes only when a publish went through, rollout included', async () => {
    const uri = vscode.Uri.file(join(dir, 'values.yaml'));
    writeFileSync(uri.fsPath, 'staticExport:\n  enabled: false\n');
    await configure({ 'rollout.command': `"${process.execPath}" -e "process.exit(3)"` });
    const started = Date.now();
    assert.equal(await vscode.commands.executeCommand('docsAdmin.publish', undefined, fromCode({ domain: 'docs.acme.dev', uri })), undefined, 'the rollout failed');
    // Another suite of this host may have published before: what counts is whether this one is recorded.
    assert.ok((api.setup.lastPublishedAt ?? 0) < started, 'a failed publish is not recorded');
    await configure({ 'rollout.command': `"${process.execPath}" -e "process.exit(0)"` });
    assert.ok(await vscode.commands.executeCommand('docsAdmin.publish', undefined, fromCode({ domain: 'docs.acme.dev', uri })), 'published');
    assert.ok((api.setup.lastPublishedAt ?? 0) >= started, 'the publish is recorded');
    await waitFor('the publish step', () => step('published') === true);
  });
});
