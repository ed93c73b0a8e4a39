/**
 * Loopback TCP relays in front of the simulator's storage, for the download benchmark: one that
 * drops the first connection half-way (and counts every byte of the answers it passes on), and
 * one that holds each connection to a speed and adds latency to each request, as object stores
 * and the links to them often do. They pass TLS through as it is (an https store behind them
 * is still https, with its own certificate). The link's signature does not cover the host, so a
 * link works through either (`via`, or the simulator's `setLinkOrigin`).
 */
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export interface Relay {
  /** `http://host:port` of the relay. */
  readonly origin: string;
  /** The link, through the relay. */
  via(link: string): string;
  /** Response body bytes passed on to the client, every connection counted. */
  readonly bodyBytes: number;
  readonly connections: number;
  close(): Promise<void>;
}

/**
 * A loopback TCP relay to the storage that ends the first connection (a FIN, as a server or
 * proxy that gives up does) once `cutAfter` body bytes have passed, and counts the body bytes
 * it passes on. Over TLS the answers are ciphertext: then every byte from the store counts
 * (heads, TLS records and handshakes too, so the count is a little above the body's).
 */
export async function droppingRelay(storage: URL, cutAfter: number): Promise<Relay> {
  const sockets = new Set<Socket>();
  const state = { bodyBytes: 0, connections: 0 };
  const server = createServer((client) => {
    const first = ++state.connections === 1;
    const upstream = connect(Number(storage.port), storage.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('end', () => client.end());
    client.on('drain', () => upstream.resume());
    client.pipe(upstream);
    let head = Buffer.alloc(0);
    let inBody = storage.protocol === 'https:';
    let passed = 0;
    upstream.on('data', (chunk: Buffer) => {
      let body = chunk;
      if (!inBody) {
        // One response per connection here: the headers end at the first blank line.
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) {
          client.write(chunk);
          return;
        }
        inBody = true;
        body = head.subarray(end + 4);
        client.write(chunk.subarray(0, chunk.length - body.length));
      }
      if (first && passed + body.length >= cutAfter) {
        const part = body.subarray(0, cutAfter - passed);
        passed += part.length;
        state.bodyBytes += part.length;
        upstream.destroy();
        client.end(part);
        return;
      }
      passed += body.length;
      state.bodyBytes += body.length;
      if (!client.write(body)) upstream.pause();
    });
  });
  const port = await listen(server, storage.hostname);
  return {
    origin: `${storage.protocol}//${storage.hostname}:${port}`,
    via(link) {
      const url = new URL(link);
      url.port = String(port);
      return url.href;
    },
    get bodyBytes() {
      return state.bodyBytes;
    },
    get connections() {
      return state.connections;
    },
    close: () => close(server, sockets),
  };
}

/**
 * A relay that holds each connection to `bytesPerSecond` (the answer's bytes, paced as they
 * pass) and passes each request on `latencyMs` late, so every answer's first byte comes that
 * much later: a store that caps each connection, a link with a round trip. (Its `bodyBytes`
 * counts the answers' headers too.)
 */
export async function cappedRelay(storage: URL, bytesPerSecond: number, latencyMs: number): Promise<Relay> {
  const sockets = new Set<Socket>();
  const state = { bodyBytes: 0, connections: 0 };
  const server = createServer((client) => {
    state.connections++;
    const upstream = connect(Number(storage.port), storage.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('end', () => client.end());
    client.on('data', (chunk: Buffer) => {
      setTimeout(() => upstream.write(chunk), latencyMs);
    });
    /** When the connection may send its next byte. */
    let free = 0;
    upstream.on('data', (chunk: Buffer) => {
      state.bodyBytes += chunk.length;
      client.write(chunk);
      const now = performance.now();
      free = Math.max(free, now) + (chunk.length / bytesPerSecond) * 1000;
      const wait = free - now;
      if (wait >= 1) {
        upstream.pause();
        setTimeout(() => upstream.resume(), wait);
      }
    });
  });
  const port = await listen(server, storage.hostname);
  return {
    origin: `${storage.protocol}//${storage.hostname}:${port}`,
    via(link) {
      const url = new URL(link);
      url.port = String(port);
      return url.href;
    },
    get bodyBytes() {
      return state.bodyBytes;
    },
    get connections() {
      return state.connections;
    },
    close: () => close(server, sockets),
  };
}

function listen(server: Server, host: string): Promise<number> {
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(0, host, () => done((server.address() as AddressInfo).port));
  });
}

function close(server: Server, sockets: Set<Socket>): Promise<void> {
  return new Promise<void>((done) => {
    for (const socket of sockets) socket.destroy();
    server.close(() => done());
  });
}
