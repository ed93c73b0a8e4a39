/**
 * The platform's redirect patterns, as its documentation gives them: an exact path
 * (`/source/path`), a named parameter (`/old/:slug` one segment; `/beta/:slug*` the rest of the
 * path, none included), and a partial wildcard in a segment (`/articles/concepts-*`), whose
 * capture a `*` in the destination takes. A destination may carry an anchor or a query: they
 * are not part of the page. Pure.
 */

/** One entry of `docs.json` `redirects`. */
export interface Redirect {
  source: string;
  destination: string;
}

interface Compiled {
  pattern: RegExp;
  destination: string;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The path as the mapping compares it: no trailing slash, no empty segment. */
function trimPath(path: string): string {
  const cleaned = `/${path.split('/').filter((s) => s !== '').join('/')}`;
  return cleaned;
}

function compile(redirect: Redirect): Compiled | undefined {
  const source = trimPath(redirect.source.split(/[?#]/)[0] ?? '');
  let regex = '';
  let stars = 0;
  for (const segment of source.split('/').slice(1)) {
    const param = /^:([A-Za-z_][A-Za-z0-9_]*)([*+?]?)$/.exec(segment);
    if (param !== null) {
      const [, name, modifier] = param;
      if (modifier === '*') regex += `(?:/(?<${name}>.+))?`;
      else if (modifier === '+') regex += `/(?<${name}>.+)`;
      else if (modifier === '?') regex += `(?:/(?<${name}>[^/]+))?`;
      else regex += `/(?<${name}>[^/]+)`;
    } else if (segment === '*') {
      regex += `(?:/(?<star${stars++}>.*))?`;
    } else if (segment.includes('*')) {
      regex += `/${segment
        .split('*')
        .map(escapeRegExp)
        .join(`(?<star${stars++}>[^/]*)`)}`;
    } else {
      regex += `/${escapeRegExp(segment)}`;
    }
  }
  try {
    return { pattern: new RegExp(`^${regex === '' ? '/' : regex}$`), destination: redirect.destination };
  } catch {
    return undefined;
  }
}

export class Redirects {
  private readonly exact = new Map<string, string>();
  private readonly patterns: Compiled[] = [];

  constructor(redirects: readonly Redirect[]) {
    for (const redirect of redirects) {
      const source = redirect.source.split(/[?#]/)[0] ?? '';
      if (!/[:*]/.test(source)) {
        // The first rule for a path is the one that applies.
        if (!this.exact.has(trimPath(source))) this.exact.set(trimPath(source), redirect.destination);
        continue;
      }
      const compiled = compile(redirect);
      if (compiled !== undefined) this.patterns.push(compiled);
    }
  }

  get size(): number {
    return this.exact.size + this.patterns.length;
  }

  /** Where `path` (normalised) is sent, as written in `docs.json` with its captures filled in; undefined when no rule applies. */
  destinationOf(path: string): string | undefined {
    const exact = this.exact.get(path);
    if (exact !== undefined) return exact;
    for (const rule of this.patterns) {
      const match = rule.pattern.exec(path);
      if (match === null) continue;
      const groups = match.groups ?? {};
      let star = 0;
      return rule.destination
        .replace(/:([A-Za-z_][A-Za-z0-9_]*)[*+?]?/g, (whole, name: string) => (name in groups ? (groups[name] ?? '') : whole))
        .replace(/\*/g, () => groups[`star${star++}`] ?? '');
    }
    return undefined;
  }
}
