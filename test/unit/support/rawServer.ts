/**
 * A raw TCP server for the direct-connection reader (rawHttp.ts): each connection's request head
 * is read and kept, then a script writes the exact bytes of the answer, in parts with small
 * gaps so that the client sees separate reads. And a reader of a `StorageResponse` body that
 * copies each view (views last only for the call) and notes anything after the end.
 */
import { createServer, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { StorageResponse } from '../../../src/core/bundle/download/response';

export type Script = (socket: Socket, request: string) => Promise<void> | void;

export interface RawServer {
  url(path?: string): URL;
  /** Connections accepted so far. */
  readonly connections: number;
  /** Each connection's request head, as received. */
  readonly requests: string[];
  /** Per connection: resolves when the server's side of it has closed. */
  readonly closed: Promise<void>[];
  stop(): Promise<void>;
}

export async function rawServer(script: Script): Promise<RawServer> {
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  const closed: Promise<void>[] = [];
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('error', () => undefined);
    closed.push(new Promise((resolve) => socket.once('close', () => resolve())));
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
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: (path = '/bundle.tar.gz?X-Sig=1') => new URL(`http://127.0.0.1:${port}${path}`),
    get connections() {
      return connections;
    },
    requests,
    closed,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Writes each part, waiting `gapMs` between them (each write is flushed at once: no Nagle). */
export async function send(socket: Socket, parts: (string | Buffer)[], gapMs = 8): Promise<void> {
  for (const [i, part] of parts.entries()) {
    if (i > 0) await sleep(gapMs);
    if (socket.destroyed) return;
    await new Promise<void>((resolve) => socket.write(part, () => resolve()));
  }
}

/** `text` cut at the given offsets (ascending). */
export function cut(text: string | Buffer, offsets: number[]): Buffer[] {
  const all = Buffer.from(text);
  const parts: Buffer[] = [];
  let from = 0;
  for (const at of offsets) {
    parts.push(all.subarray(from, at));
    from = at;
  }
  parts.push(all.subarray(from));
  return parts.filter((p) => p.length > 0);
}

/** `text` cut before each occurrence of each marker, and `within` bytes into it. */
export function cutAt(text: string, markers: [string, number][]): Buffer[] {
  const offsets = markers.map(([marker, within]) => {
    const at = text.indexOf(marker);
    if (at === -1) throw new Error(`no ${JSON.stringify(marker)} in the answer`);
    return Buffer.byteLength(text.slice(0, at)) + within;
  });
  return cut(text, [...new Set(offsets)].sort((a, b) => a - b));
}

export interface Collected {
  /** Resolves at the first `end`. */
  done: Promise<{ body: Buffer; failure: unknown }>;
  /** Views received so far (copies). */
  readonly parts: Buffer[];
  /** Calls of `data` or `end` after the first `end`. */
  readonly late: string[];
}

/** Reads a body, copying each view. */
export function collect(res: StorageResponse, onData?: (view: Buffer, parts: Buffer[]) => void): Collected {
  const parts: Buffer[] = [];
  const late: string[] = [];
  let ended = false;
  const done = new Promise<{ body: Buffer; failure: unknown }>((resolve) => {
    res.read({
      data: (view) => {
        if (ended) return void late.push('data');
        parts.push(Buffer.from(view));
        onData?.(view, parts);
      },
      end: (failure) => {
        if (ended) return void late.push('end');
        ended = true;
        resolve({ body: Buffer.concat(parts), failure });
      },
    });
  });
  return { done, parts, late };
}
