/**
 * The reliability matrix where the editor is part of it: the input boxes' commands with hostile
 * input, the tracked jobs over the real globalState (ExtHostMemento), and a publish while the
 * values document has unsaved changes.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { PublishResult } from '../../src/core/helm/publishPipeline';
import { readStaticExport } from '../../src/core/helm/values';
import { JobRegistry } from '../../src/core/jobs/registry';
import type { DocsAdminInternals } from '../../src/extension';
import { Simulator } from '../simulator';
import { configure, fromCode, hostLogger, internals, waitFor } from './support';
import { jobKey, type TrackedJob } from '../../src/core/jobs/trackedJob';

const STAGING_KEY = 'da_reliability_staging_key_77f3';

describe('reliability in the editor: hostile input, shared state, values changed during a publish', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let api: DocsAdminInternals;
  let dir: string;

  const globalState = () => (api.session as unknown as { context: vscode.ExtensionContext }).context.globalState;
  const exportStarts = () => sim.requests.filter((r) => r.route === 'export.start').length;

  before(async () => {
    sim = await Simulator.start({ timeScale: 1_000, keys: [{ key: 'da_sim_demo_3f9c2a7e51b84d06' }, { key: STAGING_KEY }] });
    api = await internals();
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-reliability-it-'));
    await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'default' }));
    await configure({ baseUrl: sim.baseUrl, projectId: sim.projectId, environments: [{ name: 'staging', baseUrl: sim.baseUrl, projectId: 'proj_staging' }], 'polling.minIntervalSeconds': 1, 'polling.maxIntervalSeconds': 5 });
    assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: sim.key })), true);
    await waitFor('the ok state', () => api.session.state === 'ok');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'env:staging' }));
    await vscode.commands.executeCommand('docsAdmin.key.clear', fromCode({ confirmed: true }));
    await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'default' }));
    await vscode.commands.executeCommand('docsAdmin.key.clear', fromCode({ confirmed: true }));
    await configure({ baseUrl: undefined, projectId: undefined, environments: undefined, 'polling.minIntervalSeconds': undefined, 'polling.maxIntervalSeconds': undefined, 'rollout.command': undefined });
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('the input boxes\' commands @input', () => {
    it('Set Admin Key takes a key pasted with "Bearer " and line breaks, and stores it clean', async () => {
      assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: `Bearer ${sim.key}\r\n` })), true);
      sim.clearRequests();
      await vscode.commands.executeCommand('docsAdmin.refresh');
      sim.addAgentJob({ id: 'rel-key-check' });
      await vscode.commands.executeCommand('docsAdmin.agentJob.track', fromCode({ value: 'rel-key-check' }));
      await waitFor('a request', () => sim.requests.some((r) => r.route === 'agent.get'));
      assert.ok(sim.requests.every((r) => r.headers.authorization === `Bearer ${sim.key}`));
    });

    it('Set Admin Key refuses a key with a line break inside, keeping the one in use', async () => {
      assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: `${sim.key.slice(0, 8)}\n${sim.key.slice(8)}` })), undefined);
      assert.equal(api.session.state, 'ok');
    });

    it('Track Agent Job refuses the admin key pasted as a job id: nothing sent', async () => {
      sim.clearRequests();
      assert.equal(await vscode.commands.executeCommand('docsAdmin.agentJob.track', fromCode({ value: sim.key })), undefined);
      // Refused before anything was tracked: nothing can read it, now or later.
      assert.equal(api.session.service?.get(`agent:${sim.key}`), undefined);
      assert.ok(!sim.requests.some((r) => r.path.includes(sim.key)), 'the key never travelled in a path');
    });

    it('Set Project ID refuses the admin key of another environment', async () => {
      await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'env:staging' }));
      await waitFor('staging', () => api.session.environment.name === 'staging');
      assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: STAGING_KEY })), true);
      await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'default' }));
      await waitFor('default', () => api.session.environment.id === 'default' && api.session.state === 'ok');
      assert.equal(await vscode.commands.executeCommand('docsAdmin.projectId.set', fromCode({ value: ` ${STAGING_KEY}\n` })), undefined);
      assert.equal(vscode.workspace.getConfiguration('docsAdmin').get('projectId'), sim.projectId, 'the key never reached the settings');
    });

    it('Set Base URL refuses credentials and line breaks, and keeps the URL in use', async () => {
      for (const bad of ['https://admin:s3cret@api.example.com', 'https://api.exa\nmple.com', 'admin:s3cret@api.example.com']) {
        assert.equal(await vscode.commands.executeCommand('docsAdmin.baseUrl.set', fromCode({ value: bad })), undefined, bad);
      }
      assert.equal(vscode.workspace.getConfiguration('docsAdmin').get('baseUrl'), sim.baseUrl);
    });

    it('Start Static Export sends an international domain in punycode', async () => {
      const jobId = await vscode.commands.executeCommand<string>('docsAdmin.export.start', fromCode({ value: 'dócs.example.com' }));
      assert.ok(jobId);
      assert.deepEqual(JSON.parse(sim.requests.filter((r) => r.route === 'export.start').at(-1)?.body ?? '{}'), { domain: 'xn--dcs-gna.example.com' });
      const before = exportStarts();
      assert.equal(await vscode.commands.executeCommand('docsAdmin.export.start', fromCode({ value: 'docs.example.com\u0000' })), undefined);
      assert.equal(exportStarts(), before, 'nothing was sent');
    });

    it('Open Pull Request refuses a link with a user name before its host', async () => {
      sim.addAgentJob({ id: 'rel-pr-userinfo', repository: 'https://github.com@evil.example/acme/docs', durationMs: 1 });
      await vscode.commands.executeCommand('docsAdmin.agentJob.track', fromCode({ value: 'rel-pr-userinfo' }));
      await waitFor('the job read', () => {
        const snapshot = api.session.service?.get('agent:rel-pr-userinfo')?.snapshot;
        return snapshot !== undefined && 'prLink' in snapshot && snapshot.prLink !== null;
      });
      const row = api.agentTree.getChildren().find((n) => n.key === 'agent:rel-pr-userinfo');
      assert.equal(await vscode.commands.executeCommand('docsAdmin.agentJob.openPullRequest', row), false);
    });
  });

  describe('tracked jobs over the real globalState @state', () => {
    const KEY = 'docsAdmin.test.reliability.jobs';

    afterEach(async () => {
      await globalState().update(KEY, undefined);
      await globalState().update(`${KEY}.stopped`, undefined);
    });

    it('two registries on the one memento: both jobs kept, a stop not undone; the memento keeps a copy, the same until it changes', async () => {
      const a = new JobRegistry(globalState(), KEY, hostLogger('registry'));
      const b = new JobRegistry(globalState(), KEY, hostLogger('registry'));
      await a.add({ kind: 'agent', id: 'x', addedAt: 1 });
      await b.add({ kind: 'agent', id: 'y', addedAt: 2 });
      const given = [{ kind: 'agent', id: 'probe', addedAt: 3 }];
      await globalState().update(`${KEY}.probe`, given);
      assert.notEqual(globalState().get(`${KEY}.probe`), given, 'ExtHostMemento keeps a clone of what it is given');
      assert.equal(globalState().get(`${KEY}.probe`), globalState().get(`${KEY}.probe`), 'and returns that same clone until it changes (the registry caches its parse on it)');
      await globalState().update(`${KEY}.probe`, undefined);
      const written = globalState().get(KEY);
      assert.deepEqual((written as TrackedJob[]).map(jobKey), ['agent:x', 'agent:y']);
      await a.remove('agent:y');
      await b.updateSnapshot('agent:y', { id: 'y', status: 'active', rawStatus: 'active', source: { repository: 'https://github.com/acme/docs', ref: null }, model: 'm', prLink: null, createdAt: '2026-11-23T10:00:00Z', archivedAt: null });
      assert.deepEqual((globalState().get(KEY) as TrackedJob[]).map(jobKey), ['agent:x']);
      assert.equal(b.has('agent:y'), false);
    });

    it('a job another window tracked shows and is polled once the window reads the store again (what focus does)', async () => {
      const service = api.session.service;
      assert.ok(service);
      sim.addAgentJob({ id: 'rel-other-window', durationMs: 1_000, held: true });
      const storageKey = `docsAdmin.jobs.${api.session.environment.id}`;
      const stored = globalState().get<unknown[]>(storageKey) ?? [];
      // As the other window's write arrives: in the memento, with no event.
      await globalState().update(storageKey, [...stored, { kind: 'agent', id: 'rel-other-window', addedAt: Date.now() }]);
      sim.clearRequests();
      service.reload();
      await waitFor('the row', () => api.agentTree.getChildren().some((n) => n.key === 'agent:rel-other-window'));
      await waitFor('a poll', () => sim.requests.some((r) => r.path.endsWith('/job/rel-other-window')));
      // And the other window stops it.
      const now = globalState().get(storageKey) as { id: string }[];
      await globalState().update(`${storageKey}.stopped`, [{ key: 'agent:rel-other-window', at: Date.now() }]);
      await globalState().update(storageKey, now.filter((j) => j.id !== 'rel-other-window'));
      service.reload();
      await waitFor('the row to go', () => !api.agentTree.getChildren().some((n) => n.key === 'agent:rel-other-window'));
    });
  });

  describe('publishing while the values document has unsaved changes @state', () => {
    let uri: vscode.Uri;
    const VALUES = '# the docs deployment\nimage:\n  tag: "3"\nstaticExport:\n  enabled: false\n  bundleUrl: ""\n';
    const onDisk = () => readFileSync(uri.fsPath, 'utf8');

    before(async () => {
      uri = vscode.Uri.file(join(dir, 'values.yaml'));
      writeFileSync(uri.fsPath, VALUES);
      await configure({ 'rollout.command': `"${process.execPath}" -e "0"` });
      // The web workbench saves after a second by default; desktop VS Code does not, and an unsaved edit is the case here.
      await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    });

    after(async () => {
      await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    });

    async function typeInto(document: vscode.TextDocument, text: string): Promise<void> {
      const edit = new vscode.WorkspaceEdit();
      edit.insert(uri, document.positionAt(document.getText().length), text);
      assert.ok(await vscode.workspace.applyEdit(edit));
    }

    it('unsaved when it starts: refused before an export is started; the unsaved text and the file are kept', async () => {
      const document = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(document);
      await typeInto(document, 'resources: {}  # not saved yet\n');
      const before = exportStarts();
      assert.equal(await vscode.commands.executeCommand('docsAdmin.publish', undefined, fromCode({ domain: 'docs.acme.dev', uri })), undefined);
      assert.equal(exportStarts(), before, 'no export was started');
      assert.ok(document.isDirty);
      assert.match(document.getText(), /# not saved yet/);
      assert.equal(onDisk(), VALUES);
      await vscode.commands.executeCommand('workbench.action.files.revert');
      assert.equal(document.isDirty, false);
    });

    it('edited (not saved) while the export runs: stopped at the values step; the edit and the file are kept', async () => {
      // The export is held running by the simulator until the edit is made.
      sim.setExportDefaults({ queuedMs: 0, durationMs: 1_000, held: true });
      const document = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(document);
      const running: Thenable<PublishResult | undefined> = vscode.commands.executeCommand('docsAdmin.publish', undefined, fromCode({ domain: 'docs.acme.dev', uri, rollout: false }));
      const before = sim.requests.filter((r) => r.route === 'export.status').length;
      await waitFor('the export to be followed', () => sim.requests.filter((r) => r.route === 'export.status').length > before);
      await typeInto(document, 'replicas: 3  # typed during the publish\n');
      sim.setExportDefaults({ held: false });
      sim.releaseAll();
      assert.equal(await running, undefined, 'stopped');
      assert.ok(document.isDirty);
      assert.match(document.getText(), /typed during the publish/);
      assert.equal(onDisk(), VALUES, 'the file on disk is untouched');
      await vscode.commands.executeCommand('workbench.action.files.revert');
    });

    it('changed on disk (outside staticExport) while the export runs: the change is kept and the link written into it', async () => {
      // The export is held running by the simulator until the file has changed.
      sim.setExportDefaults({ queuedMs: 0, durationMs: 1_000, held: true });
      const running: Thenable<PublishResult | undefined> = vscode.commands.executeCommand('docsAdmin.publish', undefined, fromCode({ domain: 'docs.acme.dev', uri, rollout: false }));
      const before = sim.requests.filter((r) => r.route === 'export.status').length;
      await waitFor('the export to be followed', () => sim.requests.filter((r) => r.route === 'export.status').length > before);
      writeFileSync(uri.fsPath, VALUES.replace('tag: "3"', 'tag: "4"  # from git pull'));
      sim.setExportDefaults({ held: false });
      sim.releaseAll();
      const result = await running;
      assert.ok(result, 'published');
      assert.match(onDisk(), /tag: "4" {2}# from git pull/);
      assert.equal(readStaticExport(onDisk())?.bundleUrl?.value, result.bundle.bundleUrl);
      sim.setExportDefaults({ queuedMs: 2_000, durationMs: 60_000 });
    });
  });
});
