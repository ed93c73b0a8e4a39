/**
 * Issue 27, finding 2: the admin key is bound to the server it was set for, and never bound to
 * another without the person confirming that server by name. A listener set as the base URL
 * (here a second simulator, recording every request) must never see the key on its own.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DocsAdminInternals } from '../../src/extension';
import { Simulator } from '../simulator';
import { hands, openOnScreen, waitForShown } from './screen';
import { configure, fromCode, internals, waitFor } from './support';

const SECRET = 'docsAdmin.adminKey.default';

describe('the admin key goes only to the server it was set for, confirmed by its name', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let listener: Simulator;
  let api: DocsAdminInternals;

  const origin = (s: Simulator) => new URL(s.baseUrl).origin;
  const baseUrl = () => vscode.workspace.getConfiguration('docsAdmin').get<string>('baseUrl');
  const keyRequests = (s: Simulator) => s.requests.filter((r) => r.headers.authorization !== undefined);
  const warnings = () => api.messages.recent.filter((m) => m.severity === 'warning');

  before(async () => {
    sim = await Simulator.start({ timeScale: 1_000 });
    listener = await Simulator.start({ timeScale: 1_000, keys: [{ key: sim.key }] });
    api = await internals();
    await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'default' }));
    await vscode.commands.executeCommand('docsAdmin.key.clear', fromCode({ confirmed: true }));
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('docsAdmin.key.clear', fromCode({ confirmed: true }));
    await configure({ baseUrl: undefined, projectId: undefined, environments: undefined });
  });

  after(async () => {
    await sim.stop();
    await listener.stop();
  });

  it('a key an earlier version stored without its server is not sent to the base URL: the view and a warning name the server, and ask', async () => {
    await configure({ baseUrl: listener.baseUrl, projectId: listener.projectId, environments: [] });
    await waitFor('no key yet', () => api.session.state === 'noKey');
    const before = api.messages.recent.at(-1);
    // What an earlier version left in the keychain: the bare key.
    await api.secrets.store(SECRET, sim.key);
    await waitFor('the key held back', () => /stored without the server/.test(api.session.stateMessage ?? ''), 10_000).catch(() => assert.fail(`${api.session.state}: ${api.session.stateMessage ?? ''}`));
    assert.equal(api.session.state, 'noKey');
    assert.match(api.session.stateMessage ?? '', new RegExp(`nothing was sent to ${origin(listener).replace(/[.]/g, '\\.')}`));
    await waitFor('the warning', () => warnings().some((m) => m !== before && /stored without the server/.test(m.text)));
    const warning = warnings().find((m) => /stored without the server/.test(m.text));
    assert.deepEqual(warning?.items, [`Set Admin Key for ${origin(listener)}`, `Send the Key to ${origin(listener)}`], 'the buttons name the server');
    await vscode.commands.executeCommand('docsAdmin.refresh');
    // Whatever the refresh read has been read (no poll under way, none due): then no key reached the listener.
    await waitFor('the refresh\'s readings', () => api.session.service?.isIdle === true);
    assert.deepEqual(keyRequests(listener).map((r) => r.path), [], 'the listener saw no key');
    assert.equal(await api.secrets.get(SECRET), sim.key, 'the key is kept as it was, bound to nothing');
  });

  it('Set Admin Key before any base URL: refused, saying to set the base URL first; nothing is stored', async () => {
    await configure({ baseUrl: '', projectId: '', environments: [] });
    const before = api.messages.recent.at(-1);
    assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: sim.key })), false);
    assert.equal(await api.secrets.get(SECRET), undefined, 'nothing stored');
    const said = api.messages.recent.slice(api.messages.recent.indexOf(before as never) + 1);
    assert.ok(said.some((m) => /Set the base URL of "Default" first/.test(m.text) && m.items.includes('Set Base URL')), JSON.stringify(said));
    // Set later, the base URL finds no key to send.
    await configure({ baseUrl: listener.baseUrl, projectId: listener.projectId });
    await waitFor('no key', () => api.session.state === 'noKey');
    assert.deepEqual(keyRequests(listener), []);
  });

  it('the key box names the server; the key typed there is checked with that server only, and kept for it', async () => {
    await configure({ baseUrl: sim.baseUrl, projectId: sim.projectId, environments: [] });
    await waitFor('no key', () => api.session.state === 'noKey');
    const setting = vscode.commands.executeCommand('docsAdmin.key.set');
    await waitFor('the key box', () => openOnScreen().quickInput);
    // As the person reads it.
    await waitForShown('the key box\'s title, naming the server', `Docs Admin: admin key for "Default" (${origin(sim)})`);
    await waitForShown('the key box\'s prompt', `Sent only to ${origin(sim)}`);
    await hands({ type: sim.key }, { press: 'Enter' });
    assert.equal(await setting, true);
    assert.deepEqual(JSON.parse((await api.secrets.get(SECRET)) ?? '{}'), { key: sim.key, origin: origin(sim) });
    await waitFor('the ok state', () => api.session.state === 'ok');
    assert.deepEqual(keyRequests(listener), [], 'no other server saw it');
  });

  it('Set Base URL, Set Project ID and Switch Environment from a link: the value is shown for the person to confirm; dismissed, nothing changes', async () => {
    await configure({ baseUrl: sim.baseUrl, projectId: sim.projectId, environments: [{ name: 'other', baseUrl: listener.baseUrl, projectId: listener.projectId }] });
    const cases: [string, string, () => unknown][] = [
      ['docsAdmin.baseUrl.set', listener.baseUrl, baseUrl],
      ['docsAdmin.projectId.set', 'evil-project', () => vscode.workspace.getConfiguration('docsAdmin').get<string>('projectId')],
      ['docsAdmin.environment.switch', 'env:other', () => api.session.environment.id],
    ];
    for (const [id, value, read] of cases) {
      const was = read();
      await waitFor('no question on screen', () => !openOnScreen().quickInput);
      // What [x](command:<id>?["<value>"]) hands the command.
      const running = vscode.commands.executeCommand(id, value);
      await waitFor(`${id}: a question on screen`, () => openOnScreen().quickInput);
      const asked = api.ui.prompts.at(-1);
      if (asked?.kind === 'inputBox') assert.equal(asked.value, value, `${id}: the link's value is only the box's first text`);
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      assert.equal(await running, false, id);
      assert.equal(read(), was, `${id}: nothing changed`);
      await waitFor('the question gone from the screen', () => !openOnScreen().quickInput);
    }
  });
});
