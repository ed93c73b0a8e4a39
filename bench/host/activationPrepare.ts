/**
 * The first window of the activation benchmark: stores the key and tracks the jobs named in
 * DOCS_ADMIN_BENCH_JOBS (in the profile's secret storage and globalState, which the second
 * window of the same server and browser profile starts with), waits for their first readings,
 * then leaves the Explorer showing, so the next window starts with no Docs Admin view visible.
 * The benchmark opens the next window once the workbench has stored the jobs (see
 * `jobsStored` in bench/activation.ts).
 */
import * as vscode from 'vscode';
import type { DocsAdminInternals } from '../../src/extension';

async function waitFor(what: string, condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function run(): Promise<void> {
  const key = process.env.DOCS_ADMIN_BENCH_KEY;
  const jobs = JSON.parse(process.env.DOCS_ADMIN_BENCH_JOBS ?? '{}') as { agents?: string[]; exports?: string[] };
  if (key === undefined) throw new Error('DOCS_ADMIN_BENCH_KEY is not set');
  const api = await vscode.extensions.getExtension<DocsAdminInternals>('docs-admin.docs-admin')?.activate();
  if (api === undefined) throw new Error('the extension is not installed in this host');
  // The extension's own mark for options from code (a private symbol: a copy of fromCode.ts bundled here would not carry it).
  const fromCode = api.fromCode;
  if ((await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key }))) !== true) throw new Error('the key was not accepted');
  await waitFor('the session', () => api.session.state === 'ok' && api.session.service !== undefined);
  const service = api.session.service!;
  for (const id of jobs.agents ?? []) await service.trackAgentJob(id);
  for (const id of jobs.exports ?? []) await service.trackExportJob(id);
  await waitFor('every first reading', () => service.list().every((job) => job.snapshot !== undefined));
  await vscode.commands.executeCommand('workbench.view.explorer');
  await waitFor('the views to be hidden', () => !api.agentView.visible && !api.exportView.visible);
}
