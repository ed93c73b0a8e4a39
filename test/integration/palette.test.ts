import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { DocsAdminInternals } from '../../src/extension';
import { Simulator } from '../simulator';
import { quickInputRows } from './screen';
import { configure, fromCode, internals, waitFor } from './support';

const REPO = join(__dirname, '..', '..', '..');

/** Always there: what sets an environment up, and what helps before it is. */
const SETUP = [
  'docsAdmin.baseUrl.set',
  'docsAdmin.deploymentType.show',
  'docsAdmin.environment.switch',
  'docsAdmin.key.set',
  'docsAdmin.logs.show',
  'docsAdmin.projectId.set',
  'docsAdmin.walkthrough.open',
];
/** Once the base URL, the project id and the key are set: what needs the project. */
const CONFIGURED = [
  ...SETUP,
  'docsAdmin.agent.ask',
  'docsAdmin.agentJob.track',
  'docsAdmin.automation.run',
  'docsAdmin.deployment.deploy',
  'docsAdmin.deployment.preview',
  'docsAdmin.deployment.track',
  'docsAdmin.export.start',
  'docsAdmin.key.clear',
  'docsAdmin.publish',
  'docsAdmin.readers.period',
  'docsAdmin.readers.refresh',
  'docsAdmin.refresh',
  'docsAdmin.site.open',
  'docsAdmin.site.set',
];
/** With a completed export and a deployment tracked: what needs one of them. */
const WITH_JOBS = [...CONFIGURED, 'docsAdmin.deployment.showLogs', 'docsAdmin.export.downloadBundle', 'docsAdmin.export.extractBundle', 'docsAdmin.values.update'];

/**
 * The command palette fits the moment (issue 36). Read from the window as a person sees it: the
 * palette opened with "Docs Admin:" typed, every row of its list (the test host pages through it:
 * test/host/screen.ts). Before an environment is set up, only what sets one up; once it is, what
 * needs the project; what needs a completed export or a deployment once there is one; never a
 * command that acts on one row. The README says the first two counts: they are read there.
 */
describe('the command palette shows the Docs Admin commands that fit the moment', function () {
  this.timeout(120_000);
  let sim: Simulator;
  let api: DocsAdminInternals;
  const contributed = new Set(
    (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { contributes: { commands: { command: string }[] } }).contributes.commands.map((c) => c.command),
  );
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8').replace(/\s+/g, ' ');

  /** The contributed commands the palette lists for "Docs Admin:" (the workbench's own "Focus on … View" rows left out), sorted. */
  async function palette(): Promise<string[]> {
    await api.palette.update();
    await vscode.commands.executeCommand('workbench.action.quickOpen', '>Docs Admin: ');
    try {
      // Two readings alike: the list is filtered and drawn.
      let last = '';
      for (let until = Date.now() + 20_000; ; ) {
        const ids = (await quickInputRows()).map((row) => row.id);
        const shown = JSON.stringify(ids);
        if (ids.length > 0 && shown === last) {
          const ours = ids.filter((id) => contributed.has(id));
          assert.ok(
            ids.every((id) => contributed.has(id) || /^docsAdmin\.\w+\.focus$/.test(id)),
            `only Docs Admin's commands and its views' focus commands: ${shown}`,
          );
          return ours.sort();
        }
        last = shown;
        assert.ok(Date.now() < until, `the palette's rows did not settle: ${shown}`);
      }
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    }
  }

  before(async () => {
    sim = await Simulator.start({ timeScale: 1_000, exportDefaults: { queuedMs: 0, durationMs: 0 } });
    api = await internals();
    // What another suite may have left: an open page (its Ask Agent About This), a preview running.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await api.previews.stop();
    await configure({ environments: [{ name: 'palette', baseUrl: '', projectId: '' }], 'polling.minIntervalSeconds': 1 });
    await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'env:palette' }));
    await waitFor('the new environment', () => api.session.environment.id === 'env:palette' && api.session.state === 'noProject');
  });

  after(async () => {
    await vscode.commands.executeCommand('docsAdmin.key.clear', fromCode({ confirmed: true }));
    await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'default' }));
    await configure({ environments: undefined, 'polling.minIntervalSeconds': undefined });
    await sim.stop();
  });

  it(`before anything is set up: the ${SETUP.length} commands that set an environment up, Get Started, Show Feature Availability and Show Logs`, async () => {
    assert.deepEqual(await palette(), [...SETUP].sort());
    assert.ok(readme.includes(`Before an environment is set up it holds ${SETUP.length} Docs Admin commands`), `the README says ${SETUP.length}`);
  });

  it(`once the base URL, the project id and the key are set: ${CONFIGURED.length}, with the commands that need the project and Clear Admin Key`, async () => {
    assert.equal(await vscode.commands.executeCommand('docsAdmin.baseUrl.set', fromCode({ value: sim.baseUrl })), true);
    assert.equal(await vscode.commands.executeCommand('docsAdmin.projectId.set', fromCode({ value: sim.projectId })), true);
    await waitFor('the no-key state', () => api.session.state === 'noKey');
    assert.deepEqual(await palette(), [...SETUP].sort(), 'a base URL and a project id without a key: still the setup commands');
    assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: sim.key })), true);
    await waitFor('the ok state', () => api.session.state === 'ok');
    assert.deepEqual(await palette(), [...CONFIGURED].sort());
    assert.ok(readme.includes(`Once the base URL, the project id and the key are set, ${CONFIGURED.length};`), `the README says ${CONFIGURED.length}`);
  });

  it(`a completed export and a deployment bring the commands that need one (${WITH_JOBS.length} then); a command that acts on one row never shows`, async () => {
    await vscode.commands.executeCommand('docsAdmin.export.start', fromCode({ value: 'docs.acme.dev' }));
    const deployment = sim.addDeployment({ kind: 'production', queuedMs: 0, durationMs: 1, outcome: 'success' });
    await vscode.commands.executeCommand('docsAdmin.deployment.track', fromCode({ value: String(deployment._id) }));
    await waitFor('a completed export and a deployment, seen', async () => {
      await api.palette.update();
      return api.palette.current.completedExport === true && api.palette.current.deploymentTracked === true;
    }, 20_000);
    assert.deepEqual(await palette(), [...WITH_JOBS].sort());
  });
});
