/**
 * A page's URL path as the analytics give it (`/quickstart`, `/guides/setup/`, a whole URL for a
 * conversation's `pageUrl`, `https://docs.acme.dev/es/quickstart?x=1#step`) brought to one form,
 * so the same page is one key: a leading `/`, no query or fragment, dot segments resolved,
 * percent-escapes decoded, no empty segment, no trailing `/` (but `/` itself). Case is kept: URL
 * paths are case-sensitive. Pure.
 */

/** A path already in the normal form: no escape, no empty, `.` or `..` segment, no trailing slash. */
const NORMAL = /^(?:\/(?!\.\.?(?:\/|$))[A-Za-z0-9._~!$&'()*+,;=:@-]+)+$/;

/** The normalised path; undefined for what is not an http(s) URL or a path. */
export function normalizeUrlPath(input: string): string | undefined {
  // Most paths the analytics give are normal already: no URL parsing for them.
  if (NORMAL.test(input)) return input;
  const raw = input.trim();
  if (raw === '') return undefined;
  const absolute = /^[a-z][a-z0-9+.-]*:/i.test(raw) && !raw.startsWith('/');
  let url: URL;
  try {
    // A bare path, with or without its leading slash (`//x` is a path with an empty segment here, not a host).
    url = absolute ? new URL(raw) : new URL(`/${raw.replace(/^\/+/, '')}`, 'https://docs.invalid');
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const segments = url.pathname
    .split('/')
    .filter((s) => s !== '')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
  // A decoded segment holding `/` or `..` is not a path of a page: left as the server sent it would mislead.
  if (segments.some((s) => s.includes('/') || s === '..' || s === '.')) return undefined;
  return `/${segments.join('/')}`;
}

/** The host of a whole URL (a conversation's `pageUrl`), for showing; undefined for a bare path. */
export function hostOf(input: string): string | undefined {
  try {
    return /^https?:\/\//i.test(input.trim()) ? new URL(input.trim()).host : undefined;
  } catch {
    return undefined;
  }
}
