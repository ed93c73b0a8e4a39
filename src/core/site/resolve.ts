/**
 * Where a link target leads, by the platform's rules and the browser's (RULES.md):
 * - a scheme (`https:`, `mailto:`) or `//host` is external: not checked;
 * - `/a/b` is from the docs root; `./a` and `../a` from the folder of the file that writes it
 *   (the platform rewrites them so); a bare `a` from the page's URL, as a browser resolves it
 *   (`a` on `/guides/setup` is `/guides/a`, on `/guides`, which `guides/index.mdx` serves, `/a`);
 * - the query is dropped, the path percent-decoded, a trailing `/` ignored; case counts;
 * - `docs.json` redirects apply before files (a redirect's source is never served), followed to
 *   the end; then a page file serves the path (`a.mdx`, `a.md`, `a/index.mdx`, `a/index.md`), or
 *   any other file of the site (an image, `/openapi.json`), or a page file named with its
 *   extension (`/a.mdx`).
 * Pure; memoised per path.
 */
import { posix } from 'node:path';
import { Redirects } from './redirects';

export type Resolution =
  | { kind: 'external' }
  /** Not checked: a target the rules above cannot place (an expression, a snippet's relative link). */
  | { kind: 'unchecked' }
  /** A page (`file`), after the redirects named in `via` (in order), with the fragment to look for. */
  | { kind: 'page'; file: string; path: string; fragment?: string; via: string[] }
  /** Any other file of the site. */
  | { kind: 'file'; file: string; path: string; via: string[] }
  /** A redirect leaves the site. */
  | { kind: 'offsite'; url: string; via: string[] }
  | { kind: 'missing'; path: string; via: string[]; loop?: boolean };

const MAX_HOPS = 16;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

export interface SiteIndex {
  /** Every file of the site (relative, forward slashes). */
  hasFile(file: string): boolean;
  isPage(file: string): boolean;
}

export function splitTarget(target: string): { path: string; query: string; fragment: string | undefined } {
  const hash = target.indexOf('#');
  const beforeHash = hash === -1 ? target : target.slice(0, hash);
  const fragment = hash === -1 ? undefined : target.slice(hash + 1);
  const q = beforeHash.indexOf('?');
  return { path: q === -1 ? beforeHash : beforeHash.slice(0, q), query: q === -1 ? '' : beforeHash.slice(q), fragment };
}

function decodeSegments(path: string): string {
  return path
    .split('/')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    })
    .join('/');
}

/** A URL path in one form: leading `/`, no trailing `/`, no empty or dot segments. */
export function normalPath(path: string): string {
  const joined = posix.normalize(`/${path}`);
  const trimmed = joined.length > 1 && joined.endsWith('/') ? joined.slice(0, -1) : joined;
  return trimmed === '' ? '/' : trimmed;
}

export class Resolver {
  private readonly redirects: Redirects;
  private readonly memo = new Map<string, Resolution>();

  constructor(
    private readonly site: SiteIndex,
    redirects: readonly { source: string; destination: string }[],
  ) {
    this.redirects = new Redirects(redirects);
  }

  /** The files that would serve a URL path, before redirects: page files first. */
  filesFor(path: string): { file: string; page: boolean } | undefined {
    const rel = path.slice(1);
    const pages = rel === '' ? ['index.mdx', 'index.md'] : [`${rel}.mdx`, `${rel}.md`, `${rel}/index.mdx`, `${rel}/index.md`];
    for (const candidate of pages) if (this.site.isPage(candidate)) return { file: candidate, page: true };
    if (rel !== '' && this.site.hasFile(rel)) return { file: rel, page: this.site.isPage(rel) };
    return undefined;
  }

  /** The redirect rule for a path, as `docs.json` writes its destination (captures filled in). */
  redirectOf(path: string): string | undefined {
    return this.redirects.destinationOf(path);
  }

  /** Where a root-relative URL path leads (redirects followed). */
  resolvePath(rawPath: string, fragment?: string): Resolution {
    const key = fragment === undefined ? rawPath : `${rawPath}#${fragment}`;
    const known = this.memo.get(key);
    if (known !== undefined) return known;
    const result = this.follow(normalPath(decodeSegments(rawPath.replace(/\\/g, '/'))), fragment);
    this.memo.set(key, result);
    return result;
  }

  private follow(start: string, startFragment: string | undefined): Resolution {
    let path = start;
    let fragment = startFragment;
    const via: string[] = [];
    const seen = new Set<string>();
    for (let hop = 0; hop <= MAX_HOPS; hop++) {
      const destination = this.redirects.destinationOf(path);
      if (destination === undefined) {
        const found = this.filesFor(path);
        if (found === undefined) return { kind: 'missing', path, via };
        if (found.page) return fragment === undefined ? { kind: 'page', file: found.file, path, via } : { kind: 'page', file: found.file, path, fragment, via };
        return { kind: 'file', file: found.file, path, via };
      }
      seen.add(path);
      via.push(path);
      if (SCHEME.test(destination) || destination.startsWith('//')) return { kind: 'offsite', url: destination, via };
      const parts = splitTarget(destination);
      // A destination's own fragment replaces the link's, as a browser does.
      if (parts.fragment !== undefined) fragment = parts.fragment;
      const next = normalPath(decodeSegments(parts.path));
      if (seen.has(next)) return { kind: 'missing', path: next, via, loop: true };
      path = next;
    }
    return { kind: 'missing', path, via, loop: true };
  }

  /**
   * Where `target`, written in `file` (served at `pageUrl`, or a snippet when undefined), leads.
   * `fromFolder`: relative targets (`./`, `../`) count from the file's folder.
   */
  resolve(target: string, file: string, pageUrl: string | undefined): Resolution {
    const trimmed = target.trim();
    if (trimmed === '' || SCHEME.test(trimmed) || trimmed.startsWith('//') || trimmed.startsWith('\\\\')) return trimmed === '' ? { kind: 'unchecked' } : { kind: 'external' };
    const { path, fragment } = splitTarget(trimmed.replace(/\\/g, '/'));
    if (path === '') {
      // `#anchor` or `?query`: this page.
      if (pageUrl === undefined) return { kind: 'unchecked' };
      return fragment === undefined || fragment === '' ? { kind: 'unchecked' } : { kind: 'page', file, path: pageUrl, fragment, via: [] };
    }
    let absolute: string;
    if (path.startsWith('/')) absolute = path;
    else if (path.startsWith('./') || path.startsWith('../') || path === '.' || path === '..') {
      if (pageUrl === undefined) return { kind: 'unchecked' };
      absolute = posix.join('/', posix.dirname(file), path);
    } else {
      if (pageUrl === undefined) return { kind: 'unchecked' };
      absolute = posix.join(pageUrl === '/' ? '/' : posix.dirname(pageUrl), path);
    }
    return this.resolvePath(absolute, fragment === '' ? undefined : fragment);
  }
}
