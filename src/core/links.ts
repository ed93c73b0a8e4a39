/**
 * Which links the extension may open or hand to the system. Only `https:`, or `http:` to a
 * loopback host when the caller allows it (a server on this machine: the admin API's own base URL
 * is loopback, as the simulator's is, or the extension's own bundle server); never
 * `javascript:`, `command:`, `vscode:`, `file:`, `data:` or anything else a server could send to
 * run something on the user's machine, and never a link holding blanks, line breaks or invisible
 * characters (a real link has none; the URL parser would drop or encode them silently).
 */
import * as l10n from '@vscode/l10n';
import { BlockList, isIP } from 'node:net';

/** 127.0.0.0/8 and ::1; Node's BlockList also matches an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) against the IPv4 range. */
function loopbackAddresses(): BlockList {
  const list = new BlockList();
  list.addSubnet('127.0.0.0', 8, 'ipv4');
  list.addAddress('::1', 'ipv6');
  return list;
}

/**
 * `localhost`, and an address in 127.0.0.0/8 or ::1 in any of its spellings (`[::1]`,
 * `0:0:0:0:0:0:0:1`, the IPv4-mapped `::ffff:127.0.0.1`, which the URL parser writes
 * `[::ffff:7f00:1]`). Not `*.localhost`: a name such as `api.localhost` is looked up like any
 * other (no resolver is bound to answer loopback for it), so plain http: to it could carry the
 * admin key in clear to another host.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost') return true;
  const family = isIP(host);
  return family !== 0 && loopbackAddresses().check(host, family === 4 ? 'ipv4' : 'ipv6');
}

export type LinkVerdict = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * Where plain `http:` may go: to a loopback host only when `loopbackHttp` (the server it came
 * from is itself on this machine: see `loopbackHttpFor`), never elsewhere.
 */
export interface LinkPolicy {
  loopbackHttp: boolean;
}

/** The policy for links a server at `baseUrl` hands out: loopback `http:` only when that server is loopback itself. */
export function loopbackHttpFor(baseUrl: string | undefined): LinkPolicy {
  try {
    return { loopbackHttp: baseUrl !== undefined && baseUrl !== '' && isLoopbackHost(new URL(baseUrl).hostname) };
  } catch {
    return { loopbackHttp: false };
  }
}

/** Whether `link` may be opened in a browser. */
export function checkOpenableLink(link: string | null | undefined, policy: LinkPolicy): LinkVerdict {
  if (link === null || link === undefined || link.trim() === '') return { ok: false, reason: l10n.t('there is no link') };
  let url: URL;
  try {
    url = new URL(link.trim());
  } catch {
    return { ok: false, reason: l10n.t('it is not a valid URL') };
  }
  // https://github.com@evil.example/ goes to evil.example; and a link never carries a password to open.
  if ((url.protocol === 'https:' || url.protocol === 'http:') && (url.username !== '' || url.password !== '')) {
    return { ok: false, reason: l10n.t('it carries a user name or password before its host') };
  }
  if ((url.protocol === 'https:' || url.protocol === 'http:') && /[\s\p{Cc}\p{Cf}]/u.test(link.trim())) return { ok: false, reason: l10n.t('it holds blanks, line breaks or invisible characters') };
  if (url.protocol === 'https:') return { ok: true, url };
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) {
    return policy.loopbackHttp ? { ok: true, url } : { ok: false, reason: l10n.t('it is plain http: to this machine, from a server that is not on it (only https: links are opened)') };
  }
  if (url.protocol === 'http:') return { ok: false, reason: l10n.t('it is plain http: to a remote host (only https: links are opened)') };
  return { ok: false, reason: l10n.t('its scheme "{0}" is not allowed (only https: links are opened)', url.protocol) };
}

/**
 * Checks a base URL for the API: `https:`, or `http:` on loopback; no credentials, query or
 * fragment. Returns the normalised URL (no trailing slash) or the reason it is refused.
 */
export function checkBaseUrl(input: string): { ok: true; baseUrl: string } | { ok: false; reason: string } {
  const text = input.replace(/^[\s\u200b-\u200d\u2060\ufeff]+|[\s\u200b-\u200d\u2060\ufeff]+$/g, '');
  // The URL parser drops tabs and line breaks silently: a pasted URL holding one is refused instead.
  if (/[\p{Cc}\p{Cf}\s]/u.test(text)) return { ok: false, reason: l10n.t('The base URL holds spaces, line breaks or invisible characters: enter it on one line, such as https://api.example.com.') };
  // "user:pw@host" or "localhost:8080" parse as a scheme; neither is what was meant.
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return { ok: false, reason: l10n.t('Enter a full URL, starting with https://, such as https://api.example.com.') };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: l10n.t('Enter a full URL such as https://api.example.com.') };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    return { ok: false, reason: l10n.t('The base URL must use https: (plain http: only for a loopback host such as 127.0.0.1); got {0}.', `${url.protocol}//${url.host}`) };
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: l10n.t('Remove the user name and password from the base URL: the admin key is stored separately.') };
  }
  if (url.search !== '' || url.hash !== '') {
    return { ok: false, reason: l10n.t('Remove the query string and fragment from the base URL.') };
  }
  return { ok: true, baseUrl: `${url.origin}${url.pathname.replace(/\/+$/, '')}` };
}
