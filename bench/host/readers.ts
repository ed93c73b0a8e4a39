/**
 * Loaded by the extension host as a "test suite" for the readers benchmark: writes a large docs
 * site into the workspace (docs/docs.json and DOCS_ADMIN_BENCH_PAGES pages) and as many plain
 * Markdown notes outside it, stores the key, loads the site's reader analytics once (the cache),
 * then opens pages one after another, each time timing, from the moment the page is shown, its
 * CodeLenses asked for until the page's signals are among them (and, apart, the whole of it from
 * the open). The baseline, interleaved: the same for a note of the same size outside the docs
 * root (the editor's own lenses; no signals there). Writes the timings to DOCS_ADMIN_BENCH_OUT.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { DocsAdminInternals } from '../../src/extension';

async function waitFor(what: string, condition: () => boolean, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const BODY = `${'Some paragraph of a docs page, long enough to be a page. '.repeat(30)}\n`;

/**
 * Opens `uri`, then asks for its lenses until `done(lenses)` holds: `lens`, from the page shown
 * to its lenses (what the extension adds), and `open`, the whole of it (the editor's opening in).
 */
async function timeOpen(uri: vscode.Uri, done: (lenses: vscode.CodeLens[]) => boolean): Promise<{ lens: number; open: number }> {
  const t0 = performance.now();
  await vscode.window.showTextDocument(uri, { preview: false });
  const shown = performance.now();
  for (;;) {
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
    if (done(lenses)) break;
    if (performance.now() - t0 > 5_000) throw new Error(`no signals on ${uri.fsPath} after 5 s`);
  }
  const end = performance.now();
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  return { lens: end - shown, open: end - t0 };
}

export async function run(): Promise<void> {
  const out = process.env.DOCS_ADMIN_BENCH_OUT;
  const key = process.env.DOCS_ADMIN_BENCH_KEY;
  const pages = Number(process.env.DOCS_ADMIN_BENCH_PAGES ?? '2000');
  const opens = Number(process.env.DOCS_ADMIN_BENCH_OPENS ?? '40');
  if (out === undefined || key === undefined) throw new Error('DOCS_ADMIN_BENCH_OUT and DOCS_ADMIN_BENCH_KEY must be set');
  const api = await vscode.extensions.getExtension<DocsAdminInternals>('docs-admin.docs-admin')?.activate();
  if (api === undefined) throw new Error('the extension is not installed in this host');
  // The extension's own mark for options from code (a private symbol: a copy of fromCode.ts bundled here would not carry it).
  const fromCode = api.fromCode;
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (root === undefined) throw new Error('no workspace folder');
  mkdirSync(join(root, 'docs', 'p'), { recursive: true });
  mkdirSync(join(root, 'notes'), { recursive: true });
  writeFileSync(join(root, 'docs', 'docs.json'), JSON.stringify({ name: 'Bench', redirects: [{ source: '/old/:slug*', destination: '/p/:slug*' }] }));
  for (let i = 0; i < pages; i++) {
    writeFileSync(join(root, 'docs', 'p', `page-${i}.mdx`), `---\ntitle: Page ${i}\n---\n\n${BODY}`);
    if (i < opens) writeFileSync(join(root, 'notes', `note-${i}.md`), `---\ntitle: Note ${i}\n---\n\n${BODY}`);
  }
  if ((await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key }))) !== true) throw new Error('the key was not accepted');
  await waitFor('the session', () => api.session.state === 'ok' && api.session.client !== undefined);
  // The site's data, loaded once and cached, and the docs root found: what "cached" means here.
  const loadStarted = Date.now();
  const l0 = performance.now();
  await Promise.all([api.readers.model.refresh(), api.readers.sites.find()]);
  const loadMs = performance.now() - l0;
  // The index is built as the data arrives (once per load): its time, as the model took it.
  const index = api.readers.model.index();
  const indexMs = api.readers.model.lastIndexMs ?? NaN;
  if (index === undefined) throw new Error('the reader analytics did not load');
  const withData = index.pages.filter((p) => p.uri !== undefined).map((p) => p.uri!);
  if (withData.length < opens) throw new Error(`only ${withData.length} pages have signals`);
  // Uneven, as people are: the most-needed pages first, then pages from the whole ranking.
  const picked = Array.from({ length: opens }, (_, i) => withData[i % 2 === 0 ? Math.floor(i / 2) : Math.floor((withData.length - 1) * (i / opens))]!);
  const ours: number[] = [];
  const baseline: number[] = [];
  const oursOpen: number[] = [];
  const provider: number[] = [];
  const baselineOpen: number[] = [];
  const openedAt = Date.now();
  // One warm-up of each (the editor's first document of a kind), not counted.
  await timeOpen(picked[0]!, (l) => l.some((x) => x.command?.command === 'docsAdmin.readers.showPage'));
  await timeOpen(vscode.Uri.file(join(root, 'notes', 'note-0.md')), () => true);
  for (let i = 0; i < opens; i++) {
    // The provider as VS Code calls it, on the page's document: what the extension itself takes.
    const document = await vscode.workspace.openTextDocument(picked[i]!);
    const p0 = performance.now();
    const provided = api.readers.lens.provideCodeLenses(document);
    provider.push(performance.now() - p0);
    if (provided.length !== 1) throw new Error(`no signals from the provider for ${picked[i]!.fsPath}`);
    const page = await timeOpen(picked[i]!, (l) => l.some((x) => x.command?.command === 'docsAdmin.readers.showPage'));
    const note = await timeOpen(vscode.Uri.file(join(root, 'notes', `note-${i}.md`)), () => true);
    ours.push(page.lens);
    oursOpen.push(page.open);
    baseline.push(note.lens);
    baselineOpen.push(note.open);
  }
  writeFileSync(out, JSON.stringify({ ours, baseline, oursOpen, baselineOpen, provider, indexMs, loadMs, loadStarted, openedAt, endedAt: Date.now(), pagesWithData: withData.length, pages, requests: index.site.requests }));
}
