/**
 * Issue 27, finding 3 (and the FROM_CODE mark of finding 6): every command contributed in
 * package.json, run with what a `[label](command:<id>?<args>)` link can hand it (a plain JSON
 * object shaped like a tree row and a command's options, a Uri (`{"$mid":1,…}` becomes one), a
 * string, nothing, an object marked with `Symbol.for('docsAdmin.fromCode')`, which anyone can
 * make), does nothing a person did not answer for: it is refused, or it asks (an input box, a
 * quick pick, a dialog), and the question dismissed, nothing has changed: settings, the key, the
 * tracked jobs, the files, the previews, the clipboard, the draft, the requests that change
 * something. Questions are dismissed in the window as a person would (Escape on a dialog).
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { DocsAdminInternals } from '../../src/extension';
import type { SendOutcome } from '../../src/vscode/commands/askAgent';
import type { ShownMessage } from '../../src/vscode/messages';
import type { ReaderNode } from '../../src/vscode/readers/nodes';
import { Simulator } from '../simulator';
import { writePlaygroundSite } from '../simulator/playgroundSite';
import { hands, openOnScreen, screenRead } from './screen';
import { configure, EXTENSION_ID, fromCode, internals, waitFor } from './support';

const SECRET = 'docsAdmin.adminKey.default';
const EVIL = 'https://evil.example/job/e-evil';

describe('every command, run as a link would run it, does nothing without a question answered', function () {
  this.timeout(120_000);
  let sim: Simulator;
  let api: DocsAdminInternals;
  let dir: string;
  let exportId: string;
  let agentId: string;
  let values: vscode.Uri;
  let draft: vscode.Uri;
  let hostile: { what: string; args: unknown[] }[];
  let deploymentId: string;
  let workspace: string;
  /** A Readers row: a reader's comment that left a contact address. */
  let readerEntry: ReaderNode;

  const commands = () => (vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as { contributes: { commands: { command: string }[] } }).contributes.commands.map((c) => c.command);
  const row = (key: string) => [...api.agentTree.getChildren(), ...api.exportTree.getChildren(), ...api.deploymentTree.getChildren()].find((n) => n.key === key);
  const readerRows = (node?: ReaderNode): ReaderNode[] => api.readers.view.tree.getChildren(node).flatMap((n) => [n, ...readerRows(n)]);

  /** Everything a command could change that a person would miss, or not want changed behind their back. */
  async function snapshot(): Promise<Record<string, unknown>> {
    const config = vscode.workspace.getConfiguration('docsAdmin');
    const files = (folder: string): string[] =>
      readdirSync(folder, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(folder, e.name)).map((f) => `${e.name}/${f}`) : [`${e.name} ${statSync(join(folder, e.name)).size} ${statSync(join(folder, e.name)).mtimeMs}`]));
    return {
      settings: ['baseUrl', 'projectId', 'environments', 'deploymentType', 'rollout.command', 'siteUrl', 'readers.enabled'].map((k) => JSON.stringify(config.inspect(k)?.globalValue ?? null)),
      environment: api.session.environment.id,
      // Its digest, not the key: a failing assertion prints this object, and the log scan would find the key.
      key: createHash('sha256').update((await api.secrets.get(SECRET)) ?? '(none)').digest('hex'),
      jobs: (api.session.service?.list() ?? []).map((j) => `${j.kind}:${j.id}`).sort(),
      shelf: JSON.stringify(api.session.shelf?.get(exportId) ?? null),
      previews: api.previews.list().map((p) => p.folder),
      files: files(dir).sort(),
      values: readFileSync(values.fsPath, 'utf8'),
      // As the editor holds it (it saves a moment after an edit), while the file is there.
      draft: existsSync(draft.fsPath) ? (vscode.workspace.textDocuments.find((d) => d.uri.toString() === draft.toString())?.getText() ?? readFileSync(draft.fsPath, 'utf8')) : null,
      changes: sim.requests.filter((r) => r.method === 'POST').map((r) => r.route),
      // The Readers view: the contacts shown, the period, the row selected (a link must not move it).
      revealed: [...api.readers.model.revealed].sort(),
      period: api.readers.model.period,
      readersSelection: api.readers.view.view.selection.map((n) => JSON.stringify(n)),
      clipboard: await Promise.resolve(vscode.env.clipboard.readText()).catch(() => '(unreadable)'),
    };
  }

  /** What asks the person for an answer on screen (as of the host's last reading). */
  const onScreen = () => {
    const open = openOnScreen();
    return open.dialog || open.quickInput || open.notifications > 0;
  };
  /** The messages shown since `mark` that wait for a button (a notification's toast does not always render headless). */
  const questionsSince = (mark: ShownMessage | undefined) => api.messages.recent.slice(mark === undefined ? 0 : api.messages.recent.indexOf(mark) + 1).filter((m) => m.items.length > 0);

  /** Runs the command; whatever it asks is dismissed as a person would. Resolves whether it asked. */
  async function runAndDismiss(id: string, args: unknown[]): Promise<boolean> {
    let settled = false;
    let mark = api.messages.recent.at(-1);
    const running = Promise.resolve(vscode.commands.executeCommand(id, ...args)).then(
      () => (settled = true),
      () => (settled = true),
    );
    let asked = false;
    for (;;) {
      // The command ends, or something asks: on screen, or a message with buttons.
      await waitFor(`${id} to end or ask something that can be dismissed`, () => settled || onScreen() || questionsSince(mark).length > 0, 15_000);
      if (settled) break;
      asked = true;
      const open = openOnScreen();
      mark = api.messages.recent.at(-1);
      if (open.dialog) await hands({ press: 'Escape' });
      else if (open.quickInput) await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      // A notification waiting for a button (a question too): closing it answers nothing.
      else await vscode.commands.executeCommand('notifications.clearAll');
      // The window read again after the dismissal: what it shows now, not before.
      await screenRead();
    }
    await running;
    return asked;
  }

  const DRAFT_TEXT = 'Half a thought, not ready to go';
  let settings: Record<string, unknown>;
  let key: string | undefined;
  let archive: string;
  let valuesText: string;

  /** The draft, open and active, holding only DRAFT_TEXT below its header. */
  async function writeDraft(): Promise<void> {
    draft = (await vscode.commands.executeCommand<vscode.Uri>('docsAdmin.agent.ask'))!;
    const editor = vscode.window.activeTextEditor!;
    assert.ok(await editor.edit((e) => e.replace(new vscode.Range(1, 0, editor.document.lineCount, 0), DRAFT_TEXT)));
    await editor.document.save();
  }

  /**
   * Puts back whatever a command changed (none does here; on code that let a link act, one that
   * did must not hide what the next would do): the environment, settings, key, jobs, draft.
   */
  async function restore(): Promise<void> {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await api.previews.stop();
    if (!existsSync(archive)) writeFileSync(archive, sim.defaultBundle());
    if (!existsSync(values.fsPath) || readFileSync(values.fsPath, 'utf8') !== valuesText) writeFileSync(values.fsPath, valuesText);
    if (api.session.environment.id !== 'default') await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'default' }));
    const config = vscode.workspace.getConfiguration('docsAdmin');
    const changed = Object.fromEntries(Object.entries(settings).filter(([k, v]) => JSON.stringify(config.inspect(k)?.globalValue) !== JSON.stringify(v)));
    if (Object.keys(changed).length > 0) await configure(changed);
    if ((await api.secrets.get(SECRET)) !== key) await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: sim.key }));
    await waitFor('the ok state', () => api.session.state === 'ok');
    if (api.session.service?.get(`export:${exportId}`) === undefined) await api.session.service?.trackExportJob(exportId);
    if (api.session.service?.get(`agent:${agentId}`) === undefined) await api.session.service?.trackAgentJob(agentId);
    if (api.session.service?.get(`deployment:${deploymentId}`) === undefined) await api.session.service?.trackDeployment(deploymentId);
    api.readers.model.revealed.clear();
    const text = vscode.workspace.textDocuments.find((d) => d.uri.toString() === draft.toString())?.getText();
    if (!existsSync(draft.fsPath) || !text?.endsWith(DRAFT_TEXT)) await writeDraft();
  }

  before(async () => {
    sim = await Simulator.start({ timeScale: 1_000 });
    api = await internals();
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-args-it-'));
    await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'default' }));
    settings = {
      baseUrl: sim.baseUrl,
      projectId: sim.projectId,
      environments: [{ name: 'other', baseUrl: 'https://evil.example', projectId: 'evil' }],
      // A rollout that would leave a mark: a publish run by a link must never get this far.
      'rollout.command': `"${process.execPath}" -e "require('fs').writeFileSync(process.argv[1], 'rolled out')" ${join(dir, 'ROLLED-OUT')}`,
    };
    await configure(settings);
    assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: sim.key })), true);
    key = await api.secrets.get(SECRET);
    await waitFor('the ok state', () => api.session.state === 'ok');
    // A completed export, downloaded and extracted (its rows under the job), with a values file that points at it.
    exportId = String(sim.addExportJob({ domain: 'docs.acme.dev', queuedMs: 0, durationMs: 0, createdAt: sim.now() - 60_000 }).jobId);
    await api.session.service?.trackExportJob(exportId);
    await waitFor('the completed export', () => api.session.service?.get(`export:${exportId}`)?.snapshot?.status === 'completed');
    await waitFor('the export row', () => row(`export:${exportId}`) !== undefined);
    archive = join(dir, 'bundle.tar.gz');
    assert.ok(await vscode.commands.executeCommand('docsAdmin.export.downloadBundle', row(`export:${exportId}`), fromCode({ target: archive })));
    assert.ok(await vscode.commands.executeCommand('docsAdmin.export.extractBundle', row(`export:${exportId}`), fromCode({ folder: join(dir, 'site') })));
    values = vscode.Uri.file(join(dir, 'values.yaml'));
    writeFileSync(values.fsPath, 'staticExport:\n  enabled: false\n');
    assert.ok(await vscode.commands.executeCommand('docsAdmin.values.update', row(`export:${exportId}`), fromCode({ uri: values, version: null })));
    valuesText = readFileSync(values.fsPath, 'utf8');
    // A completed agent job with a pull request.
    agentId = String(sim.addAgentJob({ durationMs: 1_000, createdAt: sim.now() - 60_000 }).id);
    await vscode.commands.executeCommand('docsAdmin.agentJob.track', fromCode({ value: agentId }));
    await waitFor('the agent row, with its pull request', () => {
      const job = api.session.service?.get(`agent:${agentId}`);
      return job?.kind === 'agent' && typeof job.snapshot?.prLink === 'string' && row(`agent:${agentId}`) !== undefined;
    });
    // A finished preview, tracked (its row offers Open Preview, Copy Preview URL, Show Logs).
    deploymentId = String(sim.addDeployment({ kind: 'preview', branch: 'docs-agent/walk', queuedMs: 0, durationMs: 0, createdAt: sim.now() - 60_000 }).id);
    await api.session.service?.trackDeployment(deploymentId);
    await waitFor('the deployment row', () => row(`deployment:${deploymentId}`) !== undefined);
    // The readers' data of the playground site, loaded: a comment whose reader left an address.
    workspace = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    writePlaygroundSite(workspace);
    sim.seedPlaygroundAnalytics();
    await api.readers.model.refresh();
    await waitFor('a reader\'s comment with a contact', () => {
      readerEntry = readerRows().find((n) => n.type === 'feedback' && api.readers.view.tree.getTreeItem(n).contextValue === 'readers.feedback.contextual.hasContact')!;
      return readerEntry !== undefined;
    });
    // A draft with text, the active editor (what a link to Send or Discard would act on).
    await writeDraft();
    const fields = { folder: dir, archive, file: archive, target: join(dir, 'victim.tar.gz'), replace: true, domain: 'docs.acme.dev', confirmed: true, key: 'da_someone_elses_key_1', value: EVIL, version: 'v666', rollout: true };
    hostile = [
      { what: 'nothing', args: [] },
      { what: 'a JSON export row with options', args: [JSON.parse(JSON.stringify({ ...fields, key: `export:${exportId}`, kind: 'export', part: 'folder' }))] },
      { what: 'a JSON agent row', args: [JSON.parse(JSON.stringify({ key: `agent:${agentId}`, kind: 'agent', confirmed: true }))] },
      { what: 'JSON options after nothing', args: [null, JSON.parse(JSON.stringify({ ...fields, uri: values.toJSON() as unknown }))] },
      { what: 'a JSON export row, then JSON options', args: [JSON.parse(JSON.stringify({ key: `export:${exportId}`, kind: 'export' })), JSON.parse(JSON.stringify(fields))] },
      { what: 'options marked with Symbol.for (anyone can make that mark)', args: [{ [Symbol.for('docsAdmin.fromCode')]: true, ...fields, uri: values }] },
      { what: 'nothing, then options marked with Symbol.for', args: [undefined, { [Symbol.for('docsAdmin.fromCode')]: true, ...fields, uri: values }] },
      { what: 'a JSON export row, then options marked with Symbol.for', args: [JSON.parse(JSON.stringify({ key: `export:${exportId}`, kind: 'export' })), { [Symbol.for('docsAdmin.fromCode')]: true, ...fields, uri: values }] },
      { what: 'a JSON folder ({"folder":"/home/<user>"})', args: [JSON.parse(JSON.stringify({ folder: dir }))] },
      { what: 'a Uri of a folder ({"$mid":1,…})', args: [vscode.Uri.file(dir)] },
      { what: 'a Uri of the values file', args: [values] },
      { what: 'a Uri of the draft', args: [draft] },
      { what: 'a URL', args: [EVIL] },
      { what: 'an environment id', args: ['env:other'] },
      { what: 'a JSON deployment row', args: [JSON.parse(JSON.stringify({ key: `deployment:${deploymentId}`, kind: 'deployment' }))] },
      { what: 'a JSON Readers row (the comment with a contact)', args: [JSON.parse(JSON.stringify(readerEntry))] },
      { what: 'a JSON Readers page row', args: [JSON.parse(JSON.stringify(readerRows().find((n) => n.type === 'page')))] },
      { what: "a page's key (what the reader CodeLens names)", args: [readerRows().find((n): n is Extract<ReaderNode, { type: 'page' }> => n.type === 'page')!.key] },
      { what: "a Readers row's tree handle, as a link would write it", args: [{ $treeViewId: 'docsAdmin.readersView', $treeItemHandle: `1/readers/pages/${(readerEntry as { key: string }).key}` }] },
    ];
  });

  after(async () => {
    await api.previews.stop();
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('notifications.clearAll');
    if (existsSync(draft.fsPath)) await vscode.commands.executeCommand('docsAdmin.agent.discardDraft', fromCode({ uri: draft }));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'default' }));
    await vscode.commands.executeCommand('docsAdmin.key.clear', fromCode({ confirmed: true }));
    await api.session.service?.untrack(`deployment:${deploymentId}`);
    await configure({ baseUrl: undefined, projectId: undefined, environments: undefined, 'rollout.command': undefined });
    await sim.stop();
    rmSync(join(workspace, 'docs'), { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  });

  it('walks every command package.json contributes', () => {
    assert.ok(commands().length >= 35, `${commands().length} commands`);
  });

  for (const id of ((): string[] => {
    // The list is read here, before the suite runs, from the manifest this suite ships with.
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { contributes: { commands: { command: string }[] } };
    return manifest.contributes.commands.map((c) => c.command);
  })()) {
    it(`${id}: whatever a link hands it, nothing changes without a question answered`, async () => {
      await restore();
      for (const { what, args } of hostile) {
        // Send and Discard act on the active composer: make it the draft, as a person writing would have it.
        if (id.startsWith('docsAdmin.agent.') && existsSync(draft.fsPath)) await vscode.window.showTextDocument(draft);
        const before = await snapshot();
        const asked = await runAndDismiss(id, args);
        const after = await snapshot();
        await api.previews.stop();
        assert.deepEqual(after, before, `${id} given ${what} changed something ${asked ? 'though the question was dismissed' : 'without asking'}`);
      }
      await vscode.commands.executeCommand('notifications.clearAll');
    });
  }

  it('a link cannot name a row by its tree handle: the items\' ids hold this installation\'s secret', () => {
    const node = row(`export:${exportId}`);
    assert.ok(node);
    const id = api.exportTree.getTreeItem(node).id ?? '';
    assert.ok(id.endsWith(`/export:${exportId}`) && id.length > `/export:${exportId}`.length + 10, id);
    const secret = id.slice(0, -`/export:${exportId}`.length);
    // The Deployments view and the Readers view (whose rows reveal a reader's email) likewise.
    const deployment = row(`deployment:${deploymentId}`);
    assert.ok(deployment);
    assert.equal(api.deploymentTree.getTreeItem(deployment).id, `${secret}/deployment:${deploymentId}`);
    const readerIds = readerRows().map((n) => api.readers.view.tree.getTreeItem(n).id ?? '');
    assert.ok(readerIds.length > 5);
    for (const readerId of readerIds) assert.ok(readerId.startsWith(`${secret}/readers/`), readerId);
  });

  it('Send with no argument (Ctrl+Enter, the title bar, a link) asks first, showing where the prompt goes and what it says; Send from its CodeLens sends at once', async () => {
    await restore();
    await vscode.window.showTextDocument(draft);
    const posts = () => sim.requests.filter((r) => r.route === 'agent.create').length;
    const before = posts();
    const mark = api.messages.recent.at(-1);
    // Not answered (this host refuses modal dialogs, as a person pressing Escape would): nothing is sent.
    assert.deepEqual(await vscode.commands.executeCommand<SendOutcome>('docsAdmin.agent.send'), { outcome: 'cancelled' });
    const asked = api.messages.recent.slice(api.messages.recent.indexOf(mark as never) + 1).find((m) => m.modal === true);
    assert.match(asked?.text ?? '', /^Send this prompt to the agent\? It creates an agent job\.$/);
    assert.equal(asked?.detail, 'Half a thought, not ready to go', 'the prompt is shown');
    assert.deepEqual(asked?.items, ['Send']);
    assert.equal(posts(), before, 'nothing sent');
    assert.ok(existsSync(draft.fsPath), 'the draft is kept');
    // Its CodeLens hands a token only the composer makes: that sends.
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', draft);
    const send = lenses.find((l) => l.command?.command === 'docsAdmin.agent.send');
    assert.equal((await vscode.commands.executeCommand<SendOutcome>('docsAdmin.agent.send', ...((send?.command?.arguments ?? []) as unknown[])))?.outcome, 'created');
    assert.equal(posts(), before + 1);
  });
});
