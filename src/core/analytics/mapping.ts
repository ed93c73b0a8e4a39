/**
 * A page's URL path and its source file, exactly, as the platform builds the site: a page's path
 * is its file's path without the `.md` / `.mdx` extension, relative to the docs root (the folder
 * holding `docs.json`); an `index` file serves its folder (`guides/index.mdx` is `/guides`,
 * `index.mdx` is `/`); `docs.json` redirects send old paths to current ones (checked before the
 * files, as the site does: a redirect's source is never served); localised and versioned copies
 * are folders of their own (`/es/quickstart` is `es/quickstart.mdx`, never `quickstart.mdx`).
 * A path that matches no file, or more than one, is unmatched, with the reason, never guessed.
 * Pure: the editor lists the files and reads `docs.json`.
 */
import type { DocsConfig } from './docsJson';
import { Redirects } from '../site/redirects';
import { normalizeUrlPath } from '../site/urlPath';

export type Unmatched =
  | { kind: 'unmatched'; reason: 'noFile'; path: string; redirectedTo?: string }
  /** More than one file would serve it (`a.md` and `a.mdx`, or `a.mdx` and `a/index.mdx`). */
  | { kind: 'unmatched'; reason: 'ambiguous'; path: string; files: string[]; redirectedTo?: string }
  /** A redirect sends it off the site. */
  | { kind: 'unmatched'; reason: 'external'; path: string; redirectedTo: string }
  | { kind: 'unmatched'; reason: 'redirectLoop'; path: string }
  /** Not a URL path at all. */
  | { kind: 'unmatched'; reason: 'invalid'; path: string };

export interface Matched {
  kind: 'page';
  /** The file, relative to the docs root, with forward slashes. */
  file: string;
  /** The path asked about (normalised). */
  path: string;
  /** The current path it was redirected to, when a redirect took it there. */
  redirectedTo?: string;
  /** The localised or versioned copy the file belongs to (`es`, `v1`), when it does. */
  copy?: string;
}

export type PathMatch = Matched | Unmatched;

const PAGE = /\.(mdx|md)$/i;
const MAX_HOPS = 10;

export class DocsSite {
  private readonly files: Set<string>;
  private readonly redirects: Redirects;
  private readonly copies: string[];
  private readonly memo = new Map<string, PathMatch>();

  /**
   * `files`: the site's files, relative to the docs root, forward slashes (only `.md` and `.mdx`
   * count; `docs.json` and the rest are ignored).
   */
  constructor(files: Iterable<string>, private readonly config: DocsConfig) {
    this.files = new Set([...files].map((f) => f.replace(/\\/g, '/').replace(/^\.?\//, '')).filter((f) => PAGE.test(f)));
    this.redirects = new Redirects(config.redirects);
    this.copies = [...config.languages, ...config.versions];
  }

  get pageCount(): number {
    return this.files.size;
  }

  /** The URL path a file of the site serves (`guides/index.mdx` -> `/guides`); undefined for a file that is not a page. */
  pathOfFile(file: string): string | undefined {
    const rel = file.replace(/\\/g, '/').replace(/^\.?\//, '');
    if (!this.files.has(rel)) return undefined;
    const bare = rel.replace(PAGE, '');
    const path = bare === 'index' ? '' : bare.endsWith('/index') ? bare.slice(0, -'/index'.length) : bare;
    return `/${path}`;
  }

  /** The file a URL path (or a whole URL) is served from, or why none is. Memoised. */
  resolve(input: string): PathMatch {
    const known = this.memo.get(input);
    if (known !== undefined) return known;
    const path = normalizeUrlPath(input);
    const result: PathMatch = path === undefined ? { kind: 'unmatched', reason: 'invalid', path: input } : this.follow(path);
    this.memo.set(input, result);
    return result;
  }

  private follow(start: string): PathMatch {
    let path = start;
    const seen = new Set<string>();
    for (let hop = 0; hop <= MAX_HOPS; hop++) {
      const redirectedTo = path === start ? {} : { redirectedTo: path };
      const destination = this.redirects.destinationOf(path);
      if (destination === undefined) {
        const found = this.filesFor(path);
        if (found.length === 1) return { kind: 'page', file: found[0]!, path: start, ...redirectedTo, ...this.copyOf(found[0]!) };
        if (found.length > 1) return { kind: 'unmatched', reason: 'ambiguous', path: start, files: found, ...redirectedTo };
        return { kind: 'unmatched', reason: 'noFile', path: start, ...redirectedTo };
      }
      seen.add(path);
      if (/^[a-z][a-z0-9+.-]*:/i.test(destination) && !destination.startsWith('/')) return { kind: 'unmatched', reason: 'external', path: start, redirectedTo: destination };
      const next = normalizeUrlPath(destination.split(/[?#]/)[0] ?? '');
      if (next === undefined) return { kind: 'unmatched', reason: 'invalid', path: start };
      if (seen.has(next)) return { kind: 'unmatched', reason: 'redirectLoop', path: start };
      path = next;
    }
    return { kind: 'unmatched', reason: 'redirectLoop', path: start };
  }

  /** The files that would serve `path`. */
  private filesFor(path: string): string[] {
    const rel = path.slice(1);
    const candidates = rel === '' ? ['index.mdx', 'index.md'] : [`${rel}.mdx`, `${rel}.md`, `${rel}/index.mdx`, `${rel}/index.md`];
    return candidates.filter((c) => this.files.has(c));
  }

  private copyOf(file: string): { copy?: string } {
    const first = file.split('/')[0] ?? '';
    return file.includes('/') && this.copies.includes(first) ? { copy: first } : {};
  }

  /** How many redirects `docs.json` declares (for the view's tooltip). */
  get redirectCount(): number {
    return this.redirects.size;
  }

  /** The folders of localised and versioned copies `docs.json` declares. */
  get copyFolders(): readonly string[] {
    return this.copies;
  }

  get configuration(): DocsConfig {
    return this.config;
  }
}
