/**
 * A move that leaves no dead URL (issue 38 item 4), planned as plain data: given a page or a
 * folder and where it goes, the exact text edits of every link target that leads to what moves
 * (only the target: no other byte of any file changes; each link keeps its style: root-relative
 * or relative, with or without extension, `/index`, its query and fragment), the links of moved
 * files that their move would break, the `docs.json` navigation entries, the destinations of
 * existing redirects, and a redirect from each old URL to the new one. Moving a page moves its
 * localised copies too (`es/a.mdx` with `a.mdx`), each with its redirect. Edits name files by
 * their path before the move and spans of their current text: apply the edits, then the moves
 * (`applyEdits` does both, for tests and the CLI). Pure.
 */
import { applyEdits as applyJsonEdits, modify, type FormattingOptions } from 'jsonc-parser';
import { posix } from 'node:path';
import { urlOfPage } from './files';
import { LineIndex } from './lineIndex';
import type { SiteModel } from './model';
import { splitTarget } from './resolve';
import type { LinkFact, Span } from './siteTypes';

export interface TextEdit {
  /** The file, by its path before the move. */
  file: string;
  span: Span;
  newText: string;
}

export interface MovePlan {
  /** Files to rename, in order (a folder's files one by one). */
  moves: { from: string; to: string }[];
  /** Text edits, sorted by file and place; none overlap. */
  edits: TextEdit[];
  /** The redirects added (also among `edits`). */
  redirects: { source: string; destination: string }[];
}

const PAGE_EXTENSION = /\.mdx?$/i;

/** The files that move: a file, or every file under a folder; with the localised copies of each. */
function movesOf(model: SiteModel, from: string, to: string, locales: boolean): Map<string, string> {
  const moves = new Map<string, string>();
  const clean = (p: string) => p.replace(/\\/g, '/').replace(/^\.?\/+/, '').replace(/\/+$/, '');
  const source = clean(from);
  const target = clean(to);
  const prefixes = [''];
  const languages = model.config.languages.filter((l) => l !== '');
  if (locales && !languages.some((l) => source.startsWith(`${l}/`))) prefixes.push(...languages.map((l) => `${l}/`));
  for (const prefix of prefixes) {
    const old = `${prefix}${source}`;
    if (model.hasFile(old)) moves.set(old, `${prefix}${target}`);
    for (const file of model.allFiles()) if (file.startsWith(`${old}/`)) moves.set(file, `${prefix}${target}${file.slice(old.length)}`);
  }
  return moves;
}

/** A path written the way the original was: percent-encoded when it was. */
function written(path: string, original: string): string {
  return original.includes('%') ? encodeURI(path) : path;
}

/** `rel` from folder `from` (both absolute URL or file paths), as `./x` or `../x` when the original started so. */
function relativeFrom(fromFolder: string, to: string, dotted: boolean): string {
  let rel = posix.relative(fromFolder, to);
  if (rel === '') rel = posix.basename(to);
  return dotted && !rel.startsWith('../') ? `./${rel}` : rel;
}

/** The new text of a link target, in the style it was written, or undefined when it needs no change. */
function newTarget(link: LinkFact, sourceAfter: string, targetBefore: string, targetAfter: string, isPage: boolean): string | undefined {
  const { path, query, fragment } = splitTarget(link.target);
  const tail = `${query}${fragment === undefined ? '' : `#${fragment}`}`;
  if (link.via === 'snippetFile') return written(targetAfter.replace(/^snippets\//, ''), path) + tail;
  let next: string;
  if (link.via === 'import' || !isPage) {
    // A file by its path, with its extension.
    next = path.startsWith('/') ? `/${targetAfter}` : relativeFrom(`/${posix.dirname(sourceAfter)}`, `/${targetAfter}`, path.startsWith('./') || link.via === 'import');
  } else {
    const withExtension = PAGE_EXTENSION.test(path);
    const index = /\/index$/.test(path.replace(/\/$/, ''));
    let url = withExtension ? `/${targetAfter}` : index ? `/${targetAfter.replace(PAGE_EXTENSION, '')}` : urlOfPage(targetAfter);
    if (path.endsWith('/') && !url.endsWith('/')) url += '/';
    if (path.startsWith('/')) next = url;
    else if (path.startsWith('./') || path.startsWith('../')) next = relativeFrom(`/${posix.dirname(sourceAfter)}`, url, path.startsWith('./'));
    else {
      const pageUrl = urlOfPage(sourceAfter);
      next = relativeFrom(pageUrl === '/' ? '/' : posix.dirname(pageUrl), url, false);
    }
  }
  const result = written(next, path) + tail;
  return result === link.target && targetBefore === targetAfter ? undefined : result;
}

function linkEdits(model: SiteModel, moves: Map<string, string>): TextEdit[] {
  const edits: TextEdit[] = [];
  for (const file of model.parsedFiles()) {
    const sourceAfter = moves.get(file) ?? file;
    for (const link of model.factsOf(file)?.links ?? []) {
      if (splitTarget(link.target).path === '') continue;
      const resolved = model.resolveLink(file, link);
      // A link through a redirect keeps working: the redirect's destination is updated instead.
      if ((resolved.kind !== 'page' && resolved.kind !== 'file') || resolved.via.length > 0) continue;
      const targetAfter = moves.get(resolved.file);
      if (targetAfter === undefined && sourceAfter === file) continue;
      const text = newTarget(link, sourceAfter, resolved.file, targetAfter ?? resolved.file, resolved.kind === 'page');
      if (text !== undefined && text !== link.target) edits.push({ file, span: link.span, newText: text });
    }
  }
  return edits;
}

/** How a JSON file is indented (its first indented line), for the lines a move adds. */
function formatting(text: string): FormattingOptions {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  return indent.startsWith('\t') ? { insertSpaces: false, tabSize: 1, eol: '\n' } : { insertSpaces: true, tabSize: indent.length, eol: text.includes('\r\n') ? '\r\n' : '\n' };
}

/**
 * The redirects added after the last one, written as it is (one line, or one property a line at
 * its indentation); without a `redirects` array, one is added to docs.json (jsonc-parser).
 */
function redirectInsertion(config: SiteModel['config'], redirects: { source: string; destination: string }[]): TextEdit | undefined {
  const array = config.redirectsArray;
  const file = array?.file ?? 'docs.json';
  const text = config.files.get(file) ?? '';
  const options = formatting(text);
  if (array?.lastItem === undefined) {
    const path = array === undefined ? ['redirects'] : file === 'docs.json' ? ['redirects'] : [];
    return diffEdit(file, text, applyJsonEdits(text, modify(text, path, redirects, { formattingOptions: options })));
  }
  const last = array.lastItem;
  const lastText = text.slice(last.start.offset, last.end.offset);
  const eol = options.eol ?? '\n';
  const indent = text.slice(text.lastIndexOf('\n', last.start.offset - 1) + 1, last.start.offset).replace(/\S.*$/, '');
  // The last item's own inner indentation, when it spans lines.
  const inner = /\n([ \t]*)\S/.exec(lastText)?.[1];
  const unit = inner !== undefined && inner.startsWith(indent) && inner.length > indent.length ? inner.slice(indent.length) : options.insertSpaces === false ? '\t' : ' '.repeat(options.tabSize ?? 2);
  const item = (r: { source: string; destination: string }) =>
    lastText.includes('\n')
      ? JSON.stringify(r, null, unit).split('\n').join(`${eol}${indent}`)
      : `{ "source": ${JSON.stringify(r.source)}, "destination": ${JSON.stringify(r.destination)} }`;
  const added = redirects.map((r) => `,${eol}${indent}${item(r)}`).join('');
  return { file, span: { start: last.end, end: last.end }, newText: added };
}

/** One edit from `before` to `after` (the changed middle), with its span in `before`. */
function diffEdit(file: string, before: string, after: string): TextEdit | undefined {
  if (before === after) return undefined;
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  const lines = new LineIndex(before);
  return { file, span: { start: lines.position(start), end: lines.position(before.length - end) }, newText: after.slice(start, after.length - end) };
}

function configEdits(model: SiteModel, moves: Map<string, string>): { edits: TextEdit[]; redirects: { source: string; destination: string }[] } {
  const config = model.config;
  const edits: TextEdit[] = [];
  const urls = new Map<string, string>();
  for (const [from, to] of moves) if (model.urlOf(from) !== undefined) urls.set(urlOfPage(from), urlOfPage(to));
  for (const entry of config.pages) {
    if (entry.openapi) continue;
    const found = model.resolver.filesFor(`/${entry.page.replace(/^\/+/, '').replace(/\/+$/, '')}`);
    const to = found === undefined ? undefined : moves.get(found.file);
    if (to === undefined) continue;
    const next = `${entry.page.startsWith('/') ? '/' : ''}${to.replace(PAGE_EXTENSION, '')}`;
    edits.push({ file: entry.file, span: entry.span, newText: JSON.stringify(next) });
  }
  for (const redirect of config.redirects) {
    const { path, query, fragment } = splitTarget(redirect.destination);
    const moved = urls.get(path.length > 1 ? path.replace(/\/+$/, '') : path);
    if (moved !== undefined) edits.push({ file: redirect.file, span: redirect.destinationSpan, newText: JSON.stringify(`${moved}${query}${fragment === undefined ? '' : `#${fragment}`}`) });
  }
  const existing = new Set(config.redirects.map((r) => r.source));
  const redirects = [...urls].filter(([from, to]) => from !== to && !existing.has(from)).map(([source, destination]) => ({ source, destination }));
  if (redirects.length > 0) {
    const edit = redirectInsertion(config, redirects);
    if (edit !== undefined) edits.push(edit);
  }
  return { edits, redirects };
}

/** The plan of moving `from` (a page or a folder, relative to the docs root) to `to`. */
export function planMove(model: SiteModel, from: string, to: string, options: { locales?: boolean } = {}): MovePlan {
  const moves = movesOf(model, from, to, options.locales ?? true);
  const config = configEdits(model, moves);
  const edits = [...linkEdits(model, moves), ...config.edits].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.span.start.offset - b.span.start.offset));
  return { moves: [...moves].map(([f, t]) => ({ from: f, to: t })), edits, redirects: config.redirects };
}

/** The files after the plan: its edits applied (last first), then its moves. */
export function applyEdits(texts: ReadonlyMap<string, string>, plan: MovePlan): Map<string, string> {
  const out = new Map(texts);
  const byFile = new Map<string, TextEdit[]>();
  for (const edit of plan.edits) byFile.set(edit.file, [...(byFile.get(edit.file) ?? []), edit]);
  for (const [file, edits] of byFile) {
    let text = out.get(file) ?? '';
    for (const edit of [...edits].sort((a, b) => b.span.start.offset - a.span.start.offset)) text = text.slice(0, edit.span.start.offset) + edit.newText + text.slice(edit.span.end.offset);
    out.set(file, text);
  }
  for (const { from, to } of plan.moves) {
    const text = out.get(from);
    if (text === undefined) continue;
    out.delete(from);
    out.set(to, text);
  }
  return out;
}
