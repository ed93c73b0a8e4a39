/**
 * Which local repository is an agent job's: its `source.repository` (a URL from the server)
 * compared with the remotes of the repositories open in the editor. Pure, no git, no I/O.
 *
 * A remote may be written as https (`https://github.com/org/repo.git`), ssh
 * (`ssh://git@github.com/org/repo.git`, `git@github.com:org/repo.git`) or git
 * (`git://github.com/org/repo`), with or without `.git` and a trailing slash; host, owner and
 * name compare case-insensitively (GitHub treats them so).
 */

export interface RepositoryId {
  /** Lower-case host, without user or port. */
  host: string;
  /** Lower-case path without `.git`: `owner/name` (more segments for hosts with groups). */
  path: string;
}

/** `git@host:owner/repo.git` (scp-like syntax: no scheme, a colon before the path). */
const SCP_LIKE = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/\/)(.+)$/;

function normalisePath(path: string): string | undefined {
  const trimmed = path
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/i, '')
    .replace(/\/+$/g, '');
  const segments = trimmed.split('/');
  if (segments.length < 2 || segments.some((s) => s === '' || s === '.' || s === '..')) return undefined;
  return segments.join('/').toLowerCase();
}

/** The host and owner/name of a repository URL; undefined for what is not one. */
export function parseRepositoryUrl(url: string | null | undefined): RepositoryId | undefined {
  if (typeof url !== 'string') return undefined;
  const text = url;
  if (text === '' || /[\s\p{Cc}]/u.test(text)) return undefined;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    let parsed: URL;
    try {
      parsed = new URL(text);
    } catch {
      return undefined;
    }
    if (!['https:', 'http:', 'ssh:', 'git:', 'git+ssh:', 'ssh+git:'].includes(parsed.protocol) || parsed.hostname === '') return undefined;
    let pathname: string;
    try {
      pathname = decodeURIComponent(parsed.pathname);
    } catch {
      return undefined;
    }
    const path = normalisePath(pathname);
    return path === undefined ? undefined : { host: parsed.hostname.toLowerCase(), path };
  }
  const scp = SCP_LIKE.exec(text);
  if (scp === null) return undefined;
  const path = normalisePath(scp[2] ?? '');
  return path === undefined ? undefined : { host: (scp[1] ?? '').toLowerCase(), path };
}

/** Whether two URLs name the same repository (whatever their protocol). */
export function sameRepository(a: string | null | undefined, b: string | null | undefined): boolean {
  const x = parseRepositoryUrl(a);
  const y = parseRepositoryUrl(b);
  return x !== undefined && y !== undefined && x.host === y.host && x.path === y.path;
}

/** A remote as the Git extension reports it. */
export interface RemoteLike {
  readonly name: string;
  readonly fetchUrl?: string | undefined;
  readonly pushUrl?: string | undefined;
}

/**
 * The remote (of one repository) that points at `repository`, by its fetch URL (or its push
 * URL); `origin` first when several do.
 */
export function findRemote<R extends RemoteLike>(repository: string, remotes: readonly R[]): R | undefined {
  const matching = remotes.filter((r) => sameRepository(repository, r.fetchUrl) || sameRepository(repository, r.pushUrl));
  return matching.find((r) => r.name === 'origin') ?? matching[0];
}
