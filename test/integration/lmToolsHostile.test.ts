/**
 * The editor's language-model tools, called through `vscode.lm.invokeTool` in the real extension
 * host, with every field of every answer they read made hostile in turn: the same table as the
 * MCP server's (test/unit/toolsHostile.test.ts, test/support/hostileTools.ts), driven by the
 * tools' definitions. Nothing from the server or a reader stands outside a data block, in a
 * result or in a failure's text.
 */
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { DocsAdminInternals } from '../../src/extension';
import { jobKey } from '../../src/core/jobs/trackedJob';
import { TOOLS } from '../../src/core/tools/definitions';
import { Simulator } from '../simulator';
import { PLAYGROUND_DOCS_JSON, writePlaygroundSite } from '../simulator/playgroundSite';
import { hostileDocsJson, REDIRECTED_PATH, runHostileTable, seedHostileFixture, type CallTool } from '../support/hostileTools';
import { configure, fromCode, internals, waitFor } from './support';

function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

describe('language-model tools: every field of every answer hostile in turn, nothing outside a data block', function () {
  this.timeout(300_000);
  let sim: Simulator;
  let api: DocsAdminInternals;
  let docsJson: string;
  let tracked: Set<string>;
  const folder = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;

  before(async () => {
    sim = await Simulator.start();
    writePlaygroundSite(folder());
    docsJson = join(folder(), 'docs', 'docs.json');
    // The parameterised redirect that maps a reader's invented path onto the quickstart.
    writeFileSync(docsJson, JSON.stringify(hostileDocsJson(PLAYGROUND_DOCS_JSON)));
    api = await internals();
    await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'default' }));
    await configure({ baseUrl: sim.baseUrl, projectId: sim.projectId, environments: [], 'polling.minIntervalSeconds': 1, 'polling.maxIntervalSeconds': 5 });
    assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: sim.key })), true);
    await waitFor('the ok state', () => api.session.state === 'ok');
    await waitFor('the redirect of docs.json read', async () => {
      await api.readers.sites.find();
      return api.readers.sites.resolve(REDIRECTED_PATH).kind === 'page';
    });
    tracked = new Set((api.session.service?.list() ?? []).map((job) => jobKey(job)));
  });

  after(async () => {
    // What the action tools started and tracked goes, with the redirect.
    for (const job of api.session.service?.list() ?? []) {
      const key = jobKey(job);
      if (!tracked.has(key) && (job.kind === 'agent' || job.kind === 'deployment')) await api.session.service?.untrack(key);
    }
    writePlaygroundSite(folder());
    await vscode.commands.executeCommand('docsAdmin.key.clear', fromCode({ confirmed: true }));
    await configure({ baseUrl: undefined, projectId: undefined, environments: undefined, 'polling.minIntervalSeconds': undefined, 'polling.maxIntervalSeconds': undefined });
    await sim.stop();
  });

  /** One call as a chat makes it (VS Code confirms an action by itself in a test host); a failure is its error's text. */
  const call: CallTool = async (name, input) => {
    try {
      return { text: textOf(await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined })), failed: false };
    } catch (error) {
      return { text: error instanceof Error ? error.message : String(error), failed: true };
    }
  };

  /**
   * Before each call: the reader analytics loaded afresh (the view's cache would answer the last
   * run's), and for an action a new client (its triggers: a deployment repeated within 2 s joins
   * the last one and sends nothing, and previews are paced at 5 a minute).
   */
  const between = async (tool: string) => {
    api.readers.model.reset();
    if (TOOLS.find((t) => t.name === tool)?.kind !== 'action') return;
    const old = api.session.client;
    await api.session.rebuild();
    await waitFor('a new client, ready', () => api.session.state === 'ok' && api.session.client !== undefined && api.session.client !== old);
  };

  it('every tool, clean and then with each string field of its answers hostile: contained each time; the payload reached every tool', async () => {
    const fixture = seedHostileFixture(sim);
    const runs = await runHostileTable(sim, fixture, call, between);
    for (const def of TOOLS) {
      const own = runs.filter((r) => r.tool === def.name && r.field !== 'none');
      assert.ok(own.length > 0, `${def.name}: no field was made hostile`);
      assert.ok(own.some((r) => r.reached || r.failed), `${def.name}: no hostile field reached its result (${own.map((r) => r.field).join(', ')})`);
    }
    const reached = (tool: string, field: string) => runs.find((r) => r.tool === tool && r.field === field)?.reached;
    // A reader's invented path (mapped onto the page by the redirect) and the server's text reach the result, quoted.
    assert.equal(reached('docsAdmin_readerSignals', 'analytics.feedback feedback[].path'), true);
    assert.equal(reached('docsAdmin_readerSignals', 'analytics.feedback feedback[].comment'), true);
    assert.equal(reached('docsAdmin_deploymentStatus', 'deploy.status summary'), true);
    // A preview URL that is no link is not kept (parse time), so nothing of it reaches the result.
    assert.equal(reached('docsAdmin_previewBranch', 'preview.trigger previewUrl'), false);
    assert.ok(runs.length > 40, `only ${runs.length} runs`);
  });
});
