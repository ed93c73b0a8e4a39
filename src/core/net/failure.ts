/**
 * The network failures a person can fix in their settings, told apart from passing faults:
 * an untrusted or invalid certificate, a proxy that wants credentials, refuses a tunnel or
 * cannot be reached. Both HTTP stacks use these, so the API client and the bundle download
 * say the same thing. Pure.
 */
import * as l10n from '@vscode/l10n';
import { sentences } from '../l10n';
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
    super(l10n.t('the proxy answered the tunnel request with {0}', status));
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
  const proxy = ctx.proxy;
  // A certificate problem may be the https proxy's as well as the server's.
  const viaTls = proxy !== undefined && proxy.url.protocol === 'https:' ? proxy : undefined;
  switch (failure.kind) {
    case 'untrustedCertificate': {
      const what =
        viaTls === undefined
          ? failure.selfSigned
            ? l10n.t('The certificate of {0} is not trusted: it is self-signed ({1}).', ctx.host, failure.code)
            : l10n.t('The certificate of {0} is not trusted: it is signed by a certificate authority this computer does not know ({1}).', ctx.host, failure.code)
          : failure.selfSigned
            ? l10n.t('The certificate of {0} (or of the proxy {1} (from {2})) is not trusted: it is self-signed ({3}).', ctx.host, viaTls.display, viaTls.source, failure.code)
            : l10n.t('The certificate of {0} (or of the proxy {1} (from {2})) is not trusted: it is signed by a certificate authority this computer does not know ({3}).', ctx.host, viaTls.display, viaTls.source, failure.code);
      const fix = sentences(what, l10n.t("If your company's proxy or a private certificate authority signs it, add that authority's certificate (a PEM file) to {0}.", ctx.hints.ca));
      return ctx.hints.strictSSL === undefined
        ? fix
        : sentences(fix, l10n.t('Only if you understand the risk (anyone on the way could then read the traffic, the admin key included), turn off {0}.', ctx.hints.strictSSL));
    }
    case 'badCertificate':
      return viaTls === undefined ? badCertificate(failure.problem, ctx.host, failure.code) : badProxiedCertificate(failure.problem, ctx.host, viaTls, failure.code);
    case 'proxyAuth':
      if (proxy === undefined) return l10n.t('The proxy asks for credentials (407 Proxy Authentication Required). Give them as {0}.', ctx.hints.proxyCredentials);
      return proxy.authorization === undefined
        ? l10n.t('The proxy {0} (from {1}) asks for credentials (407 Proxy Authentication Required). Give them as {2}.', proxy.display, proxy.source, ctx.hints.proxyCredentials)
        : l10n.t('The proxy {0} (from {1}) refused the credentials given (407 Proxy Authentication Required). Check {2}.', proxy.display, proxy.source, ctx.hints.proxyCredentials);
    case 'proxyRefused':
      return proxy === undefined
        ? l10n.t('The proxy refused to connect to {0} ({1}). Ask whoever runs the proxy to allow {0}, or, if {0} can be reached without it, add it to {2}.', ctx.host, failure.status, ctx.noProxyHint)
        : l10n.t('The proxy {0} (from {1}) refused to connect to {2} ({3}). Ask whoever runs the proxy to allow {2}, or, if {2} can be reached without it, add it to {4}.', proxy.display, proxy.source, ctx.host, failure.status, ctx.noProxyHint);
    case 'proxyUnreachable':
      return proxy === undefined
        ? l10n.t("The proxy could not be reached ({0}). Check {1}: is the proxy's address right, and is it running?", failure.code, ctx.hints.proxy)
        : l10n.t("The proxy {0} (from {1}) could not be reached ({2}). Check {1}: is the proxy's address right, and is it running?", proxy.display, proxy.source, failure.code);
  }
}

type CertificateProblem = Extract<NetFailure, { kind: 'badCertificate' }>['problem'];

function badCertificate(problem: CertificateProblem, host: string, code: string): string {
  switch (problem) {
    case 'expired':
      return l10n.t("The certificate of {0} has expired (check this computer's clock; otherwise the server's certificate must be renewed) ({1}).", host, code);
    case 'notYetValid':
      return l10n.t("The certificate of {0} is not valid yet (check this computer's clock) ({1}).", host, code);
    case 'hostName':
      return l10n.t('The certificate of {0} is for another host name (check the URL; a proxy that inspects traffic may also cause it) ({1}).', host, code);
    case 'other':
      return l10n.t('The certificate of {0} is not valid ({1}).', host, code);
  }
}

function badProxiedCertificate(problem: CertificateProblem, host: string, proxy: ProxyRoute, code: string): string {
  switch (problem) {
    case 'expired':
      return l10n.t("The certificate of {0} (or of the proxy {1} (from {2})) has expired (check this computer's clock; otherwise the server's certificate must be renewed) ({3}).", host, proxy.display, proxy.source, code);
    case 'notYetValid':
      return l10n.t("The certificate of {0} (or of the proxy {1} (from {2})) is not valid yet (check this computer's clock) ({3}).", host, proxy.display, proxy.source, code);
    case 'hostName':
      return l10n.t('The certificate of {0} (or of the proxy {1} (from {2})) is for another host name (check the URL; a proxy that inspects traffic may also cause it) ({3}).', host, proxy.display, proxy.source, code);
    case 'other':
      return l10n.t('The certificate of {0} (or of the proxy {1} (from {2})) is not valid ({3}).', host, proxy.display, proxy.source, code);
  }
}
