/**
 * The storage side of a bundle download: GETs of a presigned link over Node's own HTTP client
 * (for one large body it moved bytes about three times faster than undici here: 880 against
 * 290 MiB/s, with less memory), with a connect timeout, an idle timeout and redirects checked
 * like any link we open; and the body written to a file in blocks. No Authorization header is
 * ever set here: the link carries its own signature.
 */
import * as l10n from '@vscode/l10n';
import { close, ftruncate, open, writev } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import { checkOpenableLink } from '../../links';
import type { Logger } from '../../log';
import type { Network } from '../../net/network';
import { StorageAgents } from '../../net/storageAgents';
import { redactUrl } from '../../redact';
import { BundleDownloadError } from './errors';

export function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Drops a body we will not read (an error after this is nobody's business). */
export function discard(body: http.IncomingMessage): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** At most 64 KiB of an error body, for its code and message. */
export async function readSmall(body: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      chunks.push(chunk);
      if (size > 65_536) break;
    }
  } catch {
    // A broken error body still has a status.
  }
  discard(body);
  return Buffer.concat(chunks).toString('utf8').slice(0, 65_536);
}

export interface StorageClientOptions {
  /** Proxy and certificate settings; each URL gets its agent from them (direct otherwise). */
  network?: Network;
  signal?: AbortSignal;
  connectTimeoutMs: number;
  /** Nothing sent or received for this long counts as a dropped connection. */
  idleTimeoutMs: number;
  log: Logger;
}

export class StorageClient {
  private readonly agents: StorageAgents;

  constructor(private readonly o: StorageClientOptions) {
    this.agents = new StorageAgents(o.network);
  }

  close(): void {
    this.agents.close();
  }

  /** A GET, following at most 5 redirects to links we would open. */
  async get(url: URL, headers: Record<string, string>): Promise<http.IncomingMessage> {
    let target = url;
    for (let hop = 0; ; hop++) {
      const res = await this.once(target, headers);
      const location = firstHeader(res.headers.location);
      if (![301, 302, 303, 307, 308].includes(res.statusCode ?? 0) || location === undefined) return res;
      discard(res);
      const next = new URL(location, target);
      const verdict = checkOpenableLink(next.href);
      if (!verdict.ok) throw new BundleDownloadError('link', l10n.t('The storage redirected the download to a link that is not followed: {0}.', verdict.reason));
      if (hop >= 5) throw new BundleDownloadError('link', l10n.t('The storage redirected the download more than 5 times ({0}).', redactUrl(next.href)));
      this.o.log.debug(`Bundle download redirected to ${redactUrl(next.href)}.`);
      target = next;
    }
  }

  /** One GET: a connect timeout, then an idle timeout for as long as the answer lasts. */
  private once(url: URL, headers: Record<string, string>): Promise<http.IncomingMessage> {
    const { connectTimeoutMs, idleTimeoutMs } = this.o;
    return new Promise((resolve, reject) => {
      const route = this.agents.for(url);
      const options: https.RequestOptions = { ...route.options, headers, agent: route.agent, ...(this.o.signal === undefined ? {} : { signal: this.o.signal }) };
      const req = route.get(url, options, (res) => {
        clearTimeout(connectTimer);
        resolve(res);
      });
      const fail = (code: string, message: string) => req.destroy(Object.assign(new Error(message), { code }));
      const connectTimer = setTimeout(() => fail('ETIMEDOUT', l10n.t('no connection to {0} within {1} ms', url.host, connectTimeoutMs)), connectTimeoutMs);
      req.on('socket', (socket) => {
        if (!socket.connecting) clearTimeout(connectTimer);
        else socket.once('connect', () => clearTimeout(connectTimer));
      });
      req.setTimeout(idleTimeoutMs, () => fail('ETIMEDOUT', l10n.t('nothing received for {0} ms', idleTimeoutMs)));
      req.on('error', (error) => {
        clearTimeout(connectTimer);
        reject(error);
      });
    });
  }
}

/** Bytes gathered before each write to the file. */
const WRITE_BLOCK = 1024 * 1024;
/**
 * Writes under way at once. With one, the reader waited for the disk before nine blocks in ten
 * (0.3-1.8 s per GiB on a busy machine, as long as a file-system thread waited for a core); with
 * four (libuv's threads), 0.06-0.08 s. Memory: at most this many blocks, plus the one gathering.
 */
const WRITES_IN_FLIGHT = 4;

/** Writes `buffers` at `position`, again for what a short write left. */
export function writeAll(fd: number, buffers: Buffer[], position: number, done: (error: Error | null) => void): void {
  writev(fd, buffers, position, (error, written) => {
    if (error !== null) return done(error);
    let rest = buffers;
    for (let skip = written; skip > 0 && rest.length > 0; ) {
      const first = rest[0] ?? Buffer.alloc(0);
      rest = skip >= first.length ? rest.slice(1) : [first.subarray(skip), ...rest.slice(1)];
      skip -= Math.min(skip, first.length);
    }
    if (rest.length === 0) return done(null);
    writeAll(fd, rest, position + written, done);
  });
}

/**
 * Streams a body into `path` from `start`. The network's chunks (64 KiB at most) are gathered
 * into blocks of about 1 MiB, each handed to the disk as it is in one `writev` (no copy), up to
 * WRITES_IN_FLIGHT at once, each at its own position, while the next is read; when they are all
 * busy, reading pauses, so memory stays flat. What arrived before a drop is written too (it is
 * good for a resume). If a write fails, the file is cut back to the blocks before it, so that
 * it never holds a gap that a resume would take for data. Resolves with the error that ended it
 * early, if any.
 *
 * Plain stream events and fs callbacks: async iteration and FileHandle promises cost a promise
 * round trip for each of the 16,000 chunks of a GiB, and gathering with Buffer.concat a copy.
 * `write` is the block writer (tests give one that fails on cue).
 */
export function writeBody(body: http.IncomingMessage, path: string, start: number, onChunk: (bytes: number) => void, write = writeAll): Promise<unknown> {
  return writeBlocks(body, path, start, onChunk, write, undefined).then((r) => r.failure);
}

/** The storage sent more bytes than the range asked for (they were not written). */
export const PAST_RANGE = 'EPASTRANGE';

/**
 * Streams a body into its range of a file that other ranges write too: opened as it is (never
 * truncated), at most `length` bytes written from `start`. Resolves with the error that ended
 * it early, if any, and where the bytes that reached the disk end, without a gap: the resume
 * point. A write that fails is not cut back (the other ranges' bytes are in the same file).
 */
export function writeRange(body: http.IncomingMessage, path: string, start: number, length: number, onChunk: (bytes: number) => void, write = writeAll): Promise<{ failure: unknown; end: number }> {
  return writeBlocks(body, path, start, onChunk, write, length);
}

function writeBlocks(body: http.IncomingMessage, path: string, start: number, onChunk: (bytes: number) => void, write: typeof writeAll, limit: number | undefined): Promise<{ failure: unknown; end: number }> {
  return new Promise((resolve) => {
    let fd: number | undefined;
    let position = start;
    let pending: Buffer[] = [];
    let size = 0;
    let inFlight = 0;
    let ended = false;
    let settled = false;
    let failure: unknown;
    /** Where the first failed block began: the file is cut back to it. */
    let cutAt: number | undefined;
    /** Bytes taken from the body, for the limit. */
    let taken = 0;
    const settle = (): void => {
      if (settled || inFlight > 0) return;
      settled = true;
      if (failure !== undefined) discard(body);
      const end = cutAt ?? position;
      if (fd === undefined) return resolve({ failure, end });
      const file = fd;
      const finish = (): void => close(file, () => resolve({ failure, end }));
      if (cutAt === undefined || limit !== undefined) finish();
      else ftruncate(file, cutAt, finish);
    };
    const next = (): void => {
      if (fd === undefined || settled || inFlight >= WRITES_IN_FLIGHT) return;
      if (size === 0 || (size < WRITE_BLOCK && !ended)) {
        if (ended) settle();
        return;
      }
      const block = pending;
      const at = position;
      position += size;
      pending = [];
      size = 0;
      inFlight++;
      write(fd, block, at, (error) => {
        inFlight--;
        if (error !== null) {
          failure ??= error;
          cutAt = Math.min(cutAt ?? at, at);
          ended = true;
          pending = [];
          size = 0;
          return settle();
        }
        next();
        if (!ended && size < WRITE_BLOCK) body.resume();
      });
    };
    const stop = (error?: unknown): void => {
      if (ended) return;
      if (error !== undefined) failure ??= error;
      ended = true;
      next();
    };
    // Nothing flows until the file is open.
    body.pause();
    body.on('data', (data: Buffer) => {
      if (ended) return;
      let chunk = data;
      if (limit !== undefined && taken + chunk.length > limit) {
        chunk = chunk.subarray(0, limit - taken);
        failure ??= Object.assign(new Error(l10n.t('the storage sent more than the byte range asked for')), { code: PAST_RANGE });
        ended = true;
      }
      taken += chunk.length;
      pending.push(chunk);
      size += chunk.length;
      onChunk(chunk.length);
      if (ended) return next();
      if (size < WRITE_BLOCK) return;
      if (inFlight >= WRITES_IN_FLIGHT) body.pause();
      else next();
    });
    body.on('end', () => stop());
    body.on('error', (error) => stop(error));
    body.on('close', () => stop(body.complete ? undefined : Object.assign(new Error(l10n.t('the connection closed before the body ended')), { code: 'ECONNRESET' })));
    open(path, start === 0 && limit === undefined ? 'w' : 'r+', (error, opened) => {
      if (error !== null) {
        failure ??= error;
        ended = true;
        return settle();
      }
      fd = opened;
      if (ended) next();
      else body.resume();
    });
  });
}
