import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { DocsAdminInternals } from '../../src/extension';
import type { SendOutcome } from '../../src/vscode/commands/askAgent';
import type { ShownMessage } from '../../src/vscode/ui/messages';
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
    // Every agent run (a create, a follow-up) is held active by the simulator until the test
    // releases the job: never over while a slow machine is still sending, so "active at once" holds.
    sim = await Simulator.start({ timeScale: 1_000, agentDefaults: { durationMs: 1_000, held: true } });
    api = await internals();
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-ask-it-'));
    await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'default' }));
    await configure({ baseUrl: sim.baseUrl, projectId: sim.projectId, environments: [], 'polling.minIntervalSeconds': 1, 'polling.maxIntervalSeconds': 2 });
    assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: sim.key })), true);
    await waitFor('the ok state', () => api.session.state === 'ok' && api.session.client !== undefined);
  });

  // A test that lowers the agent's rate limit and fails half-way must not leave it to the next ones.
  afterEach(() => sim.setAgentDefaults({ hourlyLimit: 100 }));

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
    sim.release(sent.jobId);
    await waitFor('completion', () => description(sent.jobId)?.startsWith('pull request opened') === true, 20_000);
    await waitFor('the notification', () => api.notifier.recent.some((n) => n.message === `Agent job on acme/docs @ docs-agent/${sent.jobId} opened a pull request.`));
    const notice = api.notifier.recent.find((n) => n.message.includes(`docs-agent/${sent.jobId}`));
    assert.ok(notice?.actions.some((a) => a.command === 'docsAdmin.agentJob.openPullRequest'));
  });

  it('a follow-up makes a completed job active again; it is polled again and notifies again', async () => {
    // No page open: the follow-up starts empty (with a page and a selection, they would go with it).
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const job = sim.addAgentJob({ durationMs: 1_000, createdAt: sim.now() - 60_000 });
    const id = String(job.id);
    await vscode.commands.executeCommand('docsAdmin.agentJob.track', fromCode({ value: id }));
    await waitFor('the finished row', () => description(id)?.startsWith('pull request opened') === true);
    const before = api.notifier.shown;
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
    sim.release(id);
    await waitFor('the second completion', () => description(id)?.startsWith('pull request opened') === true, 20_000);
    await waitFor('the second notification', () => api.notifier.since(before).some((n) => n.message.includes('opened a pull request')));
  });

  /** The playground's page, in the test workspace: docs/quickstart.mdx. */
  function quickstart(): vscode.Uri {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the test host opens a workspace folder');
    const page = vscode.Uri.joinPath(folder.uri, 'docs', 'quickstart.mdx');
    mkdirSync(join(page.fsPath, '..'), { recursive: true });
    writeFileSync(page.fsPath, '# Quickstart\n\nInstall the CLI with npm.\n<Tip>Node 20 or later.</Tip>\n\nThen run it.\n');
    return page;
  }

  /** Selects lines `from`-`to` (1-based) of the page, in an editor of its own, as a person would before Ask Agent…. */
  async function select(page: vscode.Uri, from: number, to: number): Promise<void> {
    const editor = await vscode.window.showTextDocument(page, { viewColumn: vscode.ViewColumn.One });
    editor.selection = new vscode.Selection(from - 1, 0, to, 0);
  }

  /** What the active composer holds below its header line. */
  function belowHeader(): string {
    const text = vscode.window.activeTextEditor?.document.getText() ?? '';
    assert.match(text, /^<!-- docs-admin:composer [^\n]*-->\n/, 'the composer starts with its header');
    return text.slice(text.indexOf('-->\n') + 4);
  }

  /** The last message shown so far: a mark to read what is shown after it. */
  const lastShown = (): ShownMessage | undefined => api.messages.recent.at(-1);
  /** The "unsent draft is back" status-bar messages shown since `mark`. */
  const unsentNotice = (mark: ShownMessage | undefined) =>
    api.messages.recent.slice(mark === undefined ? 0 : api.messages.recent.indexOf(mark) + 1).filter((m) => m.severity === 'status' && /unsent draft is back/.test(m.text));

  it('issue 28: a prompt the agent took never comes back: Ask Agent… on docs/quickstart.mdx, send, Ask Agent… again opens a fresh composer', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const page = quickstart();
    await select(page, 3, 4);
    const draft = await vscode.commands.executeCommand<vscode.Uri>('docsAdmin.agent.ask');
    assert.ok(draft && api.composer.addressOf(draft)?.request.kind === 'create');
    assert.equal(belowHeader(), '\nPage: docs/quickstart.mdx\nSelected lines 3-4:\n3 | Install the CLI with npm.\n4 | <Tip>Node 20 or later.</Tip>\n\n');
    await type('Say which Node versions are tested.');
    sim.clearRequests();
    const sent = await vscode.commands.executeCommand<SendOutcome>('docsAdmin.agent.send', ...(await lens(draft, 'docsAdmin.agent.send')));
    assert.ok(sent?.outcome === 'created', JSON.stringify(sent));
    assert.match(description(sent.jobId) ?? '', /^active/);
    assert.equal(existsSync(draft.fsPath), false, 'the sent draft is removed');
    // The condition of the issue: VS Code keeps the closed composer's document in memory (for minutes).
    assert.ok(vscode.workspace.textDocuments.some((d) => d.uri.toString() === draft.toString()), 'VS Code still holds the sent draft in memory');

    // Ask Agent… again, on other lines: a fresh composer with them, not the prompt that was sent.
    await select(page, 6, 6);
    const shown = lastShown();
    const again = await vscode.commands.executeCommand<vscode.Uri>('docsAdmin.agent.ask');
    assert.equal(again?.toString(), draft.toString(), 'the same draft file, made anew');
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), draft.toString(), 'the composer is the active editor');
    assert.equal(belowHeader(), '\nPage: docs/quickstart.mdx\nSelected line 6:\n6 | Then run it.\n\n', 'a fresh composer with the new selection');
    assert.deepEqual(unsentNotice(shown), [], 'no "unsent draft" message');
    assert.ok(existsSync(draft.fsPath), 'the new draft is on disk (it survives a reload)');
    assert.equal(posts().length, 1, 'nothing sent meanwhile');
    // Written and sent: a second job with the new request only, not the first instruction again.
    await type('Link the install guide.');
    const second = await vscode.commands.executeCommand<SendOutcome>('docsAdmin.agent.send', ...(await lens(draft, 'docsAdmin.agent.send')));
    assert.ok(second?.outcome === 'created' && second.jobId !== sent.jobId, JSON.stringify(second));
    assert.deepEqual(sim.agentPrompts(second.jobId), ['Page: docs/quickstart.mdx\nSelected line 6:\n6 | Then run it.\n\nLink the install guide.']);
    assert.deepEqual(sim.agentPrompts(sent.jobId), ['Page: docs/quickstart.mdx\nSelected lines 3-4:\n3 | Install the CLI with npm.\n4 | <Tip>Node 20 or later.</Tip>\n\nSay which Node versions are tested.']);
    assert.equal(posts().length, 2);
  });

  it('issue 28: after a sent follow-up, Send Follow-up… and Ask Agent… open fresh composers with the new selection', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const job = sim.addAgentJob({ durationMs: 1_000, createdAt: sim.now() - 60_000 });
    const id = String(job.id);
    await vscode.commands.executeCommand('docsAdmin.agentJob.track', fromCode({ value: id }));
    await waitFor('the finished row', () => description(id)?.startsWith('pull request opened') === true);
    const page = quickstart();
    await select(page, 3, 3);
    const draft = await vscode.commands.executeCommand<vscode.Uri>('docsAdmin.agentJob.sendFollowUp', row(id));
    assert.deepEqual(api.composer.addressOf(draft)?.request, { kind: 'message', jobId: id });
    assert.equal(belowHeader(), '\nPage: docs/quickstart.mdx\nSelected line 3:\n3 | Install the CLI with npm.\n\n');
    await type('Name the npm package.');
    sim.clearRequests();
    assert.deepEqual(await vscode.commands.executeCommand<SendOutcome>('docsAdmin.agent.send', ...(await lens(draft, 'docsAdmin.agent.send'))), { outcome: 'sent', jobId: id });
    assert.equal(existsSync(draft.fsPath), false, 'the sent follow-up is removed');
    assert.ok(vscode.workspace.textDocuments.some((d) => d.uri.toString() === draft.toString()), 'VS Code still holds the sent follow-up in memory');

    // The same job again, on another line: a fresh follow-up, not the one sent.
    await select(page, 4, 4);
    const shown = lastShown();
    const next = await vscode.commands.executeCommand<vscode.Uri>('docsAdmin.agentJob.sendFollowUp', row(id));
    assert.equal(next?.toString(), draft.toString());
    assert.equal(belowHeader(), '\nPage: docs/quickstart.mdx\nSelected line 4:\n4 | <Tip>Node 20 or later.</Tip>\n\n', 'a fresh follow-up with the new selection');
    assert.deepEqual(unsentNotice(shown), [], 'no "unsent draft" message');
    await type('Say 22 or later.');
    assert.deepEqual(await vscode.commands.executeCommand<SendOutcome>('docsAdmin.agent.send', ...(await lens(next, 'docsAdmin.agent.send'))), { outcome: 'sent', jobId: id });

    // And Ask Agent… after it: a fresh composer with the selection of the moment.
    await select(page, 1, 1);
    const ask = await vscode.commands.executeCommand<vscode.Uri>('docsAdmin.agent.ask');
    assert.ok(ask && api.composer.addressOf(ask)?.request.kind === 'create');
    assert.equal(belowHeader(), '\nPage: docs/quickstart.mdx\nSelected line 1:\n1 | # Quickstart\n\n');
    assert.deepEqual(unsentNotice(shown), [], 'no "unsent draft" message');
    assert.equal(posts().length, 2, 'each follow-up sent once');
    assert.deepEqual(sim.agentPrompts(id), [
      'Page: docs/quickstart.mdx\nSelected line 3:\n3 | Install the CLI with npm.\n\nName the npm package.',
      'Page: docs/quickstart.mdx\nSelected line 4:\n4 | <Tip>Node 20 or later.</Tip>\n\nSay 22 or later.',
    ]);
    await vscode.commands.executeCommand('docsAdmin.agent.discardDraft', fromCode({ uri: ask }));
  });

  it('issue 35: Ask Agent… on a selection with an unsent draft open keeps the selection: it is added to the draft, and a notification says so', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    sim.clearRequests();
    const page = quickstart();
    await select(page, 3, 3);
    const draft = await vscode.commands.executeCommand<vscode.Uri>('docsAdmin.agent.ask');
    await type('Explain the install step.');
    await waitFor('the draft in its file', () => readFileSync(draft.fsPath, 'utf8').endsWith('Explain the install step.'));
    // The person moves on to other lines, with the draft unsent, and asks again.
    await select(page, 4, 6);
    const shown = lastShown();
    const again = await vscode.commands.executeCommand<vscode.Uri>('docsAdmin.agent.ask');
    assert.equal(again?.toString(), draft.toString(), 'the unsent draft, not a new one');
    const text = belowHeader();
    assert.ok(text.includes('Selected line 3:\n3 | Install the CLI with npm.\n\nExplain the install step.'), `the draft kept: ${JSON.stringify(text)}`);
    assert.ok(text.includes('Selected lines 4-6:\n4 | <Tip>Node 20 or later.</Tip>\n5 | \n6 | Then run it.'), `the new selection added: ${JSON.stringify(text)}`);
    const since = api.messages.recent.slice(shown === undefined ? 0 : api.messages.recent.indexOf(shown) + 1);
    assert.ok(since.some((m) => m.severity === 'info' && /selected lines were added at its end/.test(m.text)), `said where the person looks: ${JSON.stringify(since)}`);
    // The same selection again adds nothing twice.
    await select(page, 4, 6);
    await vscode.commands.executeCommand<vscode.Uri>('docsAdmin.agent.ask');
    assert.equal(belowHeader().split('Selected lines 4-6:').length, 2, 'added once');
    assert.equal(posts().length, 0, 'nothing sent');
    await vscode.commands.executeCommand('docsAdmin.agent.discardDraft', fromCode({ uri: draft }));
  });

  it('a 429 and closing the composer keep the draft in its file (what a reload reads); a send that may have arrived is marked, and sent again only when agreed', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    sim.clearRequests();
    sim.setAgentDefaults({ hourlyLimit: 0 });
    const draft = await vscode.commands.executeCommand<vscode.Uri>('docsAdmin.agent.ask');
    await type('Rewrite the FAQ intro.\nKeep it short.');
    const limited = await vscode.commands.executeCommand<SendOutcome>('docsAdmin.agent.send', ...(await lens(draft, 'docsAdmin.agent.send')));
    assert.equal(limited?.outcome, 'rateLimited');
    assert.match(limited.outcome === 'rateLimited' ? limited.message : '', /limit was hit .*Try again after \d\d:\d\d/);
    assert.equal(posts().length, 1);
    // What a reload or a restart keeps is the file: the draft is in it (the UI check reloads the window for real). The composer writes a draft a moment after typing stops (debounced), so the file is waited for, not read at once.
    await waitFor('the draft in its file', () => readFileSync(draft.fsPath, 'utf8').endsWith('Rewrite the FAQ intro.\nKeep it short.'));
    // Closing the composer sends nothing, and asks nothing (the draft is saved).
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.equal(posts().length, 1);
    await type('x').then(
      () => assert.fail('no composer is open'),
      () => undefined,
    );
    // Opened again: the draft comes back as it was, not a new one, and the status bar says so.
    const shown = lastShown();
    const again = await vscode.commands.executeCommand<vscode.Uri>('docsAdmin.agent.ask');
    assert.equal(again?.toString(), draft.toString());
    assert.ok(vscode.window.activeTextEditor?.document.getText().endsWith('Rewrite the FAQ intro.\nKeep it short.'));
    assert.equal(unsentNotice(shown).length, 1, 'the status bar says the unsent draft is back');
    // A 5xx: the job may exist; the draft is kept and marked, so a second send asks first.
    sim.setAgentDefaults({ hourlyLimit: 100 });
    sim.injectFault({ route: 'agent.create', kind: 'status', status: 502 });
    const unsure = await vscode.commands.executeCommand<SendOutcome>('docsAdmin.agent.send', ...(await lens(draft, 'docsAdmin.agent.send')));
    assert.equal(unsure?.outcome, 'mayHaveArrived');
    assert.match(unsure.outcome === 'mayHaveArrived' ? unsure.message : '', /may have been created anyway/);
    assert.equal(posts().length, 2, 'sent once, not resent');
    assert.ok(api.composer.wasMaybeSent(draft));
    assert.ok(existsSync(draft.fsPath));
    // The second send: declined, nothing goes (the question itself is answered by hand in the UI check).
    assert.deepEqual(await vscode.commands.executeCommand<SendOutcome>('docsAdmin.agent.send', fromCode({ uri: draft, sendAgain: false })), { outcome: 'cancelled' });
    assert.equal(posts().length, 2, 'nothing sent without agreement');
    assert.ok(api.composer.wasMaybeSent(draft), 'still marked');
    assert.ok(readFileSync(draft.fsPath, 'utf8').endsWith('Rewrite the FAQ intro.\nKeep it short.'), 'the draft is kept');
    // Agreed: sent once more, and the draft goes.
    const agreed = await vscode.commands.executeCommand<SendOutcome>('docsAdmin.agent.send', fromCode({ uri: draft, sendAgain: true }));
    assert.ok(agreed?.outcome === 'created', JSON.stringify(agreed));
    assert.equal(posts().length, 3);
    assert.deepEqual(sim.agentPrompts(agreed.jobId), ['Rewrite the FAQ intro.\nKeep it short.']);
    assert.equal(existsSync(draft.fsPath), false);
    assert.equal(api.composer.wasMaybeSent(draft), false);
  });

  it('Discard Draft removes the draft and its mark: Ask Agent… then opens a new one, not the discarded text', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const draft = await vscode.commands.executeCommand<vscode.Uri>('docsAdmin.agent.ask');
    await type('Never mind.');
    sim.injectFault({ route: 'agent.create', kind: 'status', status: 503 });
    assert.equal((await vscode.commands.executeCommand<SendOutcome>('docsAdmin.agent.send', ...(await lens(draft, 'docsAdmin.agent.send'))))?.outcome, 'mayHaveArrived');
    assert.ok(api.composer.wasMaybeSent(draft));
    await vscode.commands.executeCommand('docsAdmin.agent.discardDraft', fromCode({ uri: draft }));
    assert.equal(existsSync(draft.fsPath), false);
    assert.equal(api.composer.wasMaybeSent(draft), false);
    // Opened again: a new draft, not the discarded one.
    await vscode.commands.executeCommand<vscode.Uri>('docsAdmin.agent.ask');
    assert.doesNotMatch(vscode.window.activeTextEditor?.document.getText() ?? '', /Never mind/);
    await vscode.commands.executeCommand('docsAdmin.agent.discardDraft', fromCode({ uri: draft }));
  });

  it('a discarded draft written back to its file (a save that was under way, seen under load) does not come back: Ask Agent… opens a new one', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const draft = await vscode.commands.executeCommand<vscode.Uri>('docsAdmin.agent.ask');
    await type('Forget this one.');
    await waitFor('the draft in its file', () => readFileSync(draft.fsPath, 'utf8').endsWith('Forget this one.'));
    const written = readFileSync(draft.fsPath, 'utf8');
    await vscode.commands.executeCommand('docsAdmin.agent.discardDraft', fromCode({ uri: draft }));
    assert.equal(existsSync(draft.fsPath), false);
    // What a late save does: the discarded text is on disk again.
    writeFileSync(draft.fsPath, written);
    const again = await vscode.commands.executeCommand<vscode.Uri>('docsAdmin.agent.ask');
    assert.equal(again?.toString(), draft.toString());
    assert.doesNotMatch(vscode.window.activeTextEditor?.document.getText() ?? '', /Forget this one/);
    assert.doesNotMatch(readFileSync(draft.fsPath, 'utf8'), /Forget this one/, 'the file holds the new draft');
    await vscode.commands.executeCommand('docsAdmin.agent.discardDraft', fromCode({ uri: draft }));
  });

  it('what the person types while the prompt is being sent is kept: the draft stays, with what was sent and what was added, and says so', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const draft = await vscode.commands.executeCommand<vscode.Uri>('docsAdmin.agent.ask');
    try {
      await type('Shorten the intro.');
      sim.clearRequests();
      // The agent answers once the person has gone on writing (the simulator holds its answer until then).
      sim.injectFault({ route: 'agent.create', kind: 'gate', name: 'typed' });
      const mark = api.messages.shown;
      const sending = vscode.commands.executeCommand<SendOutcome>('docsAdmin.agent.send', ...(await lens(draft, 'docsAdmin.agent.send')));
      await waitFor('the request', () => posts().length === 1);
      await type('\nAnd add a table of contents.');
      sim.openGate('typed');
      const sent = await sending;
      assert.ok(sent?.outcome === 'created', JSON.stringify(sent));
      assert.deepEqual(sim.agentPrompts(sent.jobId), ['Shorten the intro.']);
      assert.ok(existsSync(draft.fsPath), 'the draft is kept');
      // Saved: the file holds what was typed meanwhile (a save still on its way, from the typing
      // before the send, may land first: what counts is the file once the saves are done).
      const saved = /Shorten the intro\.\nAnd add a table of contents\.$/;
      await waitFor('the draft saved with what was typed meanwhile', () => existsSync(draft.fsPath) && saved.test(readFileSync(draft.fsPath, 'utf8')), 30_000).catch(() => {
        assert.fail(`the draft file holds ${JSON.stringify(existsSync(draft.fsPath) ? readFileSync(draft.fsPath, 'utf8') : '(no file)')}, not what was typed meanwhile`);
      });
      const shown = api.messages.since(mark);
      assert.ok(shown.some((m) => m.severity === 'info' && m.text.includes(`Agent job ${sent.jobId} created.`) && /wrote in the draft while it was being sent/.test(m.text)), JSON.stringify(shown));
      // Opened again, it is the person's draft, as they left it.
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.commands.executeCommand<vscode.Uri>('docsAdmin.agent.ask');
      assert.match(vscode.window.activeTextEditor?.document.getText() ?? '', /And add a table of contents\.$/);
      assert.equal(posts().length, 1, 'nothing sent again');
    } finally {
      // Whatever happened, the next test starts with no gate and no draft.
      sim.openGate('typed');
      await vscode.commands.executeCommand('docsAdmin.agent.discardDraft', fromCode({ uri: draft }));
    }
  });

  it('a draft that holds only the page and lines it was opened with is not sent: it says what to write, and the draft stays', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const page = quickstart();
    await select(page, 3, 4);
    const draft = await vscode.commands.executeCommand<vscode.Uri>('docsAdmin.agent.ask');
    sim.clearRequests();
    const mark = api.messages.shown;
    assert.deepEqual(await vscode.commands.executeCommand<SendOutcome>('docsAdmin.agent.send', ...(await lens(draft, 'docsAdmin.agent.send'))), { outcome: 'blank' });
    assert.equal(posts().length, 0, 'nothing sent');
    const shown = api.messages.since(mark);
    assert.ok(shown.some((m) => m.severity === 'warning' && /only the page and lines .*write what the agent should do/.test(m.text)), JSON.stringify(shown));
    assert.ok(existsSync(draft.fsPath), 'the draft stays');
    await type('Mention Node 22.');
    const sent = await vscode.commands.executeCommand<SendOutcome>('docsAdmin.agent.send', ...(await lens(draft, 'docsAdmin.agent.send')));
    assert.equal(sent?.outcome, 'created');
    assert.equal(posts().length, 1);
  });
});
