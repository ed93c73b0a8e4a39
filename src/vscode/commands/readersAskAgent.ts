/**
 * Ask Agent About This, on a page, a comment, a question, a category of questions or a search
 * of the Readers view (or on the docs page in the editor): the composer opens, already holding
 * the page's path (in its repository and on the site), the readers' words quoted as reader text
 * (core/analytics/readerPrompt.ts), and a line for the author's instruction. Nothing is sent
 * until the author sends it. An unsent draft the author wrote in is kept: the reader text is
 * added at its end. A reader's contact is never part of it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { DraftAddress } from '../../core/agent/drafts';
import { repositoryPath } from '../../core/agent/prompt';
import { readerContextBlock, type ReaderContext, type ReaderItem } from '../../core/analytics/readerPrompt';
import { OPEN_STATUSES } from '../../core/analytics/analyticsTypes';
import { command, requireService, type Deps } from '../commandKit/commandToolkit';
import type { PageEntry } from '../readers/readersModel';
import { addToDraft } from './askAgent';
import { readerRow } from './readersRow';

/** Items of each kind a page's draft takes at most (the rest is counted). */
const PER_KIND = 8;

function fileOf(page: PageEntry | undefined): string | undefined {
  const uri = page?.uri;
  if (uri === undefined) return undefined;
  if (uri.scheme !== 'file') return vscode.workspace.asRelativePath(uri, false);
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  return repositoryPath(uri.fsPath, folders, (dir) => existsSync(join(dir, '.git')));
}

/** The page's own URL path (what its file serves), else the first path its signals came from. */
function urlPathOf(deps: Deps, page: PageEntry | undefined): string | undefined {
  if (page === undefined) return undefined;
  const at = page.uri === undefined ? undefined : deps.readers.sites.rootOf(page.uri);
  return (at === undefined ? undefined : at.root.site.pathOfFile(at.file)) ?? page.paths[0];
}

/** What a page's draft quotes: open comments first, then feedback on code blocks, then unanswered questions. */
function pageItems(page: PageEntry): { items: ReaderItem[]; more: number } {
  const s = page.signals;
  const comments = [...s.comments].sort((a, b) => Number(OPEN_STATUSES.includes(b.rawStatus)) - Number(OPEN_STATUSES.includes(a.rawStatus)));
  const lists: ReaderItem[][] = [comments.map((entry) => ({ kind: 'feedback', entry })), s.codeFeedback.map((entry) => ({ kind: 'feedback', entry })), s.unanswered.map((conversation) => ({ kind: 'question', conversation }))];
  return { items: lists.flatMap((l) => l.slice(0, PER_KIND)), more: lists.reduce((sum, l) => sum + Math.max(0, l.length - PER_KIND), 0) };
}

function contextOf(deps: Deps, node: unknown): ReaderContext {
  const tree = deps.readers.view.tree;
  if (node === undefined) {
    // From the palette or the editor: the docs page in the active editor.
    const uri = vscode.window.activeTextEditor?.document.uri;
    const page = uri === undefined ? undefined : deps.readers.model.pageOf(uri);
    if (page === undefined) throw new Error(vscode.l10n.t('Pick a page, a comment, a question or a search in the Readers view (or open a docs page that readers left feedback on).'));
    return withPage(deps, page, pageItems(page));
  }
  const row = readerRow(deps, node);
  switch (row.type) {
    case 'page': {
      const page = tree.page(row.key);
      if (page === undefined) break;
      if (row.group === 'questions') {
        return withPage(deps, page, { items: page.signals.unanswered.slice(0, PER_KIND).map((conversation) => ({ kind: 'question', conversation })), more: Math.max(0, page.signals.unanswered.length - PER_KIND) });
      }
      return withPage(deps, page, pageItems(page));
    }
    case 'feedback':
    case 'snippetLine': {
      const entry = tree.feedback(row.key, row.id);
      if (entry === undefined) break;
      return withPage(deps, tree.page(row.key), { items: [{ kind: 'feedback', entry }], more: 0 });
    }
    case 'question': {
      const conversation = tree.question(row.parent, row.id);
      if (conversation === undefined) break;
      return withPage(deps, row.parent.startsWith('category:') ? undefined : tree.page(row.parent), { items: [{ kind: 'question', conversation }], more: 0 });
    }
    case 'category': {
      const list = deps.readers.model.index()?.questionsByCategory.find(([c]) => c === row.category)?.[1] ?? [];
      return { items: list.slice(0, PER_KIND).map((conversation) => ({ kind: 'question', conversation })), more: Math.max(0, list.length - PER_KIND) };
    }
    case 'search': {
      const search = deps.readers.model.index()?.searches.find((s) => s.searchQuery === row.query);
      if (search === undefined) break;
      return { items: [{ kind: 'search', search }], more: 0 };
    }
    case 'group':
      throw new Error(vscode.l10n.t('Pick a page, a comment, a question or a search in the Readers view.'));
  }
  throw new Error(vscode.l10n.t('That row is no longer in the data: refresh the Readers view.'));
}

function withPage(deps: Deps, page: PageEntry | undefined, what: { items: ReaderItem[]; more: number }): ReaderContext {
  const file = fileOf(page);
  const urlPath = urlPathOf(deps, page);
  return { ...(file === undefined ? {} : { file }), ...(urlPath === undefined ? {} : { urlPath }), items: what.items, more: what.more };
}

export function register(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.readers.askAgent', deps, async (node?: unknown) => {
      requireService(deps);
      const context = readerContextBlock(contextOf(deps, node));
      const address: DraftAddress = { environmentId: deps.session.environment.id, request: { kind: 'create' } };
      const how = vscode.l10n.t('Send: Ctrl+Enter (Cmd+Enter on macOS) or "Send" above. Closing this tab sends nothing; the draft is kept. This line is not sent.');
      const opened = await deps.composer.open(address, `${vscode.l10n.t('Ask the agent about what readers said.')} ${how}`, context);
      // The author's unsent words stay; the reader text goes after them, and a notification says so.
      if (opened.continued && (await addToDraft(opened.editor, context))) void deps.messages.info(vscode.l10n.t('Your unsent draft is open again, and what readers wrote was added at its end: edit it, send it, or discard it.'));
      return opened.editor.document.uri;
    }),
  ];
}
