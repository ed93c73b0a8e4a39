import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DocsAdminInternals } from '../../src/extension';
import type { JobNode } from '../../src/vscode/tree/jobsTree';
import { Simulator } from '../simulator';
import { configure, fromCode, internals, waitFor } from './support';

describe('agent jobs and exports in the editor (against the simulator)', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let api: DocsAdminInternals;

  const item = (node: JobNode, tree = api.agentTree) => tree.getTreeItem(node);
  const rows = (tree = api.agentTree) => tree.getChildren();
  const row = (id: string, tree = api.agentTree) => rows(tree).find((n) => n.key.endsWith(`:${id}`));
  const description = (id: string, tree = api.agentTree) => {
    const node = row(id, tree);
    return node === undefined ? undefined : String(item(node, tree).description);
  };

  /** The tooltip's Markdown as a person reads it (escapes removed). */
  const tooltipText = (treeItem: vscode.TreeItem) => (treeItem.tooltip as vscode.MarkdownString).value.replace(/\\(.)/g, '$1');

  before(async () => {
    // 1 real ms is 1 simulated second: a 30-minute job takes 1.8 s.
    sim = await Simulator.start({ timeScale: 1_000 });
    api = await internals();
    await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'default' }));
    await vscode.commands.executeCommand('docsAdmin.key.clear', fromCode({ confirmed: true }));
    await configure({ baseUrl: sim.baseUrl, projectId: sim.projectId, environments: [], 'polling.minIntervalSeconds': 1, 'polling.maxIntervalSeconds': 5 });
  });

  after(async () => {
    sim.releaseAll();
    await vscode.commands.executeCommand('docsAdmin.key.clear', fromCode({ confirmed: true }));
    await configure({ baseUrl: undefined, projectId: undefined, environments: undefined, 'polling.minIntervalSeconds': undefined, 'polling.maxIntervalSeconds': undefined });
    await sim.stop();
  });

  it('asks for the key first; once it is set, the tree fills', async () => {
    await waitFor('the no-key state', () => api.session.state === 'noKey');
    sim.addAgentJob({ id: 'job-first', repository: 'https://github.com/acme/docs', ref: 'main', durationMs: 1_000 });
    assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: `  ${sim.key}  ` })), true, 'the key is trimmed and accepted');
    await waitFor('the ok state', () => api.session.state === 'ok');
    await vscode.commands.executeCommand('docsAdmin.agentJob.track', fromCode({ value: 'job-first' }));
    await waitFor('the row', () => description('job-first')?.startsWith('pull request opened') === true);
    const node = row('job-first');
    assert.ok(node);
    const treeItem = item(node);
    assert.equal(treeItem.label, 'acme/docs @ main');
    assert.equal(treeItem.contextValue, 'agentJob.completed.hasPr');
    assert.match(tooltipText(treeItem), /Pull request: https:\/\/github\.com\/acme\/docs\/pull\/\d+/);
    assert.match(tooltipText(treeItem), /Model: docs-agent-1/);
  });

  it('refuses a key the server rejects, without saving it', async () => {
    assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: 'da_wrong_key_999' })), false);
    assert.equal(api.session.state, 'ok', 'the good key is still in use');
  });

  it('tracks a job by a pasted URL', async () => {
    sim.addAgentJob({ id: 'job-from-url', durationMs: 1_000 });
    const id = await vscode.commands.executeCommand('docsAdmin.agentJob.track', fromCode({ value: `${sim.baseUrl}/v2/agent/${sim.projectId}/job/job-from-url` }));
    assert.equal(id, 'job-from-url');
    await waitFor('the row', () => row('job-from-url') !== undefined);
  });

  it('an active job turning completed updates its row and the status bar, and notifies', async () => {
    // Held active by the simulator until released: a slow machine's first reading still finds it active.
    sim.addAgentJob({ id: 'job-live', repository: 'https://github.com/acme/guides', ref: 'agent/live', durationMs: 1_000, held: true });
    await vscode.commands.executeCommand('docsAdmin.agentJob.track', fromCode({ value: 'job-live' }));
    await waitFor('the active row', () => description('job-live')?.startsWith('active') === true);
    assert.equal(item(row('job-live') as JobNode).contextValue, 'agentJob.active');
    await waitFor('the status bar', () => api.statusBar.text === '1 agent job');
    sim.release('job-live');
    await waitFor('completion', () => description('job-live')?.startsWith('pull request opened') === true, 15_000);
    await waitFor('the status bar to hide', () => api.statusBar.text === undefined);
    // Other jobs of this suite may finish at the same moment: look among the recent notices.
    await waitFor('the notification', () => api.notifier.recent.some((n) => n.message === 'Agent job on acme/guides @ agent/live opened a pull request.'));
    const notice = api.notifier.recent.find((n) => n.message.startsWith('Agent job on acme/guides'));
    assert.deepEqual(notice?.actions.map((a) => a.title), ['Open Pull Request']);
  });

  it('shows the server\'s 404 message on the row', async () => {
    await vscode.commands.executeCommand('docsAdmin.agentJob.track', fromCode({ value: 'job-that-does-not-exist' }));
    await waitFor('the error', () => (description('job-that-does-not-exist') ?? '').includes('not found'));
    assert.match(tooltipText(item(row('job-that-does-not-exist') as JobNode)), /Agent job not found/);
  });

  it('Open Pull Request refuses javascript:, command: and file: links', async () => {
    const cases: [string, string][] = [
      ['pr-js', 'javascript:alert(1)//'],
      ['pr-cmd', 'command:workbench.action.terminal.new?'],
      ['pr-file', 'file:///etc/passwd#'],
    ];
    for (const [id, repository] of cases) {
      sim.addAgentJob({ id, repository, durationMs: 1 });
      await vscode.commands.executeCommand('docsAdmin.agentJob.track', fromCode({ value: id }));
      await waitFor(`${id} read`, () => (description(id) ?? '').startsWith('pull request opened'));
      const opened = await vscode.commands.executeCommand('docsAdmin.agentJob.openPullRequest', row(id));
      assert.equal(opened, false, `${repository} was refused`);
    }
  });

  it('Start Static Export strips a pasted scheme and path, and refuses what is not a domain', async () => {
    const jobId = await vscode.commands.executeCommand<string>('docsAdmin.export.start', fromCode({ value: 'https://docs.acme.dev/guides/install' }));
    assert.ok(jobId);
    const sent = sim.requests.filter((r) => r.route === 'export.start').at(-1);
    assert.deepEqual(JSON.parse(sent?.body ?? '{}'), { domain: 'docs.acme.dev' });
    await waitFor('the export row', () => row(jobId, api.exportTree) !== undefined);
    const before = sim.requests.filter((r) => r.route === 'export.start').length;
    assert.equal(await vscode.commands.executeCommand('docsAdmin.export.start', fromCode({ value: 'not a domain' })), undefined);
    assert.equal(sim.requests.filter((r) => r.route === 'export.start').length, before, 'nothing was sent');
  });

  it('an export that fails before its first poll still notifies: the reply to the start was its first reading', async () => {
    if (api.session.state !== 'ok') assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: sim.key })), true);
    // Held running, so the start's answer says running; the moment that answer is sent, the export
    // is moved to its end (failed): every poll, the first one included, finds it failed.
    sim.setExportDefaults({ queuedMs: 0, durationMs: 50_000, outcome: 'failed', error: 'Rendering failed: page /quick timed out', held: true });
    const failing = sim.onExchange(({ request, reply }) => {
      if (request.route === 'export.start') sim.stepJob(String((JSON.parse(reply.body) as { jobId: string }).jobId), 50_000);
    });
    const jobId = await Promise.resolve(vscode.commands.executeCommand<string>('docsAdmin.export.start', fromCode({ value: 'docs.quickfail.dev' }))).finally(failing);
    assert.ok(jobId);
    await waitFor('the failed row', () => (description(jobId, api.exportTree) ?? '').startsWith('failed'), 15_000);
    await waitFor('the notification', () => api.notifier.recent.some((n) => n.message === 'Static export of docs.quickfail.dev failed: Rendering failed: page /quick timed out'));
    const polls = sim.requests.filter((r) => r.route === 'export.status' && r.path.endsWith(`/${jobId}`));
    assert.equal(polls.length, 1, 'its first poll already said failed');
    sim.setExportDefaults({ outcome: 'completed', held: false });
  });

  it('an export shows progress, then offers its bundle link with the expiry', async () => {
    // Held by the simulator where it starts (queued), then moved to 40 % and held there while the
    // test reads it; released, it ends.
    sim.setExportDefaults({ queuedMs: 100_000, durationMs: 1_000_000, pages: 300, held: true });
    const jobId = await vscode.commands.executeCommand<string>('docsAdmin.export.start', fromCode({ value: 'docs.acme.dev' }));
    sim.setExportDefaults({ held: false });
    await waitFor('the queued row', () => (description(jobId, api.exportTree) ?? '').startsWith('queued'));
    sim.stepJob(jobId, 100_000 + 400_000);
    await waitFor('progress', () => (description(jobId, api.exportTree) ?? '').startsWith('running · 40% · 120 pages'), 15_000);
    await waitFor('the status bar', () => /^Export 40%/.test(api.statusBar.text ?? ''));
    sim.release(jobId);
    await waitFor('completion', () => (description(jobId, api.exportTree) ?? '').startsWith('completed · 300 pages'), 15_000);
    await waitFor('the notification', () => api.notifier.recent.some((n) => n.message === 'Static export of docs.acme.dev completed (300 pages).'));
    assert.equal(await vscode.commands.executeCommand('docsAdmin.export.copyBundleLink', row(jobId, api.exportTree)), true);
    const link = await vscode.env.clipboard.readText();
    assert.ok(link.startsWith(`${sim.storageBaseUrl}/bundles/`));
    await waitFor('the expiry on the row', () => (description(jobId, api.exportTree) ?? '').includes('link expires in 59m'));
  });

  it('a rejected key shows the key-rejected state and stops polling', async () => {
    sim.addAgentJob({ id: 'job-before-revoke', durationMs: 1_000, held: true });
    await vscode.commands.executeCommand('docsAdmin.agentJob.track', fromCode({ value: 'job-before-revoke' }));
    await waitFor('the row', () => (description('job-before-revoke') ?? '').startsWith('active'));
    const good = sim.keys.splice(0, sim.keys.length, { key: 'da_replacement_key' });
    try {
      await vscode.commands.executeCommand('docsAdmin.refresh');
      await waitFor('the key-rejected state', () => api.session.state === 'unauthorized');
      assert.match(api.session.stateMessage ?? '', /rejected/);
      // Paused, with every poll under way answered: no request comes while the key is rejected.
      await waitFor('polling to stop', () => api.session.service?.isIdle === true);
    } finally {
      sim.keys.splice(0, sim.keys.length, ...good);
    }
    await vscode.commands.executeCommand('docsAdmin.refresh');
    await waitFor('recovery', () => api.session.state === 'ok');
  });

  it('refreshes only the row whose job changed', async () => {
    // A running export whose progress changes at every poll (each reading moves it on by 1 %, and it
    // is held running) while its place in the list does not.
    sim.setExportDefaults({ queuedMs: 0, durationMs: 1_000_000, pages: 1_000, held: true });
    const jobId = await vscode.commands.executeCommand<string>('docsAdmin.export.start', fromCode({ value: 'rows.acme.dev' }));
    sim.setExportDefaults({ held: false });
    const moving = sim.onExchange(({ request }) => {
      if (request.route === 'export.status' && request.path.endsWith(`/${jobId}`)) sim.stepJob(jobId, 10_000);
    });
    await waitFor('the running row', () => (description(jobId, api.exportTree) ?? '').startsWith('running'));
    const events: (JobNode | JobNode[] | undefined | null | void)[] = [];
    const listening = api.exportTree.onDidChangeTreeData((e) => events.push(e));
    try {
      await waitFor('three row updates', () => events.filter(Array.isArray).length >= 3, 15_000);
    } finally {
      listening.dispose();
      moving();
      await vscode.commands.executeCommand('docsAdmin.job.stopTracking', row(jobId, api.exportTree));
    }
    for (const e of events) {
      assert.ok(Array.isArray(e), 'no whole-tree refresh while only one row changed');
      assert.deepEqual(e.map((n) => n.key), [`export:${jobId}`]);
    }
  });

  it('names the active environment beside the views\' titles', () => {
    assert.equal(api.agentView.description, 'Default');
  });

  it('the tracked jobs survive the session being rebuilt from storage', async () => {
    const before = rows().map((n) => n.key).sort();
    await api.session.rebuild();
    assert.deepEqual(rows().map((n) => n.key).sort(), before);
  });

  it('refuses the key where the project id belongs, and the reverse, keeping both as they were', async () => {
    const config = () => vscode.workspace.getConfiguration('docsAdmin');
    assert.equal(await vscode.commands.executeCommand('docsAdmin.projectId.set', fromCode({ value: sim.key })), undefined, 'refused');
    assert.equal(config().get('projectId'), sim.projectId, 'the key never reached the settings');
    assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: sim.projectId })), undefined, 'refused');
    assert.equal(api.session.state, 'ok', 'the key in use is still the good one');
    await vscode.commands.executeCommand('docsAdmin.refresh');
    assert.ok(sim.requests.some((r) => r.headers.authorization === `Bearer ${sim.key}`));
  });

  it('two environments keep separate keys', async () => {
    await configure({ environments: [{ name: 'staging', baseUrl: sim.baseUrl, projectId: sim.projectId }] });
    await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'env:staging' }));
    await waitFor('staging without a key', () => api.session.environment.name === 'staging' && api.session.state === 'noKey');
    assert.equal(api.agentView.description, 'staging');
    assert.equal(rows().length, 0, 'staging has its own (empty) job list');
    await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'default' }));
    await waitFor('default with its key', () => api.session.environment.id === 'default' && api.session.state === 'ok');
    assert.ok(rows().length > 0);
  });
});
