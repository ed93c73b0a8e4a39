/**
 * The network failures a person can fix in their settings, told apart from passing faults:
 * an untrusted or invalid certificate, a proxy that wants credentials, refuses a tunnel or
 * cannot be reached. Both HTTP stacks use these, so the API client and the bundle download
 * say the same thing. Pure.
 */
import type { NetworkHints, ProxyRoute } from './network';

export type NetFailure =
  /** Self-signed, or signed by a CA this machine does not trust. */
  | { kind: 'untrustedCertificate'; code: string; selfSigned: boolean }
  /** Expired, not yet valid, or not for this host name. */
  | { kind: 'badCertificate'; code: string; problem: 'expired' | 'notYetValid' | 'hostName' | 'other' }
  /** The proxy answered 407. */
  | { kind: 'proxyAuth' }
  /** The proxy refused the tunnel (CONNECT answered another status). */
  | { kind: 'proxyRefused'; status: number }
  /** No connection to the proxy itself. */
  | { kind: 'proxyUnreachable'; code: string };

/** Where a failure happened, for its message. */
export interface FailureContext {
  host: string;
  proxy: ProxyRoute | undefined;
  hints: NetworkHints;
  /** The setting listing hosts that bypass the proxy. */
  noProxyHint: string;
}

const UNTRUSTED = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);
const BAD: Record<string, 'expired' | 'notYetValid' | 'hostName' | 'other'> = {
  CERT_HAS_EXPIRED: 'expired',
  CERT_NOT_YET_VALID: 'notYetValid',
  ERR_TLS_CERT_ALTNAME_INVALID: 'hostName',
  HOSTNAME_MISMATCH: 'hostName',
  CERT_REVOKED: 'other',
  INVALID_CA: 'other',
};
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Raised by our tunnel agent when a proxy answers CONNECT with anything but 200. */
export class ProxyTunnelError extends Error {
  readonly code = 'ERR_PROXY_TUNNEL';
  constructor(readonly status: number) {
    super(`the proxy answered the tunnel request with ${status}`);
    this.name = 'ProxyTunnelError';
  }
}

function chain(error: unknown): Error[] {
  const out: Error[] = [];
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) out.push(e);
  return out;
}

/**
 * What went wrong, when it is one of the failures above; `proxied`: whether the request went
 * through a proxy (then every refused or unanswered connection is the proxy's).
 */
export function classifyFailure(error: unknown, proxied: boolean): NetFailure | undefined {
  for (const e of chain(error)) {
    const code = (e as { code?: unknown }).code;
    if (e instanceof ProxyTunnelError) return e.status === 407 ? { kind: 'proxyAuth' } : { kind: 'proxyRefused', status: e.status };
    if (typeof code === 'string') {
      if (UNTRUSTED.has(code)) return { kind: 'untrustedCertificate', code, selfSigned: /SELF_SIGNED/.test(code) };
      const bad = BAD[code];
      if (bad !== undefined) return { kind: 'badCertificate', code, problem: bad };
    }
    if (proxied) {
      // undici's own wording: a tunnel refused, or a 407 on a forwarded request.
      const tunnel = /Proxy response \((\d{3})\) !== 200/.exec(e.message);
      if (tunnel) return Number(tunnel[1]) === 407 ? { kind: 'proxyAuth' } : { kind: 'proxyRefused', status: Number(tunnel[1]) };
      if (/Proxy Authentication Required/i.test(e.message)) return { kind: 'proxyAuth' };
      if (typeof code === 'string' && UNREACHABLE.has(code)) return { kind: 'proxyUnreachable', code };
    }
  }
  return undefined;
}

/** Whether trying again cannot help (the settings must change first). */
export function isPermanent(failure: NetFailure): boolean {
  return failure.kind !== 'proxyUnreachable';
}

/** What happened and what to do, naming the setting to check. Never a credential. */
export function failureMessage(failure: NetFailure, ctx: FailureContext): string {
  const proxy = ctx.proxy === undefined ? undefined : `the proxy ${ctx.proxy.display} (from ${ctx.proxy.source})`;
  const tlsToProxy = ctx.proxy?.url.protocol === 'https:' ? ` (or of ${proxy ?? 'the proxy'})` : '';
  switch (failure.kind) {
    case 'untrustedCertificate': {
      const risk = ctx.hints.strictSSL === undefined ? '' : ` Only if you understand the risk (anyone on the way could then read the traffic, the admin key included), turn off ${ctx.hints.strictSSL}.`;
      return (
        `The certificate of ${ctx.host}${tlsToProxy} is not trusted: it is ${failure.selfSigned ? 'self-signed' : 'signed by a certificate authority this computer does not know'} (${failure.code}). ` +
        `If your company's proxy or a private certificate authority signs it, add that authority's certificate (a PEM file) to ${ctx.hints.ca}.${risk}`
      );
    }
    case 'badCertificate': {
      const what = {
        expired: 'has expired (check this computer\'s clock; otherwise the server\'s certificate must be renewed)',
        notYetValid: 'is not valid yet (check this computer\'s clock)',
        hostName: 'is for another host name (check the URL; a proxy that inspects traffic may also cause it)',
        other: 'is not valid',
      }[failure.problem];
      return `The certificate of ${ctx.host}${tlsToProxy} ${what} (${failure.code}).`;
    }
    case 'proxyAuth':
      return ctx.proxy?.authorization === undefined
        ? `${cap(proxy ?? 'the proxy')} asks for credentials (407 Proxy Authentication Required). Give them as ${ctx.hints.proxyCredentials}.`
        : `${cap(proxy ?? 'the proxy')} refused the credentials given (407 Proxy Authentication Required). Check ${ctx.hints.proxyCredentials}.`;
    case 'proxyRefused':
      return `${cap(proxy ?? 'the proxy')} refused to connect to ${ctx.host} (${failure.status}). Ask whoever runs the proxy to allow ${ctx.host}, or, if ${ctx.host} can be reached without it, add it to ${ctx.noProxyHint}.`;
    case 'proxyUnreachable':
      return `${cap(proxy ?? 'the proxy')} could not be reached (${failure.code}). Check ${ctx.proxy?.source ?? ctx.hints.proxy}: is the proxy's address right, and is it running?`;
  }
}

function cap(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
