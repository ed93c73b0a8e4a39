/**
 * A raw TCP (or TLS) server for answers no HTTP server library writes: each connection's request
 * head is read and kept, then a script writes the exact bytes of the answer (an endless run of
 * `1xx` answers, a head a byte at a time), in parts with gaps so that the client sees them apart.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { setTimeout as sleep } from 'node:timers/promises';

export type Script = (socket: Socket, request: string) => Promise<void> | void;

export interface RawServer {
  url(path?: string): URL;
  /** Connections accepted so far. */
  readonly connections: number;
  /** Each connection's request head, as received. */
  readonly requests: string[];
  stop(): Promise<void>;
}

/** With `tls`, the connections are TLS (its URLs `https:`). */
export async function rawServer(script: Script, tls?: { key: string; cert: string }): Promise<RawServer> {
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  let connections = 0;
  const accept = (socket: Socket): void => {
    connections++;
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('error', () => undefined);
    socket.once('close', () => sockets.delete(socket));
    let head = '';
    const onData = (chunk: Buffer): void => {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      socket.off('data', onData);
      // Keep reading (and dropping) so that a close by the client is seen.
      socket.resume();
      requests.push(head.slice(0, end + 4));
      Promise.resolve(script(socket, head.slice(0, end + 4))).catch(() => socket.destroy());
    };
    socket.on('data', onData);
  };
  const server: Server = tls === undefined ? createServer(accept) : createTlsServer(tls, accept);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: (path = '/bundle.tar.gz?X-Sig=1') => new URL(`${tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}${path}`),
    get connections() {
      return connections;
    },
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Writes each part, waiting `gapMs` between them; stops when the connection is gone. */
export async function send(socket: Socket, parts: (string | Buffer)[], gapMs = 8): Promise<void> {
  for (const [i, part] of parts.entries()) {
    if (i > 0) await sleep(gapMs);
    if (socket.destroyed) return;
    await new Promise<void>((resolve) => socket.write(part, () => resolve()));
  }
}
