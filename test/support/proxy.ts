/**
 * A real forwarding proxy on loopback, for tests: absolute-form HTTP requests are forwarded,
 * CONNECT opens a tunnel; optional Basic credentials (407 without them); optionally served
 * over TLS (an https proxy); a log of what it saw. It sees what a real proxy sees: the target
 * and headers of a forwarded request, only `host:port` of a tunnel.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';

export interface ProxyLogEntry {
  method: string;
  /** `http://host:port/path?query` forwarded, or `host:port` tunnelled. */
  target: string;
  /** An `Authorization` header passed through the proxy in clear (forwarded requests only). */
  authorization: string | undefined;
  /** The `Proxy-Authorization` header the proxy received. */
  proxyAuthorization: string | undefined;
  /** What the proxy answered itself (407, 403, 502), or 200 when it passed the request on. */
  status: number;
}

export interface TestProxyOptions {
  /** Require these Basic credentials (407 otherwise). */
  auth?: { user: string; password: string };
  /** Serve the proxy itself over TLS. */
  tls?: { key: string; cert: string };
  /** Refuse tunnels to some targets (`host:port`) with this status. */
  refuse?: (target: string) => number | undefined;
  /** Names the proxy resolves itself, as its DNS would (`storage.example.com` -> `127.0.0.1`): tunnels only. */
  hosts?: Record<string, string>;
}

/**
 * Node's own http.request. In the VS Code extension host, `http.proxySupport` patches
 * http.request to go through `http.proxy`, which would send the proxy's own upstream requests
 * back to itself; it keeps the originals in `__vscodeOriginal`.
 */
const upstreamRequest = ((http as unknown as { __vscodeOriginal?: typeof http }).__vscodeOriginal ?? http).request;

/**
 * This machine's first IPv4 address that is not loopback, for a server that a request must
 * reach through a proxy: loopback hosts always go direct (see `Network.routeFor`). Test machines
 * (CI included) have one; without one, the tests that need it fail saying so.
 */
export function nonLoopbackAddress(): string {
  for (const addresses of Object.values(networkInterfaces())) {
    const found = addresses?.find((a) => a.family === 'IPv4' && !a.internal && !a.address.startsWith('127.'));
    if (found !== undefined) return found.address;
  }
  throw new Error('This machine has no IPv4 address other than loopback: the proxy tests need one (loopback never goes through a proxy).');
}

const HOP_BY_HOP = ['proxy-authorization', 'proxy-connection', 'connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

export class TestProxy {
  readonly log: ProxyLogEntry[] = [];
  private readonly sockets = new Set<net.Socket>();
  private address = '';

  private constructor(
    private readonly server: http.Server | https.Server,
    private readonly options: TestProxyOptions,
  ) {}

  static async start(options: TestProxyOptions = {}): Promise<TestProxy> {
    const server = options.tls === undefined ? http.createServer() : https.createServer(options.tls);
    const proxy = new TestProxy(server, options);
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => proxy.forward(req, res));
    server.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => proxy.tunnel(req, socket, head));
    server.on('connection', (socket: net.Socket) => proxy.track(socket));
    server.on('secureConnection', (socket: net.Socket) => proxy.track(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy.address = `${options.tls === undefined ? 'http' : 'https'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return proxy;
  }

  /** `http://127.0.0.1:<port>` (https: when served over TLS). */
  get url(): string {
    return this.address;
  }

  /** The URL with the given credentials in it. */
  urlWith(user: string, password: string): string {
    const url = new URL(this.address);
    url.username = encodeURIComponent(user);
    url.password = encodeURIComponent(password);
    return url.href.replace(/\/$/, '');
  }

  clear(): void {
    this.log.length = 0;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private track(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
  }

  private authorized(req: http.IncomingMessage): boolean {
    const { auth } = this.options;
    if (auth === undefined) return true;
    return req.headers['proxy-authorization'] === `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}`;
  }

  private entry(req: http.IncomingMessage, target: string, status: number): ProxyLogEntry {
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    };
    const entry = { method: req.method ?? '', target, authorization: header('authorization'), proxyAuthorization: header('proxy-authorization'), status };
    this.log.push(entry);
    return entry;
  }

  private forward(req: http.IncomingMessage, res: http.ServerResponse): void {
    const target = req.url ?? '';
    if (!/^http:\/\//i.test(target)) {
      this.entry(req, target, 400);
      res.writeHead(400).end('not a proxy request');
      return;
    }
    if (!this.authorized(req)) {
      this.entry(req, target, 407);
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test proxy"', 'content-length': '0' }).end();
      return;
    }
    const entry = this.entry(req, target, 200);
    const headers = { ...req.headers };
    for (const name of HOP_BY_HOP) delete headers[name];
    const upstream = upstreamRequest(target, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      entry.status = 502;
      if (!res.headersSent) res.writeHead(502, { 'content-length': '0' }).end();
      else res.destroy();
    });
    req.pipe(upstream);
  }

  private tunnel(req: http.IncomingMessage, client: net.Socket, head: Buffer): void {
    const target = req.url ?? '';
    client.on('error', () => undefined);
    if (!this.authorized(req)) {
      this.entry(req, target, 407);
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test proxy"\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const refused = this.options.refuse?.(target);
    if (refused !== undefined) {
      this.entry(req, target, refused);
      client.end(`HTTP/1.1 ${refused} Refused\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const entry = this.entry(req, target, 200);
    const at = target.lastIndexOf(':');
    const host = target.slice(0, at).replace(/^\[|\]$/g, '');
    const upstream = net.connect(Number(target.slice(at + 1)), this.options.hosts?.[host] ?? host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    this.track(upstream);
    upstream.on('error', () => {
      entry.status = 502;
      client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
    });
  }
}
