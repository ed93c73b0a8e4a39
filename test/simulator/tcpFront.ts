/**
 * A raw TCP front for a simulator origin, for faults HTTP cannot express and that must come
 * and go on the same address: `relay` passes bytes both ways; `refuse` stops listening (a
 * connect is refused) and drops open connections; `reset` accepts and answers with a TCP RST.
 * The port stays the same across modes, so a client keeps its base URL while the fault comes
 * and goes.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export type FrontMode = 'relay' | 'refuse' | 'reset';

export class TcpFront {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private modeValue: FrontMode = 'relay';

  private constructor(
    private readonly target: { host: string; port: number },
    readonly host: string,
    readonly port: number,
  ) {}

  /** A front on a free loopback port for `targetUrl` (an `http://host:port` origin). */
  static async start(targetUrl: string): Promise<TcpFront> {
    const target = new URL(targetUrl);
    const probe = await listen(createServer(), 0, '127.0.0.1');
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const front = new TcpFront({ host: target.hostname, port: Number(target.port) }, '127.0.0.1', port);
    await front.setMode('relay');
    return front;
  }

  get url(): string {
    return `http://${this.host}:${this.port}`;
  }

  get mode(): FrontMode {
    return this.modeValue;
  }

  async setMode(mode: FrontMode): Promise<void> {
    this.modeValue = mode;
    this.dropAll();
    if (mode === 'refuse') {
      await this.closeListener();
      return;
    }
    if (this.server === undefined) this.server = await listen(createServer((socket) => this.accept(socket)), this.port, this.host);
  }

  async stop(): Promise<void> {
    this.dropAll();
    await this.closeListener();
  }

  private accept(socket: Socket): void {
    this.track(socket);
    if (this.modeValue === 'reset') {
      socket.resetAndDestroy();
      return;
    }
    const upstream = connect(this.target.port, this.target.host);
    this.track(upstream);
    socket.pipe(upstream).pipe(socket);
    const drop = () => {
      socket.destroy();
      upstream.destroy();
    };
    socket.on('error', drop);
    upstream.on('error', drop);
    socket.on('close', drop);
    upstream.on('close', drop);
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
  }

  private dropAll(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  private closeListener(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    return server === undefined ? Promise.resolve() : new Promise((resolve) => server.close(() => resolve()));
  }
}

function listen(server: Server, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
