import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DocsAdminInternals } from '../../src/extension';
import { jobKey } from '../../src/core/jobs/trackedJob';
import { Simulator } from '../simulator';
import { configure, fromCode, internals, waitFor } from './support';

/**
 * With a key stored and jobs tracked, the session's rebuild (what activation runs) asks the API
 * nothing until a view shows the jobs, or the status bar has a job to show (a job not terminal:
 * the status bar shows its status and progress). A rebuild is what a new window runs.
 */
describe('no request before a view or the status bar needs the jobs (against the simulator)', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let api: DocsAdminInternals;

  const hideViews = async () => {
    await vscode.commands.executeCommand('workbench.view.explorer');
    await waitFor('the views to be hidden', () => !api.agentView.visible && !api.exportView.visible);
  };
  /** How many jobs the scheduler reads (none: no request can come, whatever the time). */
  const polled = () => api.session.service?.activeCount;

  before(async () => {
    // 1 real ms is 1 simulated second.
    sim = await Simulator.start({ timeScale: 1_000 });
    api = await internals();
    await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'default' }));
    await vscode.commands.executeCommand('docsAdmin.key.clear', fromCode({ confirmed: true }));
    await configure({ baseUrl: sim.baseUrl, projectId: sim.projectId, environments: [], 'polling.minIntervalSeconds': 1, 'polling.maxIntervalSeconds': 5 });
    assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: sim.key })), true);
    // Jobs other suites left tracked would be rows too: start from none.
    for (const job of api.session.service?.list() ?? []) await api.session.service?.untrack(jobKey(job));
    for (const id of ['ended-1', 'ended-2']) {
      sim.addAgentJob({ id, durationMs: 1_000 });
      await vscode.commands.executeCommand('docsAdmin.agentJob.track', fromCode({ value: id }));
    }
    await waitFor('the tracked jobs to end', () => (api.session.service?.list() ?? []).every((j) => j.snapshot?.status === 'completed'), 15_000);
    // Tracked while a view shows them (a suite before this one left it open), each row is revealed; a
    // reveal still on its way when the views are hidden opens them again. The last row selected, none is.
    if (api.agentView.visible) await waitFor('the last row selected', () => api.agentView.selection.some((n) => n.key === 'agent:ended-2'));
  });

  after(async () => {
    for (const job of api.session.service?.list() ?? []) await api.session.service?.untrack(jobKey(job));
    await vscode.commands.executeCommand('docsAdmin.key.clear', fromCode({ confirmed: true }));
    await configure({ baseUrl: undefined, projectId: undefined, environments: undefined, 'polling.minIntervalSeconds': undefined, 'polling.maxIntervalSeconds': undefined });
    await sim.stop();
  });

  it('with only ended jobs tracked: no request until a view is shown, and the rows come from storage', async () => {
    await hideViews();
    const before = sim.requests.length;
    await api.session.rebuild();
    assert.equal(api.session.state, 'ok');
    assert.deepEqual(sim.requests.slice(before).map((r) => `${r.method} ${r.path}`), [], 'requests before a view was shown');
    assert.equal(api.statusBar.text, undefined, 'the status bar shows nothing (nothing runs)');
    assert.equal(api.session.service?.isDemanded, false);
    assert.equal(polled(), 0, 'nothing is to be read');
    await vscode.commands.executeCommand('workbench.view.extension.docsAdmin');
    await waitFor('a visible view', () => api.agentView.visible || api.exportView.visible);
    await waitFor('the jobs to be demanded', () => api.session.service?.isDemanded === true);
    assert.equal(api.agentTree.getChildren().length, 2, 'the rows, from what was stored');
    // Demanded, the scheduler reads what is not over: nothing here, so no request can come.
    assert.equal(polled(), 0, 'an ended job is not read');
    assert.deepEqual(sim.requests.slice(before).map((r) => `${r.method} ${r.path}`), [], 'an ended job is never asked about again');
  });

  it('with a running job tracked: the status bar needs it, so it alone is read, and the ended ones are not', async () => {
    // Held running by the simulator until the suite ends.
    sim.addAgentJob({ id: 'running', durationMs: 1_000, held: true });
    await vscode.commands.executeCommand('docsAdmin.agentJob.track', fromCode({ value: 'running' }));
    await waitFor('its first reading', () => api.session.service?.get('agent:running')?.snapshot?.status === 'active');
    // Tracked while the first test's view shows, its row is revealed: a reveal still on its way when
    // the views are hidden would open them again. Once the row is selected, none is.
    if (api.agentView.visible) await waitFor('its row selected', () => api.agentView.selection.some((n) => n.key === 'agent:running'));
    await hideViews();
    const before = sim.requests.length;
    await api.session.rebuild();
    await waitFor('the status bar', () => api.statusBar.text === '1 agent job');
    await waitFor('a reading of the running job', () => sim.requests.slice(before).some((r) => r.path.endsWith('/running')));
    // The scheduler reads the running job alone: the ended ones can never be asked about.
    assert.equal(polled(), 1, 'one job is read');
    const asked = new Set(sim.requests.slice(before).map((r) => r.path.split('/').pop()));
    assert.deepEqual([...asked], ['running'], 'only the job the status bar shows is asked about');
  });
});
