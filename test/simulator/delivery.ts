/**
 * How the simulated object store sends a bundle's bytes, for the download's tests: in many small
 * writes (over TLS, one record each) with or without a pause between them, with one byte of the
 * stored object flipped (the length stays right, as a store holding a damaged object sends it),
 * and a count of the GETs it is serving at once (so a test can tell ranges that run together
 * from ranges that run one after another).
 */
import type { ServerResponse } from 'node:http';

export interface StorageDelivery {
  /** Sends each answer's body in writes of this many bytes (each its own TLS record over TLS). */
  pieceBytes?: number;
  /** Waits this long between two writes (an answer that takes a while). */
  pieceGapMs?: number;
  /** The byte at this offset of the stored object is sent flipped (XOR 0xff), in whatever range holds it. */
  flipByteAt?: number;
}

/** The bytes of `body` (the object from `start` on) as the store sends them: one byte flipped if asked. */
export function shaped(body: Buffer, start: number, delivery: StorageDelivery): Buffer {
  const at = delivery.flipByteAt;
  if (at === undefined || at < start || at >= start + body.length) return body;
  const copy = Buffer.from(body);
  copy[at - start] = (copy[at - start] ?? 0) ^ 0xff;
  return copy;
}

/** GETs the store is answering right now, and the most at once since the last reset. */
export class Concurrency {
  now = 0;
  max = 0;

  /** Counts `res` until it closes (answered, or dropped). */
  track(res: ServerResponse): void {
    this.now++;
    this.max = Math.max(this.max, this.now);
    res.once('close', () => this.now--);
  }

  reset(): void {
    this.max = this.now;
  }
}

/**
 * Writes `body` in pieces of `pieceBytes`, as fast as the client reads, pausing `pieceGapMs`
 * between pieces when asked; stops when the client goes away.
 */
export async function sendInPieces(res: ServerResponse, body: Buffer, delivery: StorageDelivery, sleep: (ms: number) => Promise<void>): Promise<void> {
  const size = Math.max(1, delivery.pieceBytes ?? body.length);
  let closed = false;
  res.once('close', () => (closed = true));
  for (let at = 0; at < body.length && !closed; at += size) {
    const more = res.write(body.subarray(at, at + size));
    if (!more && !closed) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
    if ((delivery.pieceGapMs ?? 0) > 0) await sleep(delivery.pieceGapMs ?? 0);
  }
  if (!closed) res.end();
}
