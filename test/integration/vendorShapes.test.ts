/**
 * An agent job whose answers leave out what the vendor's admin API 2.0.0 does not require
 * (source, model, createdAt): tracked, shown and notified in a real editor with what is known,
 * and the commands that need a repository say so instead of failing.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DocsAdminInternals } from '../../src/extension';
import type { JobNode } from '../../src/vscode/tree/jobsTree';
import { Simulator } from '../simulator';
import { configure, fromCode, internals, waitFor } from './support';

describe('an agent job without the fields the vendor leaves optional, in the editor', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let api: DocsAdminInternals;

  const row = (id: string) => api.agentTree.getChildren().find((n) => n.key === `agent:${id}`);
  const item = (node: JobNode) => api.agentTree.getTreeItem(node);
  const tooltipText = (treeItem: vscode.TreeItem) => (treeItem.tooltip as vscode.MarkdownString).value.replace(/\\(.)/g, '$1');

  before(async () => {
    sim = await Simulator.start({ timeScale: 1_000 });
    api = await internals();
    await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'default' }));
    await configure({ baseUrl: sim.baseUrl, projectId: sim.projectId, environments: [], 'polling.minIntervalSeconds': 1, 'polling.maxIntervalSeconds': 5 });
    assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: sim.key })), true);
    await waitFor('the ok state', () => api.session.state === 'ok');
  });
  after(async () => {
    await vscode.commands.executeCommand('docsAdmin.key.clear', fromCode({ confirmed: true }));
    await configure({ baseUrl: undefined, projectId: undefined, environments: undefined, 'polling.minIntervalSeconds': undefined, 'polling.maxIntervalSeconds': undefined });
    await sim.stop();
  });

  it('its row shows what is known (named by its id), it is followed to its end and notified; Open Repository says why it cannot', async () => {
    // Held active by the simulator while the test reads its row; released, it ends.
    sim.addAgentJob({ id: 'job-vendor-bare', ref: null, durationMs: 1_000, held: true, omit: ['source', 'model', 'createdAt'] });
    await vscode.commands.executeCommand('docsAdmin.agentJob.track', fromCode({ value: 'job-vendor-bare' }));
    await waitFor('the active row', () => {
      const node = row('job-vendor-bare');
      return node !== undefined && String(item(node).description).startsWith('active');
    });
    const active = item(row('job-vendor-bare') as JobNode);
    assert.equal(active.label, 'job-vendor-bare');
    assert.equal(active.contextValue, 'agentJob.active.noRef.noRepo');
    assert.equal(tooltipText(active).replace(/ {2}(\n|$)/g, '\n'), '**job-vendor-bare**\n\nJob: job-vendor-bare\nStatus: active\nRef: (none)\nArchived: no\nPull request: none\n');
    await waitFor('the status bar', () => api.statusBar.text === '1 agent job');
    sim.release('job-vendor-bare');
    await waitFor('completion', () => String(item(row('job-vendor-bare') as JobNode).description).startsWith('pull request opened'), 15_000);
    await waitFor('the notification', () => api.notifier.recent.some((n) => n.message === 'Agent job job-vendor-bare opened a pull request.'));
    assert.equal(item(row('job-vendor-bare') as JobNode).contextValue, 'agentJob.completed.noRef.noRepo.hasPr');

    // The last 50 messages are kept: the ones shown since the last one before the command.
    const mark = api.messages.recent.at(-1);
    assert.equal(await vscode.commands.executeCommand('docsAdmin.agentJob.openRepository', row('job-vendor-bare')), undefined);
    const shown = api.messages.recent.slice(mark === undefined ? 0 : api.messages.recent.indexOf(mark) + 1);
    assert.deepEqual(
      shown.map((m) => `${m.severity}: ${m.text}`),
      ['error: The server has not said which repository agent job job-vendor-bare works on. Refresh the job, or look it up on the dashboard.'],
    );
  });
});
