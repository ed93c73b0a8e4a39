/**
 * The undici dispatcher of the admin API client: each request goes straight to its host or
 * through the proxy the network settings name for its URL (the same decision as the bundle
 * download's, see `storageAgents.ts`), with the trusted CAs and certificate checks of those
 * settings on the server's and an https proxy's connection.
 *
 * undici's `ProxyAgent` does the proxying: CONNECT tunnels for https (the admin key travels
 * inside TLS, the proxy sees only host and port), and plain forwarding (absolute-form) for an
 * http target through an http proxy, as curl does. `EnvHttpProxyAgent` is not used because its
 * NO_PROXY rules and environment precedence would differ from the download's.
 */
import type { Dispatcher as DispatcherType } from 'undici';
import { Agent, Dispatcher, ProxyAgent } from './undiciParts';
import type { Network, ProxyRoute } from './network';

export interface DispatcherTimeouts {
  connectTimeoutMs: number;
  /** For the headers. */
  requestTimeoutMs: number;
  /** Between two chunks of a body. */
  bodyTimeoutMs: number;
}

export class ApiDispatcher extends Dispatcher {
  /** Made on the first request: gathering the trusted CAs can take tens of milliseconds. */
  private directAgent: Agent | undefined;
  private readonly proxies = new Map<string, ProxyAgent>();

  constructor(
    private readonly network: Network,
    private readonly timeouts: DispatcherTimeouts,
  ) {
    super();
  }

  private direct(): Agent {
    this.directAgent ??= new Agent({ ...this.agentOptions(), connect: { timeout: this.timeouts.connectTimeoutMs, ...this.tls() } });
    return this.directAgent;
  }

  private agentOptions() {
    return { headersTimeout: this.timeouts.requestTimeoutMs, bodyTimeout: this.timeouts.bodyTimeoutMs };
  }

  private tls() {
    return { ...this.network.tls() };
  }

  private proxyAgent(route: ProxyRoute): ProxyAgent {
    const key = `${route.url.href} ${route.authorization ?? ''}`;
    let agent = this.proxies.get(key);
    if (agent === undefined) {
      agent = new ProxyAgent({
        ...this.agentOptions(),
        uri: route.url.href,
        ...(route.authorization === undefined ? {} : { token: route.authorization }),
        requestTls: { timeout: this.timeouts.connectTimeoutMs, ...this.tls() },
        proxyTls: { timeout: this.timeouts.connectTimeoutMs, ...this.tls() },
        proxyTunnel: false,
      });
      this.proxies.set(key, agent);
    }
    return agent;
  }

  override dispatch(options: DispatcherType.DispatchOptions, handler: DispatcherType.DispatchHandler): boolean {
    const origin = options.origin === undefined ? undefined : new URL(String(options.origin));
    const route = origin === undefined ? undefined : this.network.routeFor(origin);
    return (route === undefined ? this.direct() : this.proxyAgent(route)).dispatch(options, handler);
  }

  private all<T>(each: (d: DispatcherType) => Promise<T>): Promise<void> {
    return Promise.all([...(this.directAgent === undefined ? [] : [this.directAgent]), ...this.proxies.values()].map(each)).then(() => undefined);
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    const done = this.all((d) => d.close());
    if (callback === undefined) return done;
    void done.then(callback);
  }

  override destroy(): Promise<void>;
  override destroy(err: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(err: Error | null, callback: () => void): void;
  override destroy(a?: Error | null | (() => void), b?: () => void): Promise<void> | void {
    const err = typeof a === 'function' ? null : (a ?? null);
    const callback = typeof a === 'function' ? a : b;
    const done = this.all((d) => d.destroy(err));
    if (callback === undefined) return done;
    void done.then(callback);
  }
}
