/**
 * Deployments, previews and automations in the editor, against the simulator: the Deployments
 * view, the commands, the one scheduler's polls, the status bar, the notifications and their
 * actions, and the logs document.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DocsAdminInternals } from '../../src/extension';
import type { JobNode } from '../../src/vscode/views/jobsTree';
import { Simulator } from '../simulator';
import { configure, fromCode, internals, waitFor } from './support';

describe('deployments, previews and automations in the editor (against the simulator)', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let api: DocsAdminInternals;
  let site: string;

  /** The Deployments view's own row (a command takes only the rows the view handed out). */
  const node = (statusId: string): JobNode => {
    const row = api.deploymentTree.getChildren().find((n) => n.key === `deployment:${statusId}`);
    assert.ok(row, `the row of deployment ${statusId}`);
    return row;
  };
  const deploymentRow = (statusId: string) => api.deploymentTree.getChildren().find((n) => n.key === `deployment:${statusId}`);
  const describeRow = (statusId: string) => {
    const row = deploymentRow(statusId);
    return row === undefined ? undefined : api.deploymentTree.getTreeItem(row);
  };
  const agentRow = (id: string) => api.agentTree.getChildren().find((n) => n.key === `agent:${id}`);
  const triggers = (route: 'deploy.trigger' | 'preview.trigger' | 'automation.trigger') => sim.requests.filter((r) => r.route === route);
  const noticeAfter = (mark: number, pattern: RegExp) => api.notifier.since(mark).find((n) => pattern.test(n.message));

  before(async () => {
    // 60 simulated seconds a real second: a deployment (3 s queued, 60 s running) takes about 1 s.
    sim = await Simulator.start({ timeScale: 60 });
    site = `${sim.storageBaseUrl}/site/acme/`;
    api = await internals();
    await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'default' }));
    await configure({ baseUrl: sim.baseUrl, projectId: sim.projectId, environments: [], siteUrl: undefined, notifications: 'all', 'polling.minIntervalSeconds': 1, 'polling.maxIntervalSeconds': 5 });
    assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: sim.key })), true);
    await waitFor('the ok state', () => api.session.state === 'ok');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // The other suites share this environment's list: no deployment of this one is left running in it.
    for (const job of api.session.service?.list() ?? []) if (job.kind === 'deployment') await api.session.service?.untrack(`deployment:${job.id}`);
    await vscode.commands.executeCommand('docsAdmin.key.clear', fromCode({ confirmed: true }));
    await configure({ baseUrl: undefined, projectId: undefined, environments: undefined, siteUrl: undefined, notifications: undefined, 'polling.minIntervalSeconds': undefined, 'polling.maxIntervalSeconds': undefined });
    await sim.stop();
  });

  it('Deploy Docs: one deployment for a double-click, its row moves to deployed, and the notification\'s Open Site opens the site', async () => {
    await configure({ siteUrl: site });
    const notices = api.notifier.shown;
    const before = triggers('deploy.trigger').length;
    const [first, second] = await Promise.all([
      vscode.commands.executeCommand<string>('docsAdmin.deployment.deploy', fromCode({ confirmed: true })),
      vscode.commands.executeCommand<string>('docsAdmin.deployment.deploy', fromCode({ confirmed: true })),
    ]);
    assert.ok(first !== undefined && first === second, 'both clicks got the one deployment');
    assert.equal(triggers('deploy.trigger').length - before, 1, 'sent once');
    await waitFor('the row', () => describeRow(first) !== undefined);
    assert.equal(describeRow(first)?.label, 'Production');
    await waitFor('the deployed row', () => String(describeRow(first)?.description).startsWith('deployed · '), 20_000);
    const item = describeRow(first);
    assert.match(String(item?.description), /^deployed · [0-9a-f]{7} Merge pull request #128 from acme\/quickstart · Ada Lovelace · api · \d+s ago · \d+s$/);
    assert.equal((item?.iconPath as vscode.ThemeIcon).id, 'rocket');
    assert.equal(item?.contextValue, 'deployment.success.production');
    const tooltip = (item?.tooltip as vscode.MarkdownString).value.replace(/\\(.)/g, '$1');
    for (const field of [`Status id: ${first}`, 'Status: success', 'Summary: Deployed 1 changed page', 'Files changed: 0 added, 1 modified, 0 removed', 'Modified: quickstart.mdx', 'Author: Ada Lovelace', 'Source: api', 'Subdomain: acme', 'Duration: ', 'Screenshot: ', 'Log lines: 10']) {
      assert.ok(tooltip.includes(field), `the tooltip holds "${field}": ${tooltip}`);
    }
    await waitFor('the success notification', () => noticeAfter(notices, /^Production is deployed \([0-9a-f]{7} Merge pull request #128/) !== undefined);
    const notice = noticeAfter(notices, /^Production is deployed/);
    assert.deepEqual(notice?.actions.map((a) => a.title), ['Open Site']);
    assert.equal(api.notifier.since(notices).filter((n) => /^Production is deployed/.test(n.message)).length, 1, 'one notification');
    // What the notification's button runs, with the row it names.
    assert.equal(await vscode.commands.executeCommand(notice?.actions[0]?.command ?? '', node(first)), site);
  });

  it('the status bar shows a running deployment, and the logs document fills in while it runs', async () => {
    // Held by the simulator where it starts (running, its first log line shown) while the test reads
    // it, then moved half-way (more lines), then to its end.
    sim.setDeploymentDefaults({ queuedMs: 0, durationMs: 360_000, held: true });
    try {
      const id = await vscode.commands.executeCommand<string>('docsAdmin.deployment.preview', fromCode({ branch: 'docs-agent/quickstart-tips' }));
      assert.ok(id);
      sim.setDeploymentDefaults({ queuedMs: 3_000, durationMs: 60_000, held: false });
      await waitFor('the status bar', () => api.statusBar.text?.includes('Deploying · Preview docs-agent/…') === true);
      await waitFor('the deployment to run', () => String(describeRow(id)?.description).startsWith('deploying'), 20_000);
      assert.equal((describeRow(id)?.iconPath as vscode.ThemeIcon).id, 'sync~spin');
      const uri = await vscode.commands.executeCommand<string>('docsAdmin.deployment.showLogs', node(id));
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
      assert.ok(doc, 'the logs are open');
      assert.equal(doc.languageId, 'docs-admin-deployment-log');
      assert.equal(vscode.workspace.getConfiguration('editor', { languageId: doc.languageId }).get('links'), false, 'nothing in a log line is a link');
      assert.match(doc.getText(), /^Preview of docs-agent\/quickstart-tips · deploying\n/);
      assert.match(doc.getText(), /\(deploying: more lines as they come\)\n$/);
      const early = doc.getText().split('\n').length;
      assert.doesNotMatch(doc.getText(), /Deployment complete/);
      sim.stepJob(id, 180_000);
      await waitFor('more lines', () => doc.getText().split('\n').length > early, 20_000);
      assert.doesNotMatch(doc.getText(), /Deployment complete/, 'half-way, still deploying');
      sim.stepJob(id, 180_000);
      sim.release(id);
      await waitFor('the end of the logs', () => /Deployment complete\n$/.test(doc.getText()), 30_000);
      assert.match(doc.getText(), /^Preview of docs-agent\/quickstart-tips · deployed\n/);
      const editor = vscode.window.visibleTextEditors.find((e) => e.document === doc);
      assert.equal(editor?.selection.active.line, doc.lineCount - 1, 'the editor followed the new lines to the end');
      await waitFor('the status bar to clear', () => api.statusBar.text === undefined || !api.statusBar.text.includes('Deploying'));
    } finally {
      sim.setDeploymentDefaults({ queuedMs: 3_000, durationMs: 60_000, held: false });
    }
  });

  it('Show Deployment Logs from a failed deployment\'s row opens on the failing line, as from its notification (issue 35: the row\'s opened at the end)', async () => {
    // Failed before this window read it (as the playground's failed preview): its logs are read when opened.
    const id = String(sim.addDeployment({ kind: 'preview', branch: 'agent/fr', createdAt: sim.now() - 30 * 60_000, queuedMs: 5_000, durationMs: 120_000, outcome: 'failure' })._id);
    await api.session.service?.trackDeployment(id, { kind: 'preview', branch: 'agent/fr' }, { follow: false });
    await waitFor('the failed row', () => describeRow(id)?.contextValue === 'deployment.failure.preview', 20_000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const uri = await vscode.commands.executeCommand<string>('docsAdmin.deployment.showLogs', node(id));
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.toString(), uri);
    const line = editor === undefined ? '' : editor.document.lineAt(editor.selection.active.line).text;
    assert.match(line, /^Error: guides\/install\.mdx:12:3: Unknown component <Stepss>\. Did you mean <Steps>\?$/, `the cursor is on: ${JSON.stringify(line)}`);
    assert.ok(editor?.visibleRanges.some((r) => r.contains(editor.selection.active)), 'and it is on screen');
    await api.session.service?.untrack(`deployment:${id}`);
  });

  it('a failed deployment notifies with Show Logs, which opens the logs on the failure line', async () => {
    sim.setDeploymentDefaults({ outcome: 'failure' });
    const notices = api.notifier.shown;
    try {
      const id = await vscode.commands.executeCommand<string>('docsAdmin.deployment.deploy', fromCode({ confirmed: true }));
      assert.ok(id);
      await waitFor('the failure notification', () => noticeAfter(notices, /^Production failed to deploy: Build failed: 1 error in guides\/install\.mdx$/) !== undefined, 20_000);
      const notice = noticeAfter(notices, /failed to deploy/);
      assert.deepEqual(notice?.actions, [{ title: 'Show Logs', command: 'docsAdmin.deployment.showLogs' }]);
      assert.equal(api.messages.recent.find((m) => m.text === notice?.message)?.severity, 'error');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      const uri = await vscode.commands.executeCommand<string>(notice?.actions[0]?.command ?? '', node(id));
      const editor = vscode.window.activeTextEditor;
      assert.equal(editor?.document.uri.toString(), uri);
      const text = editor?.document.getText() ?? '';
      assert.match(text, /^Production · failed\n/);
      assert.match(text, /^Error: guides\/install\.mdx:12:3: Unknown component <Stepss>\. Did you mean <Steps>\?$/m);
      assert.match(text, /Build failed: 1 error in 1 page\n$/);
      const line = editor === undefined ? '' : editor.document.lineAt(editor.selection.active.line).text;
      assert.match(line, /^Error: guides\/install\.mdx:12:3: /, `opened on the failing line, not ${JSON.stringify(line)}`);
      assert.ok(editor?.visibleRanges.some((r) => r.contains(editor.selection.active)), 'the failure line is on screen');
      assert.equal(describeRow(id)?.contextValue, 'deployment.failure.production');
    } finally {
      sim.setDeploymentDefaults({ outcome: 'success' });
    }
  });

  it('Preview Agent Branch on an agent job\'s row: the row says "preview ready" and Open Preview opens the preview', async () => {
    sim.addAgentJob({ id: 'agent-preview', repository: 'https://github.com/acme/docs', ref: 'docs-agent/fix-links', durationMs: 1 });
    await vscode.commands.executeCommand('docsAdmin.agentJob.track', fromCode({ value: 'agent-preview' }));
    await waitFor('the agent row', () => /^pull request opened/.test(String(agentRow('agent-preview') && api.agentTree.getTreeItem(agentRow('agent-preview') as JobNode).description)));
    const row = agentRow('agent-preview') as JobNode;
    const id = await vscode.commands.executeCommand<string>('docsAdmin.agentJob.previewBranch', row);
    assert.ok(id);
    assert.deepEqual(JSON.parse(triggers('preview.trigger').at(-1)?.body ?? '{}'), { branch: 'docs-agent/fix-links' });
    await waitFor('"preview ready" on the agent row', () => String(api.agentTree.getTreeItem(row).description).includes('preview ready'), 20_000);
    assert.match(String(api.agentTree.getTreeItem(row).contextValue), /^agentJob\.completed\.previewReady\.hasPr$/);
    assert.equal(await vscode.commands.executeCommand('docsAdmin.deployment.openPreview', row), sim.previewUrl('docs-agent/fix-links'));
    assert.equal(await vscode.commands.executeCommand('docsAdmin.deployment.copyPreviewUrl', node(id)), sim.previewUrl('docs-agent/fix-links'));
    assert.equal(await vscode.env.clipboard.readText(), sim.previewUrl('docs-agent/fix-links'));
  });

  it('a 429 on a preview is waited out and the preview sent once more (one preview made); a double-click sends one', async () => {
    sim.injectFault({ route: 'preview.trigger', kind: 'status', status: 429, body: { error: 'Rate limit exceeded: 5 preview deployments per minute' }, headers: { 'retry-after': '2' } });
    const before = triggers('preview.trigger').length;
    const made = sim.deploymentList().length;
    const [a, b] = await Promise.all([
      vscode.commands.executeCommand<string>('docsAdmin.deployment.preview', fromCode({ branch: 'feature/rate-limited' })),
      vscode.commands.executeCommand<string>('docsAdmin.deployment.preview', fromCode({ branch: 'feature/rate-limited' })),
    ]);
    assert.ok(a !== undefined && a === b);
    const sent = triggers('preview.trigger').slice(before);
    assert.deepEqual(sent.map((r) => r.status), [429, 202], 'the 429, then the one that went through');
    assert.ok((sent[1]?.at ?? 0) - (sent[0]?.at ?? 0) >= 2_000, 'Retry-After was waited out');
    assert.equal(sim.deploymentList().length - made, 1, 'one preview made');
    await waitFor('the row', () => deploymentRow(a) !== undefined);
  });

  it('a 403 for the plan says the plan lacks previews; nothing is tracked', async () => {
    sim.setPreviewsEnabled(false);
    try {
      const rows = api.deploymentTree.getChildren().length;
      assert.equal(await vscode.commands.executeCommand('docsAdmin.deployment.preview', fromCode({ branch: 'feature/no-plan' })), undefined);
      const shown = api.messages.recent.at(-1);
      assert.equal(shown?.severity, 'error');
      assert.match(shown?.text ?? '', /The cause: the organization's plan does not include preview deployments\./);
      assert.equal(api.deploymentTree.getChildren().length, rows);
    } finally {
      sim.setPreviewsEnabled(true);
    }
  });

  it('Track Deployment… follows one by its status id; server text stays text (rows, tooltip, notification, logs)', async () => {
    const hostile = '[run](command:workbench.action.terminal.new) <img src=x> **bold**';
    // Held running until the row shows it running: a deployment first read already ended (one that
    // ended before it was tracked) rightly gives no notification, and a short duration would race
    // the tracking on a busy machine.
    const seeded = sim.addDeployment({ kind: 'preview', branch: 'feature/hostile', queuedMs: 0, durationMs: 600, held: true, outcome: 'failure', summary: hostile, author: { name: '[me](https://evil.example)', avatarUrl: 'javascript:alert(1)', githubUserId: 7 }, commit: { message: `${hostile}\nsecond line` }, failureLines: [`\u001b[31m${hostile}\u001b[0m`] });
    const id = String(seeded._id);
    const notices = api.notifier.shown;
    assert.equal(await vscode.commands.executeCommand('docsAdmin.deployment.track', fromCode({ value: `https://dashboard.example.com/deployments/${id}` })), id);
    await waitFor('the row, read while the deployment runs', () => {
      const shown = describeRow(id);
      return shown !== undefined && !String(shown.description).startsWith('loading');
    }, 20_000);
    assert.doesNotMatch(String(describeRow(id)?.description), /^failed/, 'read running (it is held)');
    sim.release(id);
    await waitFor('the failed row', () => String(describeRow(id)?.description).startsWith('failed'), 20_000);
    const item = describeRow(id);
    assert.equal(item?.label, 'Deployment of feature/hostile', 'tracked by its id: what it deploys is its commit\'s ref');
    assert.ok(String(item?.description).includes('[run](command:'), 'a description is plain text');
    const tooltip = (item?.tooltip as vscode.MarkdownString);
    assert.equal(tooltip.isTrusted, false);
    assert.doesNotMatch(tooltip.value, /(?<!\\)\]\(command:|(?<!\\)\]\(https:|(?<!\\)<img/, 'no link or tag survives in the tooltip (each is escaped)');
    // The text is kept, its link broken (forMessage) and every Markdown character escaped.
    assert.ok(tooltip.value.includes('\\[run\\] \\(command:'), tooltip.value);
    await waitFor('the notification', () => noticeAfter(notices, /failed to deploy/) !== undefined);
    const shown = api.messages.recent.find((m) => m.text.startsWith('Deployment of feature/hostile failed to deploy'));
    assert.ok(shown);
    assert.doesNotMatch(shown.text, /\]\(/, 'the message holds no link');
    const uri = await vscode.commands.executeCommand<string>('docsAdmin.deployment.showLogs', node(id));
    const text = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri)?.getText() ?? '';
    assert.ok(text.includes('\\u001b[31m[run](command:'), 'an escape sequence is shown as text, not sent to the editor raw');
    assert.ok(!text.includes(String.fromCharCode(27)), "no raw escape character");
  });

  it('Run Automation… runs one by id, remembers it by its name, and a mistyped id is not remembered', async () => {
    const automation = sim.addAutomation({});
    const run = await vscode.commands.executeCommand<{ instanceId?: string }>('docsAdmin.automation.run', fromCode({ id: automation, name: 'Weekly link check' }));
    assert.equal(run?.instanceId, sim.automationRuns(automation)?.[0]?.instanceId);
    assert.match(api.messages.recent.at(-1)?.text ?? '', /^The automation "Weekly link check" started \(run [0-9a-f]{24}\)/);
    // Again at once (a double-click), by its id alone: the same run, and known by the name given once.
    const again = await vscode.commands.executeCommand<{ instanceId?: string }>('docsAdmin.automation.run', fromCode({ id: automation }));
    assert.equal(again?.instanceId, run?.instanceId);
    assert.match(api.messages.recent.at(-1)?.text ?? '', /^The automation "Weekly link check" started/);
    assert.equal(sim.automationRuns(automation)?.length, 1, 'run once');
    const typo = 'ffffffffffffffffffffffff';
    assert.equal(await vscode.commands.executeCommand('docsAdmin.automation.run', fromCode({ id: typo, name: 'Typo' })), undefined);
    assert.match(api.messages.recent.at(-1)?.text ?? '', /Automation "ffffffffffffffffffffffff" was not found in project "proj_demo"/);
    sim.addAutomation({ id: typo });
    await vscode.commands.executeCommand('docsAdmin.automation.run', fromCode({ id: typo }));
    assert.match(api.messages.recent.at(-1)?.text ?? '', /^The automation "ffffffffffffffffffffffff" started/, 'the name given with the mistyped run was not kept');
  });
});
