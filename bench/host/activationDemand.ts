/**
 * The second window of the activation benchmark: starts with a key stored and jobs tracked (the
 * first window's), no Docs Admin view visible. Activates, waits until the session's rebuild has
 * settled (the tree's rows, from storage) and the status bar, which shows the running jobs, has
 * demanded them (the scheduler then holds those alone), then opens the view and times its rows.
 * Writes the moments to DOCS_ADMIN_BENCH_OUT; the benchmark counts the simulator's requests
 * between them.
 */
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { DocsAdminInternals } from '../../src/extension';

async function waitFor(what: string, condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export async function run(): Promise<void> {
  const out = process.env.DOCS_ADMIN_BENCH_OUT;
  if (out === undefined) throw new Error('DOCS_ADMIN_BENCH_OUT is not set');
  const extension = vscode.extensions.getExtension<DocsAdminInternals>('docs-admin.docs-admin');
  if (extension === undefined) throw new Error('the extension is not installed in this host');
  const wasActive = extension.isActive;
  const startedAt = Date.now();
  const t0 = performance.now();
  const api = await extension.activate();
  const rows = () => api.agentTree.getChildren().length + api.exportTree.getChildren().length;
  const expected = api.session.service?.list().length;
  await waitFor('the rows from storage', () => api.session.state === 'ok' && rows() > 0 && rows() === api.session.service?.list().length);
  const rowsMs = performance.now() - t0;
  const rowsAt = Date.now();
  const statusBarText = api.statusBar.text;
  const viewsVisibleAtStart = api.agentView.visible || api.exportView.visible;
  // The status bar needs the running jobs: once they are demanded, the scheduler reads them (at
  // once) and only them: no other job can be asked about, however long the view stays closed.
  const service = api.session.service;
  await waitFor('the running jobs demanded', () => service?.isDemanded === true && service.activeCount === service.running().length);
  const viewAt = Date.now();
  const v0 = performance.now();
  await vscode.commands.executeCommand('workbench.view.extension.docsAdmin');
  await waitFor('a visible view with its rows', () => (api.agentView.visible || api.exportView.visible) && rows() > 0);
  const viewRowsMs = performance.now() - v0;
  writeFileSync(out, JSON.stringify({ wasActive, startedAt, rowsAt, viewAt, endedAt: Date.now(), rowsMs, viewRowsMs, statusBarText, viewsVisibleAtStart, rowCount: rows(), expected }));
}
