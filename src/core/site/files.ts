/**
 * What each file of a docs root is to the platform (its `getFileCategory` and `.mintignore`
 * rules, RULES.md): a page (`.mdx`, and `.md` but `README`, `LICENSE`, `CONTRIBUTING` and
 * `CONTRIBUTE`), a snippet (`.mdx`, `.md`, `.jsx`, `.tsx` under `snippets/` or `_snippets/`, or
 * a page file another file imports), the configuration, or any other file (served as it is:
 * images, OpenAPI documents). Ignored files (`.git`, `node_modules`, the `.mintignore` patterns…)
 * are not part of the site at all. Pure.
 */
import ignore, { type Ignore } from 'ignore';

/** The platform's own ignores, always applied (`DEFAULT_MINT_IGNORES` of @mintlify/common, ISC). */
const DEFAULT_IGNORES = [
  '.git', '.github', '.claude', '.agents', '.idea', '.vscode', '.cursor', '.mintlify/**', '!.mintlify/**/', '!.mintlify/skills/**', '!.mintlify/**/*.json',
  '!.mintlify/**/*.yaml', '!.mintlify/**/*.yml', 'node_modules', 'README.md', 'LICENSE.md', 'CHANGELOG.md', 'CONTRIBUTING.md',
];

const NOT_PAGES = new Set(['readme', 'license', 'contributing', 'contribute']);

export type FileKind = 'page' | 'snippet' | 'config' | 'skill' | 'file';

export class FileRules {
  private readonly matcher: Ignore;

  /** `mintIgnore`: the text of the root's `.mintignore`, when it has one. */
  constructor(mintIgnore = '') {
    this.matcher = ignore().add([...DEFAULT_IGNORES, ...mintIgnore.split(/\r?\n/).map((line) => line.trim())]);
  }

  /** Whether the platform leaves this path (relative, forward slashes) out of the site; `directory` for a folder. */
  ignored(path: string, directory = false): boolean {
    const clean = path.replace(/^\.\//, '').replace(/\/+$/, '');
    if (clean === '') return false;
    return this.matcher.ignores(directory ? `${clean}/` : clean);
  }
}

/** What a (not ignored) file is, before imports are known: an imported page file is a snippet too (see SiteModel). */
export function kindOf(path: string): FileKind {
  const lower = path.toLowerCase();
  const base = lower.slice(lower.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  const extension = dot === -1 ? '' : base.slice(dot);
  const name = dot === -1 ? base : base.slice(0, dot);
  if (lower === 'docs.json') return 'config';
  if (lower === 'skill.md' || (lower.startsWith('.mintlify/skills/') && base === 'skill.md')) return 'skill';
  if ((lower.startsWith('snippets/') || lower.startsWith('_snippets/')) && ['.mdx', '.md', '.jsx', '.tsx'].includes(extension)) return 'snippet';
  if (extension === '.mdx') return 'page';
  if (extension === '.md') return NOT_PAGES.has(name) ? 'file' : 'page';
  if (extension === '.jsx' || extension === '.tsx') return 'snippet';
  return 'file';
}

/** Whether the parser reads this file (pages and snippets written in Markdown or MDX). */
export function isParsed(path: string): boolean {
  const kind = kindOf(path);
  return (kind === 'page' || kind === 'snippet') && /\.mdx?$/i.test(path);
}

/** The URL path a page file is served at: `guides/setup.mdx` -> `/guides/setup`, `guides/index.mdx` -> `/guides`. */
export function urlOfPage(path: string): string {
  const bare = path.replace(/\.mdx?$/i, '');
  if (bare === 'index') return '/';
  return `/${bare.endsWith('/index') ? bare.slice(0, -'/index'.length) : bare}`;
}
