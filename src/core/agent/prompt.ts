/**
 * What a prompt composer starts with, and what of it is sent: the page's path relative to its
 * repository's root, the selected lines with their numbers, and a header that explains how to
 * send (never sent). Pure: the editor supplies the file system answers.
 */
import * as path from 'node:path';

/** Marks the composer's header comment: the first line of a draft, stripped before sending. */
export const COMPOSER_MARKER = 'docs-admin:composer';

export interface PromptSelection {
  /** 1-based number of the first selected line. */
  startLine: number;
  lines: string[];
}

export interface PromptContext {
  /** The page, relative to its repository's root (forward slashes). */
  path?: string;
  selection?: PromptSelection;
}

/** The header a draft opens with: one HTML comment, which Markdown previews do not show. */
export function composerHeader(explanation: string): string {
  return `<!-- ${COMPOSER_MARKER} ${explanation.replace(/-->/g, '- ->')} -->\n`;
}

/** The context block the agent needs, as text a person can edit. */
export function contextBlock(context: PromptContext, labels: { page: (path: string) => string; lines: (from: number, to: number) => string }): string {
  const parts: string[] = [];
  if (context.path !== undefined) parts.push(labels.page(context.path));
  const selection = context.selection;
  if (selection !== undefined && selection.lines.length > 0) {
    const last = selection.startLine + selection.lines.length - 1;
    const width = String(last).length;
    parts.push(labels.lines(selection.startLine, last));
    parts.push(selection.lines.map((line, i) => `${String(selection.startLine + i).padStart(width)} | ${line}`).join('\n'));
  }
  return parts.join('\n');
}

/** A new draft: the header, the context, and room for the request. */
export function newDraft(header: string, context: string): string {
  return `${header}\n${context === '' ? '' : `${context}\n\n`}`;
}

/**
 * The prompt a draft holds: without the composer's header (and the blank lines after it), and
 * otherwise unchanged.
 */
export function promptFromDraft(text: string): string {
  const match = /^\uFEFF?[ \t]*<!--[ \t]*docs-admin:composer[\s\S]*?-->[ \t]*(\r?\n)*/.exec(text);
  return match === null ? text : text.slice(match[0].length);
}

/**
 * `file` relative to the root of its repository: the nearest folder above it that holds `.git`
 * (a folder, or a file for a worktree or submodule), else the workspace folder that holds it,
 * else its own name. Always with forward slashes.
 */
export function repositoryPath(file: string, workspaceFolders: readonly string[], isRepositoryRoot: (dir: string) => boolean, p: path.PlatformPath = path): string {
  const resolved = p.resolve(file);
  let dir = p.dirname(resolved);
  for (;;) {
    if (isRepositoryRoot(dir)) return toSlashes(p.relative(dir, resolved), p);
    const parent = p.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  const folder = workspaceFolders
    .map((f) => p.resolve(f))
    .filter((f) => {
      const rel = p.relative(f, resolved);
      return rel !== '' && !rel.startsWith('..') && !p.isAbsolute(rel);
    })
    .sort((a, b) => b.length - a.length)[0];
  return toSlashes(folder === undefined ? p.basename(resolved) : p.relative(folder, resolved), p);
}

function toSlashes(relative: string, p: path.PlatformPath): string {
  return p.sep === '\\' ? relative.split('\\').join('/') : relative;
}
