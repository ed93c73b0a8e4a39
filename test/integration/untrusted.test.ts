import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { DocsAdminInternals } from '../../src/extension';
import type { ShownMessage } from '../../src/vscode/messages';
import { Simulator } from '../simulator';
import { zip } from '../unit/support/archives';
import { configure, fromCode, internals, waitFor } from './support';

/** Where a click would send the admin key: the example. */
const EVIL = 'https://evil.example';
const LINK = `[Show Logs](command:docsAdmin.baseUrl.set?${encodeURIComponent(JSON.stringify([EVIL]))})`;

/**
 * VS Code's own test for a link in a notification (vs/base/common/linkedText.ts): any match is
 * rendered as a clickable link.
 */
const RENDERED_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;

describe('outside text in notifications: nothing in it can be clicked', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let api: DocsAdminInternals;
  let dir: string;

  const baseUrl = () => vscode.workspace.getConfiguration('docsAdmin').get<string>('baseUrl');
  /** The messages shown after `mark` (the last one shown before; the list keeps the last 50). */
  const shownSince = (mark: ShownMessage | undefined): ShownMessage[] => api.messages.recent.slice(mark === undefined ? 0 : api.messages.recent.indexOf(mark) + 1);
  /** The message was handed to the workbench with the quoted text, and with no link in it. */
  const assertNoLink = (message: ShownMessage | undefined, quoted: RegExp) => {
    assert.ok(message, 'a message was shown');
    assert.match(message.text, quoted, 'the outside text is still there to read');
    assert.deepEqual([...message.text.matchAll(RENDERED_LINK)], [], `no link in: ${message.text}`);
    assert.equal(baseUrl(), sim.baseUrl, 'the base URL is unchanged');
  };

  before(async () => {
    sim = await Simulator.start({ timeScale: 1_000 });
    api = await internals();
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-untrusted-it-'));
    await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'default' }));
    await configure({ baseUrl: sim.baseUrl, projectId: sim.projectId, environments: [], 'polling.minIntervalSeconds': 1, 'polling.maxIntervalSeconds': 5 });
    assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: sim.key })), true);
    await waitFor('the ok state', () => api.session.state === 'ok');
  });

  after(async () => {
    await vscode.commands.executeCommand('docsAdmin.key.clear', fromCode({ confirmed: true }));
    await configure({ baseUrl: undefined, projectId: undefined, environments: undefined, 'polling.minIntervalSeconds': undefined, 'polling.maxIntervalSeconds': undefined, 'rollout.command': undefined, 'rollout.release': undefined });
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an export\'s server error with link syntax: the failure notification has no link', async () => {
    // Held running until its first reading, then moved to its end: it fails while followed.
    const { jobId } = sim.addExportJob({ domain: 'docs.acme.dev', queuedMs: 0, durationMs: 1_000, outcome: 'failed', error: `Render failed. ${LINK}`, held: true });
    const before = api.messages.recent.at(-1);
    await api.session.service?.trackExportJob(String(jobId));
    await waitFor('its first reading', () => api.session.service?.get(`export:${String(jobId)}`)?.snapshot?.status === 'running');
    sim.stepJob(String(jobId), 1_000);
    await waitFor('the failure notification', () => shownSince(before).some((m) => m.text.startsWith('Static export of docs.acme.dev failed')));
    const shown = shownSince(before).find((m) => m.text.startsWith('Static export of docs.acme.dev failed'));
    assertNoLink(shown, /Render failed\. \[Show Logs\] \(command:docsAdmin\.baseUrl\.set/);
    assert.deepEqual(shown?.items, ['Retry', 'Show Logs'], 'the real actions are buttons');
  });

  it('a 401 whose body carries link syntax: the error shown has no link', async () => {
    sim.injectFault({ route: 'export.start', kind: 'status', status: 401, body: { error: `Invalid key. ${LINK}` }, times: 1 });
    const before = api.messages.recent.at(-1);
    assert.equal(await vscode.commands.executeCommand('docsAdmin.export.start', fromCode({ value: 'docs.acme.dev' })), undefined);
    await waitFor('the error', () => shownSince(before).some((m) => m.severity === 'error'));
    assertNoLink(
      shownSince(before).find((m) => m.severity === 'error'),
      /Invalid key\. \[Show Logs\] \(command:/,
    );
  });

  it('a key check answered by a 401 with link syntax: the message has no link', async () => {
    const good = sim.keys.splice(0, sim.keys.length, { key: 'da_other_key_000' });
    sim.injectFault({ route: 'agent.get', kind: 'status', status: 401, body: { error: `Key revoked. ${LINK}` }, times: 1 });
    const before = api.messages.recent.at(-1);
    try {
      assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: 'da_wrong_key_999' })), false);
      await waitFor('the error', () => shownSince(before).some((m) => m.severity === 'error'));
      assertNoLink(
        shownSince(before).find((m) => m.severity === 'error'),
        /Key revoked\. \[Show Logs\] \(command:/,
      );
    } finally {
      sim.keys.splice(0, sim.keys.length, ...good);
    }
  });

  it('a base URL re-pointed (as the link would) gets no key: the view says why, and a warning asks', async () => {
    const other = await Simulator.start({ timeScale: 1_000 });
    try {
      sim.addAgentJob({ id: 'job-watched', durationMs: 1_000, held: true });
      await vscode.commands.executeCommand('docsAdmin.agentJob.track', fromCode({ value: 'job-watched' }));
      const before = api.messages.recent.at(-1);
      assert.equal(await vscode.commands.executeCommand('docsAdmin.baseUrl.set', fromCode({ value: other.baseUrl })), true);
      await waitFor('the key held back', () => api.session.state === 'noKey').catch(() => assert.fail(`${api.session.state}: ${api.session.stateMessage ?? ''}`));
      assert.match(api.session.stateMessage ?? '', /was set for http:\/\/127\.0\.0\.1:\d+, not for/);
      await waitFor('the warning', () => shownSince(before).some((m) => m.severity === 'warning'));
      const warning = shownSince(before).find((m) => m.severity === 'warning');
      assert.deepEqual(warning?.items, [`Set Admin Key for ${new URL(other.baseUrl).origin}`, `Send the Key to ${new URL(other.baseUrl).origin}`]);
      await vscode.commands.executeCommand('docsAdmin.refresh');
      // Whatever the refresh read has been read (no poll under way, none due): then no key reached the other server.
      await waitFor('the refresh\'s readings', () => api.session.service?.isIdle === true);
      assert.deepEqual(other.requests.filter((r) => r.headers.authorization !== undefined), [], 'no key reached the other server');
      // Back to the server the key was set for: it is used again.
      assert.equal(await vscode.commands.executeCommand('docsAdmin.baseUrl.set', fromCode({ value: sim.baseUrl })), true);
      await waitFor('the ok state', () => api.session.state === 'ok');
    } finally {
      await vscode.commands.executeCommand('docsAdmin.baseUrl.set', fromCode({ value: sim.baseUrl }));
      await other.stop();
    }
  });

  it('an archive entry named with link syntax: the refusal has no link', async () => {
    const name = `../[Show Logs](command:docsAdmin.baseUrl.set?%5B%22https%3A%2F%2Fevil.example%22%5D)`;
    const archive = join(dir, 'evil.zip');
    writeFileSync(archive, zip([{ name: 'index.html', data: '<html></html>' }, { name, data: 'x' }]));
    const before = api.messages.recent.at(-1);
    assert.equal(await vscode.commands.executeCommand('docsAdmin.export.extractBundle', undefined, fromCode({ archive, folder: join(dir, 'out') })), undefined);
    await waitFor('the refusal', () => shownSince(before).some((m) => m.severity === 'error'));
    assertNoLink(
      shownSince(before).find((m) => m.severity === 'error'),
      /\[Show Logs\] \(command:docsAdmin\.baseUrl\.set/,
    );
  });

  it('the rollout runs one program with its arguments: a release name with shell syntax stays text, and the admin key is not in its environment', async () => {
    sim.setExportDefaults({ queuedMs: 0, durationMs: 1_000 });
    const uri = vscode.Uri.file(join(dir, 'values.yaml'));
    writeFileSync(uri.fsPath, 'staticExport:\n  enabled: false\n');
    const seen = join(dir, 'rollout-seen.json');
    const pwned = join(dir, 'PWNED');
    const script = join(dir, 'rollout.js');
    writeFileSync(script, `require('fs').writeFileSync(${JSON.stringify(seen)}, JSON.stringify({ args: process.argv.slice(2), key: process.env.DOCS_ADMIN_API_KEY ?? null }));`);
    const release = `docs"$(touch ${pwned})"'; touch ${pwned}; '\`touch ${pwned}\``;
    await configure({ 'rollout.command': `"${process.execPath}" "${script}" \${release} -f \${valuesFile}`, 'rollout.release': release });
    assert.ok(await vscode.commands.executeCommand('docsAdmin.publish', undefined, fromCode({ domain: 'docs.acme.dev', uri })), 'published');
    const got = JSON.parse(readFileSync(seen, 'utf8')) as { args: string[]; key: string | null };
    assert.deepEqual(got.args, [release, '-f', uri.fsPath], 'each value one argument, as it was');
    assert.equal(existsSync(pwned), false, 'nothing in the value ran');
    // The host starts VS Code with DOCS_ADMIN_API_KEY set (test/host/codeServer.ts).
    assert.ok(got.key === null || got.key === '', `the admin key is not handed to the rollout (got ${JSON.stringify(got.key?.slice(0, 3))}…)`);
    // A value that would be taken for an option is refused before anything runs.
    await configure({ 'rollout.release': '--post-renderer=./x' });
    rmSync(seen, { force: true });
    assert.equal(await vscode.commands.executeCommand('docsAdmin.publish', undefined, fromCode({ domain: 'docs.acme.dev', uri })), undefined);
    assert.equal(existsSync(seen), false, 'the rollout did not run');
  });

  it('options that choose files, passed as a link would (plain JSON), are refused: nothing is written', async () => {
    const victim = join(dir, 'victim');
    writeFileSync(join(dir, 'keep.txt'), 'precious');
    const archive = join(dir, 'plain.zip');
    writeFileSync(archive, zip([{ name: 'index.html', data: '<html></html>' }]));
    // What a [x](command:docsAdmin.export.extractBundle?[null,{...}]) link hands the command, parsed from its JSON.
    const fromLink = JSON.parse(JSON.stringify({ archive, folder: victim, replace: true })) as object;
    assert.equal(await vscode.commands.executeCommand('docsAdmin.export.extractBundle', null, fromLink), undefined);
    assert.equal(existsSync(victim), false, 'nothing extracted');
    const target = join(dir, 'keep.txt');
    assert.equal(await vscode.commands.executeCommand('docsAdmin.export.downloadBundle', null, JSON.parse(JSON.stringify({ target, replace: true })) as object), undefined);
    assert.equal(readFileSync(target, 'utf8'), 'precious', 'nothing replaced');
    assert.match(api.messages.recent.at(-1)?.text ?? '', /from outside Docs Admin \(a link in a message\?\): refused/);
  });

  it('a key or a confirmation passed as a link would is refused: the key in use stays', async () => {
    assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', 'da_someone_elses_key_1'), undefined);
    assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', JSON.parse('{"key":"da_someone_elses_key_1"}') as object), undefined);
    assert.equal(await vscode.commands.executeCommand('docsAdmin.key.clear', JSON.parse('{"confirmed":true}') as object), undefined);
    assert.equal(api.session.state, 'ok');
    assert.deepEqual(sim.requests.filter((r) => r.headers.authorization?.includes('someone_elses') === true), [], 'the other key was never even checked');
  });
});
