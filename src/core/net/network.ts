/**
 * The network settings both HTTP stacks honour (the API client over undici, the bundle
 * download over Node's https): which proxy a URL goes through, and which certificates are
 * trusted. Built from what the front end read (VS Code settings, CLI options) and the
 * environment, with the usual precedence: an explicit setting first, then
 * `https_proxy`/`HTTPS_PROXY` (https) or `http_proxy`/`HTTP_PROXY` (http; https falls back to
 * it too, as undici and VS Code do), then no proxy; `NO_PROXY`/`no_proxy` unless the front end
 * gave its own list. A loopback host (`localhost`, 127.0.0.0/8, ::1) never goes through a proxy,
 * whatever the settings (as in VS Code): plain http: to it (a `kubectl port-forward`) would
 * otherwise carry the key in clear to the proxy, which cannot reach the user's loopback anyway.
 * Proxy credentials are kept apart from the proxy's URL and never shown.
 */
import * as l10n from '@vscode/l10n';
import * as tls from 'node:tls';
import { isLoopbackHost } from '../links';
import { bypassesProxy, parseNoProxy, type NoProxyRule } from './noProxy';

export interface NetworkHints {
  /** Where an explicit proxy is set: `http.proxy`. */
  proxy: string;
  /** Where hosts that bypass the proxy are listed: `http.noProxy`, `NO_PROXY`. */
  noProxy: string;
  /** How to give proxy credentials, for a 407. */
  proxyCredentials: string;
  /** Where an extra CA certificate is added: `docsAdmin.network.extraCaCertificates`, `--ca-file`. */
  ca: string;
  /** The setting that turns certificate checks off, when the front end has one. */
  strictSSL?: string;
}

export interface NetworkConfig {
  /** An explicit proxy URL for every scheme (`http.proxy`); empty or undefined: the environment decides. */
  proxy?: string | undefined;
  /** Hosts that bypass the proxy (`http.noProxy`); when empty, NO_PROXY / no_proxy apply. */
  noProxy?: string | readonly string[] | undefined;
  /** A `Proxy-Authorization` value sent to the proxy only; wins over credentials in the proxy URL. */
  proxyAuthorization?: string | undefined;
  /** Check certificates (of the server and of an https proxy). Default: Node's (true). */
  strictSSL?: boolean;
  /** Extra CA certificates (PEM text), trusted on top of the usual ones. */
  extraCa?: readonly string[];
  /** Also trust the operating system's certificate store (when this Node.js can read it). */
  systemCa?: boolean;
  hints?: Partial<NetworkHints>;
}

export type Env = Record<string, string | undefined>;

/** The proxy one request goes through. */
export interface ProxyRoute {
  /** The proxy's URL without credentials. */
  url: URL;
  /** `http://proxy:3128`: no credentials, for messages and logs. */
  display: string;
  /** Where it was set: the setting's name, or the environment variable's. */
  source: string;
  /** The `Proxy-Authorization` header value, if any (never logged). */
  authorization: string | undefined;
}

/** TLS options for a connection (to the server, or to an https proxy). */
export interface TlsSettings {
  /** Absent when not set: Node's default then holds (NODE_TLS_REJECT_UNAUTHORIZED included). */
  rejectUnauthorized?: boolean;
  /** The trusted CAs, built once; undefined: Node's defaults. */
  secureContext?: tls.SecureContext;
}

export class NetworkConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NetworkConfigError';
  }
}

/** How messages name the settings when the front end does not say. */
function defaultHints(): NetworkHints {
  return {
    proxy: l10n.t('the proxy setting'),
    noProxy: 'NO_PROXY',
    proxyCredentials: l10n.t('the user name and password in the proxy URL (http://<user>:<password>@proxy:port)'),
    ca: l10n.t('the extra CA certificates'),
  };
}

function envValue(env: Env, ...names: string[]): { value: string; name: string } | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value !== undefined && value !== '') return { value, name };
  }
  return undefined;
}

/** A proxy URL as people write it (`proxy:3128` means `http://proxy:3128`), checked. */
export function parseProxy(text: string, source: string, proxyAuthorization: string | undefined): ProxyRoute {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new NetworkConfigError(l10n.t('The proxy in {0} is not a valid URL. Write it as http://proxy.example.com:3128.', source));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new NetworkConfigError(l10n.t('The proxy in {0} uses {1}, which Docs Admin does not support: use an http:// or https:// proxy.', source, url.protocol.replace(/:$/, '')));
  }
  if (url.hostname === '') throw new NetworkConfigError(l10n.t('The proxy in {0} has no host name. Write it as http://proxy.example.com:3128.', source));
  let authorization = proxyAuthorization?.trim() === '' ? undefined : proxyAuthorization?.trim();
  if (authorization === undefined && (url.username !== '' || url.password !== '')) {
    const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
  }
  const bare = new URL(`${url.protocol}//${url.host}`);
  return { url: bare, display: bare.origin, source, authorization };
}

/** The CAs Node.js trusts by default (NODE_EXTRA_CA_CERTS included), and the system's when asked. */
function baseCertificates(env: Env, systemCa: boolean, readFile: ((path: string) => string) | undefined): string[] {
  const get = (tls as { getCACertificates?: (type: 'default' | 'system') => string[] }).getCACertificates;
  if (get !== undefined) return systemCa ? [...get('default'), ...get('system')] : get('default');
  // Node.js before 22.15 has no getCACertificates: the bundled roots, and NODE_EXTRA_CA_CERTS
  // read here (giving `ca` replaces the default store, which would drop them).
  const extra = env.NODE_EXTRA_CA_CERTS;
  if (extra === undefined || extra === '' || readFile === undefined) return [...tls.rootCertificates];
  try {
    return [...tls.rootCertificates, readFile(extra)];
  } catch {
    return [...tls.rootCertificates];
  }
}

export interface NetworkDeps {
  env: Env;
  /** Reads NODE_EXTRA_CA_CERTS on an older Node.js. */
  readFile?: (path: string) => string;
}

export class Network {
  readonly hints: NetworkHints;
  private readonly http: ProxyRoute | undefined;
  private readonly https: ProxyRoute | undefined;
  private readonly noProxy: NoProxyRule[];
  private readonly noProxySource: string;
  private tlsCache: TlsSettings | undefined;

  /** Throws `NetworkConfigError` for a proxy that cannot be used. */
  constructor(
    private readonly config: NetworkConfig,
    private readonly deps: NetworkDeps,
  ) {
    this.hints = { ...defaultHints(), ...config.hints };
    const { env } = deps;
    const explicit = config.proxy?.trim();
    if (explicit !== undefined && explicit !== '') {
      const route = parseProxy(explicit, this.hints.proxy, config.proxyAuthorization);
      this.http = route;
      this.https = route;
    } else {
      const http = envValue(env, 'http_proxy', 'HTTP_PROXY');
      const https = envValue(env, 'https_proxy', 'HTTPS_PROXY') ?? http;
      this.http = http && parseProxy(http.value, http.name, config.proxyAuthorization);
      this.https = https && parseProxy(https.value, https.name, config.proxyAuthorization);
    }
    const listed = parseNoProxy(config.noProxy);
    const fromEnv = envValue(env, 'no_proxy', 'NO_PROXY');
    this.noProxy = listed.length > 0 ? listed : parseNoProxy(fromEnv?.value);
    this.noProxySource = listed.length > 0 ? this.hints.noProxy : (fromEnv?.name ?? this.hints.noProxy);
  }

  /** The proxy a request to `url` goes through; undefined: straight to the host (always for loopback). */
  routeFor(url: URL): ProxyRoute | undefined {
    const route = url.protocol === 'https:' ? this.https : url.protocol === 'http:' ? this.http : undefined;
    if (route === undefined || isLoopbackHost(url.hostname) || bypassesProxy(url, this.noProxy)) return undefined;
    return route;
  }

  /** Where the hosts that bypass the proxy are listed (the setting, or the variable in use). */
  get noProxyHint(): string {
    return this.noProxySource;
  }

  get strictSSL(): boolean {
    return this.config.strictSSL !== false;
  }

  /** Whether the system's store is trusted: asked for, and this Node.js can read it (22.15 or later). */
  private get systemCaInUse(): boolean {
    return this.config.systemCa === true && typeof (tls as { getCACertificates?: unknown }).getCACertificates === 'function';
  }

  /** TLS options for servers and https proxies; the trusted CAs are gathered once. */
  tls(): TlsSettings {
    if (this.tlsCache !== undefined) return this.tlsCache;
    const extra = this.config.extraCa ?? [];
    const system = this.systemCaInUse;
    const settings: TlsSettings = this.config.strictSSL === undefined ? {} : { rejectUnauthorized: this.config.strictSSL };
    if (extra.length > 0 || system) {
      settings.secureContext = tls.createSecureContext({ ca: [...baseCertificates(this.deps.env, system, this.deps.readFile), ...extra] });
    }
    this.tlsCache = settings;
    return settings;
  }

  /** One line for the log: what is in effect, never a credential. */
  describe(): string {
    const via = (r: ProxyRoute | undefined) => (r === undefined ? 'direct' : `through ${r.display} (from ${r.source})`);
    const parts = [this.http?.display === this.https?.display && this.http?.source === this.https?.source ? `requests go ${via(this.https)}` : `https requests go ${via(this.https)}, http requests ${via(this.http)}`];
    if ((this.http ?? this.https) !== undefined && this.noProxy.length > 0) parts.push(`except to the hosts in ${this.noProxySource}`);
    if ((this.http ?? this.https)?.authorization !== undefined) parts.push('with proxy credentials');
    const extra = this.config.extraCa?.length ?? 0;
    if (extra > 0) parts.push(`${extra} extra CA certificate(s) trusted`);
    if (this.systemCaInUse) parts.push("the system's certificates trusted");
    parts.push(this.strictSSL ? 'certificates checked' : 'certificates NOT checked');
    return parts.join('; ');
  }
}

/** No proxy, Node's certificate checks: what a client uses when given no network. */
export function directNetwork(): Network {
  return new Network({}, { env: {} });
}
