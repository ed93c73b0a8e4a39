/**
 * The Readers view: pages ranked by need (thumbs down, then open comments), each with its
 * comments (status, age, source), its feedback on code blocks (the block, its file name and
 * language) and its unanswered questions; the unanswered questions by page, or by category
 * when no page; the searches that found nothing useful; the paths no file serves. Rows are plain
 * data (nodes.ts); `getTreeItem` builds what they show. Reader text is shown as text only: one
 * line, made safe (`forMessage`), in labels, descriptions and plain-text tooltips, never in a
 * MarkdownString. A reader's contact shows only on the entry where the person revealed it.
 */
import * as vscode from 'vscode';
import { ageLabel, formatShare, sourceLabel, statusLabel } from '../../core/analytics/analyticsLabels';
import type { Unmatched } from '../../core/analytics/mapping';
import type { Conversation, FeedbackEntry } from '../../core/analytics/analyticsTypes';
import { forMessage } from '../../core/untrusted';
import type { PageEntry, ReadersModel } from './readersModel';
import { ReaderNodes, nodeId, type ReaderGroup, type ReaderNode } from './nodes';
import { signalsLine } from './signalsLine';

/** Rows under one page, at most (the page's tooltip gives the whole counts). */
const MAX_CHILDREN = 100;
const MAX_SNIPPET_LINES = 20;

/** Reader text for a label or description: one line, nothing clickable or invisible, cut. */
export function oneLine(text: string, max = 120): string {
  const safe = forMessage(text).replace(/\s+/g, ' ').trim();
  return safe.length > max ? `${safe.slice(0, max - 1)}…` : safe;
}

/** Reader text for a plain-text tooltip: its lines kept, each made safe. */
function block(text: string, maxLines = 30): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const kept = lines.slice(0, maxLines).map((l) => forMessage(l));
  return lines.length > maxLines ? [...kept, '…'].join('\n') : kept.join('\n');
}

export function unmatchedReason(match: Unmatched): string {
  switch (match.reason) {
    case 'noFile':
      return match.redirectedTo === undefined ? vscode.l10n.t('no file serves this path') : vscode.l10n.t('redirected to {0}, which no file serves', oneLine(match.redirectedTo));
    case 'ambiguous':
      return vscode.l10n.t('{0} files would serve it: not guessed', match.files.length);
    case 'external':
      return vscode.l10n.t('redirected off the site, to {0}', oneLine(match.redirectedTo));
    case 'redirectLoop':
      return vscode.l10n.t('its redirects go round in a loop');
    case 'invalid':
      return vscode.l10n.t('not a URL path');
  }
}

export class ReadersTreeProvider implements vscode.TreeDataProvider<ReaderNode>, vscode.Disposable {
  readonly nodes = new ReaderNodes();
  private readonly emitter = new vscode.EventEmitter<ReaderNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly model: ReadersModel,
    /** A row's tree item id made from its own: behind this installation's secret, so a link cannot name the row by its handle. */
    private readonly itemId: (id: string) => string = (id) => id,
  ) {
    this.subscription = model.onDidChange(() => this.emitter.fire(undefined));
  }

  refresh(node?: ReaderNode): void {
    this.emitter.fire(node);
  }

  getChildren(node?: ReaderNode): ReaderNode[] {
    const index = this.model.index();
    if (index === undefined || !this.model.settings.enabled) return [];
    const n = this.nodes;
    if (node === undefined) {
      const groups: ReaderGroup[] = ['pages', 'questions', 'searches'];
      if (index.unmatched.length > 0) groups.push('unmatched');
      return groups.map((group) => n.get({ type: 'group', group }));
    }
    switch (node.type) {
      case 'group':
        switch (node.group) {
          case 'pages':
            return index.pages.map((p) => n.get({ type: 'page', key: p.key, group: 'pages' }));
          case 'unmatched':
            return index.unmatched.map((p) => n.get({ type: 'page', key: p.key, group: 'unmatched' }));
          case 'questions':
            return [
              ...[...index.pages, ...index.unmatched].filter((p) => p.signals.unanswered.length > 0).map((p) => n.get({ type: 'page', key: p.key, group: 'questions' })),
              ...index.questionsByCategory.map(([category]) => n.get({ type: 'category', category })),
            ];
          case 'searches':
            return index.searches.map((s) => n.get({ type: 'search', query: s.searchQuery }));
        }
        return [];
      case 'page': {
        const page = index.byKey.get(node.key);
        if (page === undefined) return [];
        const questions = page.signals.unanswered.slice(0, MAX_CHILDREN).map((c) => n.get({ type: 'question', parent: page.key, id: c.id, group: node.group }));
        if (node.group === 'questions') return questions;
        return [
          ...page.signals.comments.slice(0, MAX_CHILDREN).map((f) => n.get({ type: 'feedback', key: page.key, id: f.id, group: node.group })),
          ...page.signals.codeFeedback.slice(0, MAX_CHILDREN).map((f) => n.get({ type: 'feedback', key: page.key, id: f.id, group: node.group })),
          ...questions,
        ];
      }
      case 'feedback': {
        const entry = this.feedback(node.key, node.id);
        if (entry?.shape !== 'code') return [];
        return entry.code.split('\n').slice(0, MAX_SNIPPET_LINES).map((_, line) => n.get({ type: 'snippetLine', key: node.key, id: node.id, line, group: node.group }));
      }
      case 'category':
        return (index.questionsByCategory.find(([c]) => c === node.category)?.[1] ?? []).slice(0, MAX_CHILDREN).map((c) => n.get({ type: 'question', parent: `category:${node.category ?? ''}`, id: c.id, group: 'questions' }));
      default:
        return [];
    }
  }

  getParent(node: ReaderNode): ReaderNode | undefined {
    const n = this.nodes;
    switch (node.type) {
      case 'page':
        return n.get({ type: 'group', group: node.group });
      case 'feedback':
        return n.get({ type: 'page', key: node.key, group: node.group });
      case 'snippetLine':
        return n.get({ type: 'feedback', key: node.key, id: node.id, group: node.group });
      case 'question':
        return node.parent.startsWith('category:') ? n.get({ type: 'category', category: node.parent.slice('category:'.length) || undefined }) : n.get({ type: 'page', key: node.parent, group: node.group });
      case 'category':
        return n.get({ type: 'group', group: 'questions' });
      case 'search':
        return n.get({ type: 'group', group: 'searches' });
      default:
        return undefined;
    }
  }

  /** The page a row is about (a page, a feedback entry, a question asked on a page). */
  page(key: string): PageEntry | undefined {
    return this.model.index()?.byKey.get(key);
  }

  feedback(key: string, id: string): FeedbackEntry | undefined {
    const page = this.page(key);
    return page?.signals.comments.find((f) => f.id === id) ?? page?.signals.codeFeedback.find((f) => f.id === id);
  }

  question(parent: string, id: string): Conversation | undefined {
    if (parent.startsWith('category:')) {
      const category = parent.slice('category:'.length) || undefined;
      return this.model.index()?.questionsByCategory.find(([c]) => c === category)?.[1].find((c) => c.id === id);
    }
    return this.page(parent)?.signals.unanswered.find((c) => c.id === id);
  }

  getTreeItem(node: ReaderNode): vscode.TreeItem {
    const item = this.build(node);
    item.id = this.itemId(nodeId(node));
    return item;
  }

  private build(node: ReaderNode): vscode.TreeItem {
    const index = this.model.index();
    const now = Date.now();
    const None = vscode.TreeItemCollapsibleState.None;
    const Collapsed = vscode.TreeItemCollapsibleState.Collapsed;
    switch (node.type) {
      case 'group': {
        const count = index === undefined ? 0 : { pages: index.pages.length, unmatched: index.unmatched.length, searches: index.searches.length, questions: [...index.pages, ...index.unmatched].reduce((sum, p) => sum + p.signals.unanswered.length, 0) + index.questionsByCategory.reduce((sum, [, list]) => sum + list.length, 0) }[node.group];
        const titles = { pages: vscode.l10n.t('Pages'), questions: vscode.l10n.t('Unanswered questions'), searches: vscode.l10n.t('Searches that found nothing useful'), unmatched: vscode.l10n.t('Paths no file serves') };
        const item = new vscode.TreeItem(titles[node.group], node.group === 'pages' ? vscode.TreeItemCollapsibleState.Expanded : Collapsed);
        item.description = String(count);
        item.iconPath = new vscode.ThemeIcon({ pages: 'file', questions: 'question', searches: 'search', unmatched: 'warning' }[node.group]);
        item.contextValue = `readers.group.${node.group}`;
        if (node.group === 'searches') item.tooltip = vscode.l10n.t('Searches with no clicked result, or a click-through rate under {0} (docsAdmin.readers.lowClickThroughPercent)', formatShare(this.model.settings.lowClickThrough));
        if (node.group === 'pages') item.tooltip = vscode.l10n.t('Ranked by thumbs down, then open comments, then unanswered questions');
        return item;
      }
      case 'page': {
        const page = index?.byKey.get(node.key);
        if (page === undefined) return new vscode.TreeItem(vscode.l10n.t('(no longer in the data)'), None);
        const label = page.uri === undefined ? oneLine(page.label) : page.label;
        const item = new vscode.TreeItem(label, node.group === 'questions' ? Collapsed : Collapsed);
        item.description = node.group === 'unmatched' && page.unmatched !== undefined ? unmatchedReason(page.unmatched) : (signalsLine(page.signals, 'row') ?? '');
        if (page.uri !== undefined) item.resourceUri = page.uri;
        item.iconPath = page.uri === undefined ? new vscode.ThemeIcon('link') : vscode.ThemeIcon.File;
        item.contextValue = page.uri === undefined ? 'readers.page.unmatched' : 'readers.page.file';
        item.tooltip = [label, ...page.paths.map((p) => vscode.l10n.t('On the site: {0}', oneLine(p))), signalsLine(page.signals, 'row') ?? ''].filter((l) => l !== '').join('\n');
        return item;
      }
      case 'feedback': {
        const f = this.feedback(node.key, node.id);
        if (f === undefined) return new vscode.TreeItem(vscode.l10n.t('(no longer in the data)'), None);
        const words = f.comment !== null && f.comment.trim() !== '' ? oneLine(f.comment) : vscode.l10n.t('(no words)');
        const item = new vscode.TreeItem(words, f.shape === 'code' ? Collapsed : None);
        const revealed = f.shape === 'contextual' && f.contact !== undefined && this.model.revealed.has(f.id) ? f.contact.reveal() : undefined;
        const facts = [
          f.shape === 'code' ? [f.filename, f.lang].filter((x): x is string => x !== null && x.trim() !== '').map((x) => oneLine(x, 40)).join(' · ') : '',
          statusLabel(f),
          ageLabel(f.createdAt, now) ?? '',
          sourceLabel(f),
          revealed === undefined ? '' : oneLine(revealed, 80),
        ].filter((x) => x !== '');
        item.description = facts.join(' · ');
        item.iconPath = new vscode.ThemeIcon(f.shape === 'code' ? 'code' : f.source === 'agent' ? 'hubot' : f.shape === 'contextual' && f.helpful === true ? 'thumbsup' : f.shape === 'contextual' && f.helpful === false ? 'thumbsdown' : 'comment');
        const hasContact = f.shape === 'contextual' && f.contact !== undefined;
        item.contextValue = `readers.feedback.${f.shape}${hasContact ? (revealed === undefined ? '.hasContact' : '.contactShown') : ''}`;
        const tooltip = [f.comment === null ? vscode.l10n.t('(no words)') : block(f.comment), '', facts.join(' · ')];
        if (f.shape === 'code') tooltip.push('', vscode.l10n.t('The code block:'), block(f.code, 40));
        if (hasContact) tooltip.push('', revealed === undefined ? vscode.l10n.t('The reader left a contact address: Reveal Reader\'s Email shows it here.') : vscode.l10n.t('Contact: {0}', oneLine(revealed, 200)));
        item.tooltip = tooltip.join('\n');
        return item;
      }
      case 'snippetLine': {
        const f = this.feedback(node.key, node.id);
        const line = f?.shape === 'code' ? (f.code.split('\n')[node.line] ?? '') : '';
        const item = new vscode.TreeItem(oneLine(line === '' ? ' ' : line, 160), None);
        item.contextValue = 'readers.snippetLine';
        return item;
      }
      case 'question': {
        const c = this.question(node.parent, node.id);
        if (c === undefined) return new vscode.TreeItem(vscode.l10n.t('(no longer in the data)'), None);
        const item = new vscode.TreeItem(oneLine(c.query), None);
        item.description = [ageLabel(c.timestamp, now), c.queryCategory === null ? undefined : oneLine(c.queryCategory, 40)].filter((x): x is string => x !== undefined && x !== '').join(' · ');
        item.iconPath = new vscode.ThemeIcon('question');
        item.contextValue = 'readers.question';
        item.tooltip = [block(c.query), '', vscode.l10n.t('The assistant answered:'), block(c.response, 10), ...(c.pageUrl === null ? [] : ['', vscode.l10n.t('Asked on {0}', oneLine(c.pageUrl, 200))])].join('\n');
        return item;
      }
      case 'category': {
        const list = index?.questionsByCategory.find(([c]) => c === node.category)?.[1] ?? [];
        const item = new vscode.TreeItem(node.category === undefined ? vscode.l10n.t('No page, no category') : oneLine(node.category, 60), Collapsed);
        item.description = node.category === undefined ? String(list.length) : vscode.l10n.t('{0} · no page', list.length);
        item.iconPath = new vscode.ThemeIcon('tag');
        item.contextValue = 'readers.category';
        return item;
      }
      case 'search': {
        const s = index?.searches.find((x) => x.searchQuery === node.query);
        if (s === undefined) return new vscode.TreeItem(vscode.l10n.t('(no longer in the data)'), None);
        const item = new vscode.TreeItem(oneLine(s.searchQuery), None);
        const clicked = s.topClickedPage === null || s.topClickedPage.trim() === '' ? vscode.l10n.t('no result clicked') : vscode.l10n.t('{0} clicked', formatShare(s.ctr));
        item.description = `${s.hits === 1 ? vscode.l10n.t('1 search') : vscode.l10n.t('{0} searches', s.hits)} · ${clicked}`;
        item.iconPath = new vscode.ThemeIcon('search');
        item.contextValue = 'readers.search';
        item.tooltip = [oneLine(s.searchQuery, 300), item.description, ...(s.topClickedPage === null ? [] : [vscode.l10n.t('Most clicked: {0}', oneLine(s.topClickedPage, 200))])].join('\n');
        return item;
      }
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}
