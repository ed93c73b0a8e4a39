import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { DocsAdminInternals } from '../../src/extension';
import type { SendOutcome } from '../../src/vscode/commands/askAgent';
import { Simulator } from '../simulator';
import { configure, fromCode, internals, waitFor } from './support';

describe('Ask Agent: the prompt composer, new jobs and follow-ups (against the simulator)', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let api: DocsAdminInternals;
  let dir: string;

  const row = (id: string) => api.agentTree.getChildren().find((n) => n.key === `agent:${id}`);
  const description = (id: string) => {
    const node = row(id);
    return node === undefined ? undefined : String(api.agentTree.getTreeItem(node).description);
  };
  const posts = () => sim.requests.filter((r) => r.route === 'agent.create' || r.route === 'agent.message');

  /** What the composer's CodeLens hands its command, as a click on it would. */
  async function lens(draft: vscode.Uri, command: 'docsAdmin.agent.send' | 'docsAdmin.agent.discardDraft'): Promise<unknown[]> {
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', draft);
    const found = lenses.find((l) => l.command?.command === command);
    assert.ok(found?.command?.arguments, `the ${command} CodeLens`);
    return found.command.arguments as unknown[];
  }

  async function type(text: string): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor && api.composer.addressOf(editor.document.uri), 'the composer is the active editor');
    const end = editor.document.lineAt(editor.document.lineCount - 1).range.end;
    assert.ok(await editor.edit((edit) => edit.insert(end, text)));
  }

  before(async () => {
    // 1 real ms is 1 simulated second: an agent run of 3,000 s takes 3 s.
    sim = await Simulator.start({ timeScale: 1_000, agentDefaults: { durationMs: 3_000_000 } });
    api = await internals();
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-ask-it-'));
    await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'default' }));
    await configure({ baseUrl: sim.baseUrl, projectId: sim.projectId, environments: [], 'polling.minIntervalSeconds': 1, 'polling.maxIntervalSeconds': 2 });
    assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: sim.key })), true);
    await waitFor('the ok state', () => api.session.state === 'ok' && api.session.client !== undefined);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('docsAdmin.key.clear', fromCode({ confirmed: true }));
    await configure({ baseUrl: undefined, projectId: undefined, environments: undefined, 'polling.minIntervalSeconds': undefined, 'polling.maxIntervalSeconds': undefined });
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('composes from a selection in an .mdx page; the job is tracked at once, completes and notifies', async () => {
    const repo = join(dir, 'site');
    mkdirSync(join(repo, '.git'), { recursive: true });
    mkdirSync(join(repo, 'docs', 'guide'), { recursive: true });
    const page = join(repo, 'docs', 'guide', 'install.mdx');
    writeFileSync(page, '# Install\n\nRun the installer.\n<Note>Needs admin rights.</Note>\n\nDone.\n');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(page));
    // Lines 3-4, the selection ending at the start of line 5 (which it does not take).
    editor.selection = new vscode.Selection(2, 0, 4, 0);
    const draft = await vscode.commands.executeCommand<vscode.Uri>('docsAdmin.agent.ask', editor.document.uri);
    assert.ok(draft && api.composer.addressOf(draft)?.request.kind === 'create');
    const composer = vscode.window.activeTextEditor?.document;
    assert.equal(composer?.uri.toString(), draft.toString(), 'the composer opens, focused');
    const text = composer.getText();
    assert.match(text, /^<!-- docs-admin:composer Ask the agent for a change\. .*Ctrl\+Enter/);
    assert.ok(text.includes('Page: docs/guide/install.mdx\nSelected lines 3-4:\n3 | Run the installer.\n4 | <Note>Needs admin rights.</Note>\n'), text);
    await type('Say which rights, and link the admin guide.');
    sim.clearRequests();
    // Send clicked twice in a row: one job.
    const send = await lens(draft, 'docsAdmin.agent.send');
    const [sent, twice] = await Promise.all([vscode.commands.executeCommand<SendOutcome>('docsAdmin.agent.send', ...send), vscode.commands.executeCommand<SendOutcome>('docsAdmin.agent.send', ...send)]);
    assert.deepEqual(twice, { outcome: 'cancelled' });
    assert.equal(posts().length, 1);
    assert.ok(sent?.outcome === 'created', JSON.stringify(sent));
    assert.deepEqual(sim.agentPrompts(sent.jobId), [ 'Page: docs/guide/install.mdx\nSelected lines 3-4:\n3 | Run the installer.\n4 | <Note>Needs admin rights.</Note>\n\nSay which rights, and link the admin guide.']);
    // The row is there at once, active; the draft is gone (file and tab).
    assert.match(description(sent.jobId) ?? '', /^active/);
    assert.equal(existsSync(draft.fsPath), false, 'the sent draft is removed');
    assert.equal(api.composer.documents().filter((d) => !d.isClosed && vscode.window.visibleTextEditors.some((e) => e.document === d)).length, 0, 'its tab is closed');
    await waitFor('the walkthrough step', () => api.setup.current.agentAsked === true);
    await waitFor('the status bar', () => /agent job/.test(api.statusBar.text ?? ''));
    await waitFor('completion', () => description(sent.jobId)?.startsWith('pull request opened') === true, 20_000);
    await waitFor('the notification', () => api.notifier.recent.some((n) => n.message === `Agent job on acme/docs @ docs-agent/${sent.jobId} opened a pull request.`));
    const notice = api.notifier.recent.find((n) => n.message.includes(`docs-agent/${sent.jobId}`));
    assert.ok(notice?.actions.some((a) => a.command === 'docsAdmin.agentJob.openPullRequest'));
  });

  it('a follow-up makes a completed job active again; it is polled again and notifies again', async () => {
    // No page open: the follow-up starts empty (with a page and a selection, they would go with it).
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const job = sim.addAgentJob({ durationMs: 2_000_000, createdAt: sim.now() - 3_000_000 });
    const id = String(job.id);
    await vscode.commands.executeCommand('docsAdmin.agentJob.track', fromCode({ value: id }));
    await waitFor('the finished row', () => description(id)?.startsWith('pull request opened') === true);
    const before = api.notifier.recent.length;
    const node = row(id);
    assert.ok(node);
    const draft = await vscode.commands.executeCommand<vscode.Uri>('docsAdmin.agentJob.sendFollowUp', node);
    assert.deepEqual(api.composer.addressOf(draft)?.request, { kind: 'message', jobId: id });
    await type('Also fix the title.');
    const sent = await vscode.commands.executeCommand<SendOutcome>('docsAdmin.agent.send', ...(await lens(draft, 'docsAdmin.agent.send')));
    assert.deepEqual(sent, { outcome: 'sent', jobId: id });
    assert.deepEqual(sim.agentPrompts(id), ['Also fix the title.']);
    assert.match(description(id) ?? '', /^active/, 'active again at once');
    assert.ok(api.session.service!.activeCount >= 1, 'polled again');
    await waitFor('the second completion', () => description(id)?.startsWith('pull request opened') === true, 20_000);
    await waitFor('the second notification', () => api.notifier.recent.slice(before).some((n) => n.message.includes('opened a pull request')));
  });

  it('a 429, closing the composer and a reload keep the draft; a send that may have arrived is marked, never resent silently', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    sim.clearRequests();
    sim.setAgentDefaults({ hourlyLimit: 0 });
    const draft = await vscode.commands.executeCommand<vscode.Uri>('docsAdmin.agent.ask');
    await type('Rewrite the FAQ intro.\nKeep it short.');
    const limited = await vscode.commands.executeCommand<SendOutcome>('docsAdmin.agent.send', ...(await lens(draft, 'docsAdmin.agent.send')));
    assert.equal(limited?.outcome, 'rateLimited');
    assert.match(limited.outcome === 'rateLimited' ? limited.message : '', /limit was hit .*Try again after \d\d:\d\d/);
    assert.equal(posts().length, 1);
    // What a reload or a restart keeps is the file: the draft is in it.
    assert.ok(readFileSync(draft.fsPath, 'utf8').endsWith('Rewrite the FAQ intro.\nKeep it short.'));
    // Closing the composer sends nothing, and asks nothing (the draft is saved).
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.equal(posts().length, 1);
    await type('x').then(
      () => assert.fail('no composer is open'),
      () => undefined,
    );
    // Opened again (after a reload, say): the draft comes back as it was, not a new one.
    const again = await vscode.commands.executeCommand<vscode.Uri>('docsAdmin.agent.ask');
    assert.equal(again?.toString(), draft.toString());
    assert.ok(vscode.window.activeTextEditor?.document.getText().endsWith('Rewrite the FAQ intro.\nKeep it short.'));
    // A 5xx: the job may exist; the draft is kept and marked, so a second send asks first.
    sim.setAgentDefaults({ hourlyLimit: 100 });
    sim.injectFault({ route: 'agent.create', kind: 'status', status: 502 });
    const unsure = await vscode.commands.executeCommand<SendOutcome>('docsAdmin.agent.send', ...(await lens(draft, 'docsAdmin.agent.send')));
    assert.equal(unsure?.outcome, 'mayHaveArrived');
    assert.match(unsure.outcome === 'mayHaveArrived' ? unsure.message : '', /may have been created anyway/);
    assert.equal(posts().length, 2, 'sent once, not resent');
    assert.ok(api.composer.wasMaybeSent(draft));
    assert.ok(existsSync(draft.fsPath));
    await vscode.commands.executeCommand('docsAdmin.agent.discardDraft', ...(await lens(draft, 'docsAdmin.agent.discardDraft')));
    assert.equal(existsSync(draft.fsPath), false);
    assert.equal(api.composer.wasMaybeSent(draft), false);
  });
});
