/**
 * The Node.js agents of the bundle download, one per route: straight to the host (keep-alive
 * agents of our own), or through the proxy the network settings name for the URL:
 * `https-proxy-agent` (a CONNECT tunnel) for https, `http-proxy-agent` (absolute-form
 * forwarding) for http. Both are the agents VS Code's own proxy support is built on.
 *
 * The server's TLS options (trusted CAs, certificate checks) travel in the request options,
 * not only in the agent: the tunnel agent takes the server's TLS options from the request, and
 * in the VS Code extension host `http.proxySupport: override` swaps our agent for its own for
 * non-loopback hosts, keeping the request options (see docs/proxies.md).
 * Its "loopback" is only `localhost`, 127.0.0.1 and ::1: for every loopback host (127.0.0.2
 * too) the request is made with Node's own http/https, which VS Code keeps unpatched, so that
 * loopback goes direct as `Network.routeFor` says, never to a proxy.
 * The proxy's own connection (an https proxy) gets the same options through the agent.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import type { Socket } from 'node:net';
import { HttpProxyAgent } from 'http-proxy-agent';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { isLoopbackHost } from '../links';
import { ProxyTunnelError } from './failure';
import { directNetwork, type Network, type ProxyRoute, type TlsSettings } from './network';

/** What one request to a URL is made with. */
export interface StorageRoute {
  agent: http.Agent;
  /** Options for the request itself: the server's TLS settings for https (Node hands them on to `tls.connect`). */
  options: TlsSettings;
  /** The proxy, when there is one (for messages). */
  proxy: ProxyRoute | undefined;
  /** The `get` to make the request with: Node's own (not VS Code's patched one) for loopback. */
  get: typeof https.get;
}

/** The module as Node.js made it: VS Code's proxy support keeps a copy in `__vscodeOriginal` when it patches it. */
function unpatched<T extends typeof http | typeof https>(module: T): T {
  return (module as T & { __vscodeOriginal?: T }).__vscodeOriginal ?? module;
}

/**
 * An https-proxy-agent that fails the request with a `ProxyTunnelError` when the proxy
 * refuses the tunnel (407, 403, 502...), instead of handing the proxy's answer on as if the
 * storage had sent it.
 */
class TunnelAgent extends HttpsProxyAgent<string> {
  override async connect(req: http.ClientRequest, opts: Parameters<HttpsProxyAgent<string>['connect']>[1]): Promise<Socket> {
    let status: number | undefined;
    req.once('proxyConnect', (connect: { statusCode?: number }) => {
      status = connect.statusCode;
    });
    const socket = await super.connect(req, opts);
    if (status !== undefined && status !== 200) {
      socket.destroy();
      throw new ProxyTunnelError(status);
    }
    return socket;
  }
}

export class StorageAgents {
  private readonly direct = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
  private readonly proxied = new Map<string, http.Agent>();

  constructor(private readonly network: Network = directNetwork()) {}

  for(url: URL): StorageRoute {
    const secure = url.protocol === 'https:';
    const tls: TlsSettings = { ...this.network.tls() };
    const options = secure ? tls : {};
    const proxy = this.network.routeFor(url);
    const module = secure ? https : http;
    if (proxy === undefined) {
      const get = isLoopbackHost(url.hostname) ? unpatched(module).get : module.get;
      return { agent: secure ? this.direct.https : this.direct.http, options, proxy, get };
    }
    const key = `${secure ? 'tunnel' : 'forward'} ${proxy.url.href} ${proxy.authorization ?? ''}`;
    let agent = this.proxied.get(key);
    if (agent === undefined) {
      const agentOptions = { keepAlive: true, ...(proxy.url.protocol === 'https:' ? tls : {}), headers: proxy.authorization === undefined ? {} : { 'Proxy-Authorization': proxy.authorization } };
      agent = secure ? new TunnelAgent(proxy.url.href, agentOptions) : new HttpProxyAgent(proxy.url.href, agentOptions);
      this.proxied.set(key, agent);
    }
    return { agent, options, proxy, get: module.get };
  }

  close(): void {
    this.direct.http.destroy();
    this.direct.https.destroy();
    for (const agent of this.proxied.values()) agent.destroy();
  }
}
