/**
 * The site's analytics arranged for the author: per URL path (normalised), what readers said and
 * did there; then per source file, through the mapping (a redirected old path counts for the file
 * it now reaches); the unanswered questions without a page, by category; the searches that found
 * nothing useful; the paths that match no file. Pure.
 */
import type { DocsSite, PathMatch } from './mapping';
import type { SiteAnalytics } from './site';
import { OPEN_STATUSES, type CodeFeedback, type Conversation, type FeedbackEntry, type SearchRow } from './analyticsTypes';
import { normalizeUrlPath } from '../site/urlPath';

export interface Signals {
  thumbsUp: number;
  thumbsDown: number;
  /** Feedback with words in it (page comments, agents'), newest first. */
  comments: FeedbackEntry[];
  /** Comments still pending or in progress. */
  openComments: number;
  codeFeedback: CodeFeedback[];
  /** Questions the assistant could not answer, asked on this page, newest first. */
  unanswered: Conversation[];
  views: { human: number; ai: number; total: number } | undefined;
}

export interface PathSignals extends Signals {
  path: string;
}

export interface FileSignals extends Signals {
  file: string;
  /** The URL paths whose signals are here (the page's own, and old ones redirected to it). */
  paths: string[];
}

export interface UnmatchedPath {
  match: Exclude<PathMatch, { kind: 'page' }>;
  signals: PathSignals;
}

function empty(): Signals {
  return { thumbsUp: 0, thumbsDown: 0, comments: [], openComments: 0, codeFeedback: [], unanswered: [], views: undefined };
}

/** Newest first, by ISO date (plain comparison: ISO 8601 in UTC sorts as text). */
const newest = (a: string | null, b: string | null) => {
  const x = a ?? '';
  const y = b ?? '';
  return x < y ? 1 : x > y ? -1 : 0;
};

/** Whether the signals hold anything worth a line (a page without data shows nothing). */
export function hasSignals(s: Signals): boolean {
  return s.thumbsUp + s.thumbsDown > 0 || s.comments.length > 0 || s.codeFeedback.length > 0 || s.unanswered.length > 0 || (s.views?.total ?? 0) > 0;
}

/** Per normalised path. Thumbs from the per-page counts where the server gave them, else counted from the entries. */
export function signalsByPath(site: SiteAnalytics): Map<string, PathSignals> {
  const paths = new Map<string, PathSignals>();
  // Many entries share a path (or a page URL): each is normalised once.
  const normal = new Map<string, string | undefined>();
  const at = (raw: string): PathSignals | undefined => {
    let path = normal.get(raw);
    if (path === undefined && !normal.has(raw)) normal.set(raw, (path = normalizeUrlPath(raw) ?? (raw.trim() === '' ? undefined : raw.trim())));
    if (path === undefined) return undefined;
    let s = paths.get(path);
    if (s === undefined) paths.set(path, (s = { path, ...empty() }));
    return s;
  };
  const counted = new Set<string>();
  for (const row of site.byPage) {
    const s = at(row.path);
    if (s === undefined) continue;
    s.thumbsUp += row.thumbsUp;
    s.thumbsDown += row.thumbsDown;
    counted.add(s.path);
  }
  for (const entry of site.feedback) {
    const s = at(entry.path);
    if (s === undefined) continue;
    if (entry.shape === 'contextual' && !counted.has(s.path) && entry.helpful !== undefined) {
      if (entry.helpful) s.thumbsUp++;
      else s.thumbsDown++;
    }
    if (entry.shape === 'code') s.codeFeedback.push(entry);
    else if (entry.comment !== null && entry.comment.trim() !== '') {
      s.comments.push(entry);
      if (OPEN_STATUSES.includes(entry.rawStatus)) s.openComments++;
    }
  }
  for (const c of site.conversations) {
    if (c.resolutionStatus !== 'unanswered' || c.pageUrl === null) continue;
    at(c.pageUrl)?.unanswered.push(c);
  }
  for (const row of site.views) {
    const s = at(row.path);
    if (s === undefined) continue;
    s.views = { human: (s.views?.human ?? 0) + row.human, ai: (s.views?.ai ?? 0) + row.ai, total: (s.views?.total ?? 0) + row.total };
  }
  for (const s of paths.values()) {
    s.comments.sort((a, b) => newest(a.createdAt, b.createdAt));
    s.codeFeedback.sort((a, b) => newest(a.createdAt, b.createdAt));
    s.unanswered.sort((a, b) => newest(a.timestamp, b.timestamp));
  }
  return paths;
}

function merge(into: Signals, from: Signals): void {
  into.thumbsUp += from.thumbsUp;
  into.thumbsDown += from.thumbsDown;
  into.comments.push(...from.comments);
  into.openComments += from.openComments;
  into.codeFeedback.push(...from.codeFeedback);
  into.unanswered.push(...from.unanswered);
  if (from.views !== undefined) into.views = { human: (into.views?.human ?? 0) + from.views.human, ai: (into.views?.ai ?? 0) + from.views.ai, total: (into.views?.total ?? 0) + from.views.total };
}

export interface SiteIndex {
  /** By file (relative to the docs root); only files with signals. */
  files: Map<string, FileSignals>;
  unmatched: UnmatchedPath[];
}

/**
 * Signals per file through the mapping (a `DocsSite`, or a function that resolves a path the
 * same way, across several docs roots say: `file` is then whatever key it gives); paths that
 * match no file are kept apart with the reason.
 */
export function signalsByFile(byPath: Map<string, PathSignals>, site: DocsSite | ((path: string) => PathMatch)): SiteIndex {
  const resolve = typeof site === 'function' ? site : (path: string) => site.resolve(path);
  const files = new Map<string, FileSignals>();
  const unmatched: UnmatchedPath[] = [];
  for (const s of byPath.values()) {
    const match = resolve(s.path);
    if (match.kind !== 'page') {
      unmatched.push({ match, signals: s });
      continue;
    }
    let f = files.get(match.file);
    if (f === undefined) files.set(match.file, (f = { file: match.file, paths: [], ...empty() }));
    f.paths.push(s.path);
    merge(f, s);
  }
  for (const f of files.values()) {
    f.comments.sort((a, b) => newest(a.createdAt, b.createdAt));
    f.unanswered.sort((a, b) => newest(a.timestamp, b.timestamp));
  }
  return { files, unmatched };
}

/** Pages ranked by what needs the author most: thumbs down, then open comments, then unanswered questions, then views. */
export function compareByNeed(a: Signals, b: Signals): number {
  return b.thumbsDown - a.thumbsDown || b.openComments - a.openComments || b.unanswered.length - a.unanswered.length || (b.views?.total ?? 0) - (a.views?.total ?? 0);
}

/** Unanswered questions asked on no known page, by category (`undefined`: no category either). */
export function unansweredWithoutPage(site: SiteAnalytics): Map<string | undefined, Conversation[]> {
  const groups = new Map<string | undefined, Conversation[]>();
  for (const c of site.conversations) {
    if (c.resolutionStatus !== 'unanswered' || (c.pageUrl !== null && normalizeUrlPath(c.pageUrl) !== undefined)) continue;
    const key = c.queryCategory?.trim() || undefined;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  return groups;
}

/** Searches that found nothing useful: no clicked page, or a click-through rate under `threshold` (0 to 1); most searched first. */
export function unhelpfulSearches(searches: readonly SearchRow[], threshold: number): SearchRow[] {
  return searches.filter((s) => s.topClickedPage === null || s.topClickedPage.trim() === '' || s.ctr < threshold).sort((a, b) => b.hits - a.hits);
}
