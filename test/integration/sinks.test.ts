/**
 * Issue 27, finding 1 (and the input boxes of finding 6): text VS Code renders with links that
 * run commands (progress notifications, an input box's prompt and validation message) holds no
 * link, whatever it quotes. Checked on screen: the test host reads every link the window renders
 * in a notification, a quick input's message or a dialog (test/host/screen.ts). A control shows
 * each sink does render a link when handed one through the raw API, so the checks can fail.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DocsAdminInternals } from '../../src/extension';
import type { SendOutcome } from '../../src/vscode/commands/askAgent';
import { Simulator } from '../simulator';
import { hands, openOnScreen, screenRead, shownLinks, shownTexts, waitForShown } from './screen';
import { configure, fromCode, internals, waitFor } from './support';

/** A link that would run a harmless command of ours, as the would run any. */
const link = (label: string, command: string) => `[${label}](command:${command})`;
const linksTo = (command: string) => shownLinks().filter((l) => l.href.startsWith(`command:${command}`));

/**
 * Waits until `condition` holds of what the window shows, keeping the notification centre open
 * meanwhile: a notification is read there (a toast does not always render headless), and the
 * centre closes itself whenever it is emptied.
 */
async function inCentre(what: string, condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  await waitFor(what, async () => {
    if (condition()) return true;
    if (!openOnScreen().notificationCentre) await vscode.commands.executeCommand('notifications.showList');
    return false;
  }, timeoutMs);
}

describe('text VS Code renders with links (progress, input boxes) holds none, on screen', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let api: DocsAdminInternals;

  before(async () => {
    sim = await Simulator.start({ timeScale: 1_000 });
    api = await internals();
    await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'default' }));
    await configure({ baseUrl: sim.baseUrl, projectId: sim.projectId, environments: [] });
    assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: sim.key })), true);
    await waitFor('the ok state', () => api.session.state === 'ok');
  });

  // The notification centre shows every notification (a toast does not always render headless).
  // Emptied first: its list draws only the rows in view, and a new notification goes on top,
  // out of view when earlier ones scrolled the list.
  beforeEach(async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('notifications.showList');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('docsAdmin.key.clear', fromCode({ confirmed: true }));
    await configure({ baseUrl: undefined, projectId: undefined, environments: undefined });
    await sim.stop();
  });

  it('a server-chosen agent job id with link syntax is refused where it arrives: nothing tracked, the draft kept, no link on screen', async () => {
    const hostile = link('Open it on the dashboard', 'docsAdmin.walkthrough.open');
    sim.injectFault({
      route: 'agent.create',
      kind: 'status',
      status: 201,
      body: { id: hostile, status: 'active', source: { repository: 'https://github.com/acme/docs', ref: 'main' }, model: 'm', prLink: null, createdAt: new Date().toISOString(), archivedAt: null },
    });
    const draft = await vscode.commands.executeCommand<vscode.Uri>('docsAdmin.agent.ask');
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor && draft && editor.document.uri.toString() === draft.toString());
    assert.ok(await editor.edit((edit) => edit.insert(editor.document.lineAt(editor.document.lineCount - 1).range.end, 'Fix the typo on the install page.')));
    const sent = await vscode.commands.executeCommand<SendOutcome>('docsAdmin.agent.send', fromCode({ uri: draft }));
    // The server answered 201: a job may exist, but its answer is not used.
    assert.equal(sent?.outcome, 'mayHaveArrived', JSON.stringify(sent));
    assert.match(sent.outcome === 'mayHaveArrived' ? sent.message : '', /field "id" is not a job id/);
    assert.deepEqual(api.session.service?.list().filter((j) => j.kind === 'agent' && j.id.includes('command:')), [], 'nothing tracked under that id');
    assert.ok(api.composer.documents().some((d) => d.uri.toString() === draft.toString()), 'the draft is kept');
    await inCentre('the failure on screen', () => shownTexts().some((t) => t.includes('is not a job id')));
    assert.deepEqual(linksTo('docsAdmin.walkthrough.open'), [], 'no link on screen');
    await vscode.commands.executeCommand('docsAdmin.agent.discardDraft', fromCode({ uri: draft }));
  });

  it('a progress notification: its title and messages show the text and no link (the control through window.withProgress renders one)', async () => {
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Control ${link('Open', 'docsAdmin.logs.show')}` }, async () => {
      await inCentre('the control link on screen', () => linksTo('docsAdmin.logs.show').length > 0).catch(() =>
        assert.fail(`the control's link is not on screen; now: ${JSON.stringify(openOnScreen())}; texts: ${JSON.stringify(shownTexts().slice(-8))}; links: ${JSON.stringify(shownLinks())}`),
      );
    });
    await api.ui.progress({ location: vscode.ProgressLocation.Notification, title: `Sending the follow-up to agent job ${link('Open it', 'docsAdmin.refresh')}…` }, async (progress) => {
      progress.report({ message: `step ${link('Run', 'docsAdmin.job.refresh')}` });
      await inCentre('the title and the message on screen', () => shownTexts().some((t) => t.includes('Sending the follow-up to agent job [Open it] (command:docsAdmin.refresh)') && t.includes('step [Run] (command:docsAdmin.job.refresh)')));
      // A whole reading of the window while it shows them: any link they rendered is in it.
      await screenRead();
    });
    assert.deepEqual([...linksTo('docsAdmin.refresh'), ...linksTo('docsAdmin.job.refresh')], []);
  });

  it("an input box: its prompt and validation message show the text and no link (the control through window.showInputBox renders one)", async () => {
    const control = vscode.window.showInputBox({ title: 'Control', value: 'x', prompt: `Control ${link('Open', 'docsAdmin.deploymentType.show')}`, validateInput: () => `Control says no ${link('Open', 'docsAdmin.deploymentType.show')}` });
    await waitFor('the control link on screen', () => linksTo('docsAdmin.deploymentType.show').length > 0, 10_000);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(await control, undefined);
    const shown = api.ui.inputBox({ title: 'Sink', value: 'x', prompt: `Paste ${link('Open', 'docsAdmin.preview.stop')}`, validateInput: () => `Not this ${link('Open', 'docsAdmin.export.start')}` });
    await waitForShown('the prompt', 'Paste [Open] (command:docsAdmin.preview.stop)');
    // Typing runs the validation.
    await hands({ type: 'y' });
    await waitForShown('the validation message', 'Not this [Open] (command:docsAdmin.export.start)');
    await screenRead();
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(await shown, undefined);
    assert.deepEqual([...linksTo('docsAdmin.preview.stop'), ...linksTo('docsAdmin.export.start')], []);
  });

  it('Track Agent Job: an id pasted with link syntax is told apart in a validation message with no link in it', async () => {
    await waitFor('no question on screen', () => !openOnScreen().quickInput);
    const tracking = vscode.commands.executeCommand('docsAdmin.agentJob.track');
    await waitForShown('the input box', 'Docs Admin: track an agent job');
    await waitFor('the input box open', () => openOnScreen().quickInput);
    await hands({ type: link('Open', 'docsAdmin.agentJob.openRepository') });
    await waitForShown('the validation message', 'is not a job id');
    await screenRead();
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(await tracking, undefined);
    assert.deepEqual(linksTo('docsAdmin.agentJob.openRepository'), [], 'no link on screen');
  });
});
