/**
 * Issue 27, finding 5: the rollout's program and arguments reach the program as the settings
 * give them, with no variable substitution by VS Code (`${config:…}`, `${env:…}`,
 * `${command:…}`), and a rollout any part of which the workspace's settings set (command,
 * release, chart, namespace) is shown whole before it runs.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { DocsAdminInternals } from '../../src/extension';
import { Simulator } from '../simulator';
import { configure, fromCode, internals, waitFor } from './support';

describe('the rollout: no variable substitution, and every setting from the workspace shown before it runs', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let api: DocsAdminInternals;
  let dir: string;
  let uri: vscode.Uri;
  let runs = 0;
  let seen: string;
  let script: string;

  const publish = () => vscode.commands.executeCommand<unknown>('docsAdmin.publish', undefined, fromCode({ domain: 'docs.acme.dev', uri }));
  const ran = () => (existsSync(seen) ? (JSON.parse(readFileSync(seen, 'utf8')) as { args: string[]; key: string | null }) : undefined);
  const workspace = (values: Record<string, unknown>) =>
    Promise.all(Object.entries(values).map(([key, value]) => vscode.workspace.getConfiguration('docsAdmin').update(key, value, vscode.ConfigurationTarget.Workspace)));

  before(async () => {
    sim = await Simulator.start({ timeScale: 1_000, exportDefaults: { queuedMs: 0, durationMs: 1_000 } });
    api = await internals();
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-rollout-it-'));
    await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'default' }));
    await configure({ baseUrl: sim.baseUrl, projectId: sim.projectId, environments: [] });
    assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: sim.key })), true);
    await waitFor('the ok state', () => api.session.state === 'ok');
    seen = join(dir, 'rollout-seen.json');
    script = join(dir, 'rollout.js');
    writeFileSync(script, `require('fs').writeFileSync(${JSON.stringify(seen)}, JSON.stringify({ args: process.argv.slice(2), key: process.env.DOCS_ADMIN_API_KEY ?? null }));`);
  });

  beforeEach(() => {
    // A file of its own per test: the one before is still open in an editor.
    uri = vscode.Uri.file(join(dir, `values-${++runs}.yaml`));
    writeFileSync(uri.fsPath, 'staticExport:\n  enabled: false\n');
    rmSync(seen, { force: true });
  });

  after(async () => {
    await workspace({ 'rollout.command': undefined, 'rollout.release': undefined, 'rollout.chart': undefined, 'rollout.namespace': undefined });
    await vscode.commands.executeCommand('docsAdmin.key.clear', fromCode({ confirmed: true }));
    await configure({ baseUrl: undefined, projectId: undefined, environments: undefined, 'rollout.command': undefined, 'rollout.release': undefined, 'rollout.chart': undefined, 'rollout.namespace': undefined });
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a release, chart and namespace holding ${config:…}, ${env:…} and ${command:…} reach the program as written: nothing is substituted, no command runs', async () => {
    const release = '${config:docsAdmin.projectId}';
    const chart = '${env:HOME}';
    const namespace = '${command:docsAdmin.walkthrough.open}';
    await configure({ 'rollout.command': `"${process.execPath}" "${script}" \${release} \${chart} -f \${valuesFile} --namespace \${namespace}`, 'rollout.release': release, 'rollout.chart': chart, 'rollout.namespace': namespace });
    const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.ok(await publish(), 'published');
    assert.deepEqual(ran()?.args, [release, chart, '-f', uri.fsPath, '--namespace', namespace], 'each value as it was written');
    assert.ok(!tabs().includes('Welcome'), 'the command named in ${command:…} did not run');
    assert.equal(ran()?.key, null, 'no admin key in the rollout\'s environment');
  });

  it('a program named by its name runs from PATH, never from the workspace: a helm in the values file\'s folder is not run, even with an empty PATH entry (the current folder)', async () => {
    const marker = join(dir, 'workspace-helm-ran');
    writeFileSync(join(dir, 'helm'), `#!/bin/sh\ntouch ${JSON.stringify(marker)}\n`, { mode: 0o755 });
    const path = process.env.PATH;
    // A POSIX PATH with an empty entry searches the current folder, as Windows always does first.
    process.env.PATH = `${path ?? ''}:`;
    try {
      await configure({ 'rollout.command': 'helm upgrade --install ${release} ${chart} -f ${valuesFile}', 'rollout.release': 'docs', 'rollout.chart': './chart', 'rollout.namespace': '' });
      const mark = api.messages.shown;
      assert.equal(await publish(), undefined, 'the publish stopped at the rollout');
      assert.equal(existsSync(marker), false, 'the workspace\'s helm ran');
      const said = api.messages.since(mark).map((m) => m.text).join('\n');
      assert.match(said, /helm was not found on PATH \(the rollout's own folder is never searched\)/);
    } finally {
      process.env.PATH = path;
      rmSync(join(dir, 'helm'), { force: true });
    }
  });

  for (const setting of ['rollout.release', 'rollout.chart', 'rollout.namespace'] as const) {
    it(`docsAdmin.${setting} set by the workspace: the whole command is shown before it runs; declined, nothing runs and the values file is put back`, async () => {
      await configure({ 'rollout.command': `"${process.execPath}" "${script}" \${release} \${chart} -f \${valuesFile}`, 'rollout.release': 'docs', 'rollout.chart': './chart', 'rollout.namespace': '' });
      const value = { 'rollout.release': 'docs-from-the-repo', 'rollout.chart': 'oci://evil.example/chart', 'rollout.namespace': 'kube-system' }[setting];
      await workspace({ [setting]: value });
      try {
        const mark = api.messages.recent.at(-1);
        // Not answered (this host refuses modal dialogs, as a person pressing Escape would): nothing runs.
        assert.equal(await publish(), undefined);
        const shown = api.messages.recent.slice(api.messages.recent.indexOf(mark as never) + 1);
        const asked = shown.find((m) => m.modal === true);
        assert.match(asked?.text ?? JSON.stringify(shown), new RegExp(`settings set the rollout \\(docsAdmin\\.${setting.replace('.', '\\.')}\\)`));
        assert.ok(asked?.detail?.includes(value), `the whole command is shown, with the value: ${asked?.detail ?? ''}`);
        assert.deepEqual(asked?.items, ['Run']);
        assert.equal(ran(), undefined, 'nothing ran');
        assert.equal(readFileSync(uri.fsPath, 'utf8'), 'staticExport:\n  enabled: false\n', 'the values file as it was');
      } finally {
        await workspace({ [setting]: undefined });
      }
    });
  }
});
