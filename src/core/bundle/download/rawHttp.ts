/**
 * One GET of a bundle link over a direct connection (plain TCP, or TLS with the same trust
 * settings as every other request), read into one buffer that is reused for the whole answer.
 *
 * Why not Node's `http`: it gives each 64 KiB read of the socket a new buffer, so a 1 GiB body
 * allocates 16,000 of them, and V8 answers that much external memory with a full garbage
 * collection every few MiB. Profiled on the CLI downloading 1 GiB over loopback (`perf record`,
 * `--trace-gc`): 66 full collections, about 0.7 s of CPU on V8's helper threads plus the main
 * thread's share, against 0.2 s of user CPU for this reader in all, and a peak RSS of 52 MiB
 * against 112-134 MiB. Sockets take a fixed read buffer (`onread`), HTTP does not; so this is
 * only the answer's framing (RFC 9112: status line, header fields, then a `Content-Length`,
 * chunked, or close-delimited body), for a GET we write ourselves with `Connection: close`.
 *
 * Used only where Node's `http` would have gone straight to the host too: no proxy, and Node's
 * `http` not replaced by the editor's proxy support (or a loopback host, which it leaves
 * alone). Anything else keeps Node's `http` (`storage.ts`).
 */
import * as l10n from '@vscode/l10n';
import type * as http from 'node:http';
import { isIP, connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { AbortedError } from '../../abort';
import type { TlsSettings } from '../../net/network';
import { closedEarly, type BodyHandlers, type StorageResponse } from './response';

export interface RawGetOptions {
  tls: TlsSettings;
  signal?: AbortSignal | undefined;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
}

/** The socket's read buffer: one per connection, for its whole life. */
const READ_BUFFER = 256 * 1024;
/** The status line and header fields together, at most (Node's own limit is 16 KiB). */
const MAX_HEAD = 64 * 1024;
/** Header fields that may appear once only: a second copy is dropped, as Node does. */
const SINGLE = new Set(['content-length', 'content-type', 'content-range', 'etag', 'location', 'last-modified', 'retry-after', 'date', 'server', 'age', 'expires', 'host', 'authorization', 'user-agent']);

function failure(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

function malformed(detail: string): Error {
  return failure('HPE_INVALID', l10n.t('the storage sent an answer that is not valid HTTP ({0})', detail));
}

/** A header value we send: no line breaks or other controls (they would split the request). */
function checkedValue(name: string, value: string): string {
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x08\x0a-\x1f\x7f]/.test(value)) throw failure('ERR_INVALID_CHAR', l10n.t('the header {0} holds a character that may not be sent', name));
  return value;
}

export function requestHead(url: URL, headers: Record<string, string>): string {
  const lines = [`GET ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${checkedValue(name, value)}`);
  lines.push('Connection: close', '', '');
  return lines.join('\r\n');
}

interface Head {
  status: number;
  headers: http.IncomingHttpHeaders;
}

/** A status line and its header fields (the text before the empty line). */
export function parseHead(text: string): Head {
  const lines = text.split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})(?: [^\r\n]*)?$/.exec(lines[0] ?? '');
  if (status === null) throw malformed(l10n.t('status line'));
  const headers: Record<string, string | string[]> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, Math.max(0, colon)).toLowerCase();
    // A field name is a token; the value has no controls but tab.
    // eslint-disable-next-line no-control-regex
    if (colon <= 0 || !/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name) || /[\x00-\x08\x0a-\x1f\x7f]/.test(line)) throw malformed(l10n.t('header field'));
    const value = line.slice(colon + 1).trim();
    const before = headers[name];
    if (name === 'content-length' && before !== undefined && before !== value) throw malformed(l10n.t('two lengths'));
    if (before === undefined) headers[name] = name === 'set-cookie' ? [value] : value;
    else if (Array.isArray(before)) before.push(value);
    else if (!SINGLE.has(name)) headers[name] = `${before}, ${value}`;
  }
  return { status: Number(status[1]), headers };
}

type Framing = { kind: 'none' } | { kind: 'length'; left: number } | { kind: 'chunked' } | { kind: 'close' };

function framingOf(head: Head): Framing {
  if (head.status === 204 || head.status === 304) return { kind: 'none' };
  const te = head.headers['transfer-encoding'];
  const length = head.headers['content-length'];
  if (te !== undefined) {
    if (length !== undefined) throw malformed(l10n.t('a length and a transfer coding'));
    const codings = String(te).toLowerCase().split(',').map((c) => c.trim());
    if (codings[codings.length - 1] !== 'chunked' || codings.length > 1) throw malformed(l10n.t('transfer coding {0}', String(te)));
    return { kind: 'chunked' };
  }
  if (length !== undefined) {
    if (!/^\d{1,16}$/.test(String(length))) throw malformed(l10n.t('length'));
    const left = Number(length);
    // An empty body is whole at once: waiting for more would wait for the close, or time out.
    return left === 0 ? { kind: 'none' } : { kind: 'length', left };
  }
  return { kind: 'close' };
}

/**
 * Decodes a chunked body as it comes, in views of the input: sizes in hex (extensions
 * ignored), each chunk's CRLF, and the trailer section after the last, ignored.
 */
export class ChunkedDecoder {
  private state: 'size' | 'data' | 'dataEnd' | 'trailer' | 'done' = 'size';
  private line = '';
  private left = 0;

  get done(): boolean {
    return this.state === 'done';
  }

  /** Hands the data in `input` to `out`; throws on a malformed body. */
  push(input: Buffer, out: (view: Buffer) => void): void {
    let at = 0;
    while (at < input.length && this.state !== 'done') {
      if (this.state === 'data') {
        const take = Math.min(this.left, input.length - at);
        out(input.subarray(at, at + take));
        at += take;
        this.left -= take;
        if (this.left === 0) this.state = 'dataEnd';
        continue;
      }
      const newline = input.indexOf(0x0a, at);
      const end = newline === -1 ? input.length : newline;
      this.line += input.toString('latin1', at, end);
      at = newline === -1 ? input.length : newline + 1;
      if (this.line.length > 4096) throw malformed(l10n.t('chunk line'));
      if (newline === -1) return;
      const line = this.line.endsWith('\r') ? this.line.slice(0, -1) : this.line;
      this.line = '';
      if (this.state === 'dataEnd') {
        if (line !== '') throw malformed(l10n.t('chunk end'));
        this.state = 'size';
      } else if (this.state === 'size') {
        const size = /^([0-9a-fA-F]{1,13})[ \t]*(?:;.*)?$/.exec(line);
        if (size === null) throw malformed(l10n.t('chunk size'));
        this.left = parseInt(size[1] ?? '', 16);
        this.state = this.left === 0 ? 'trailer' : 'data';
      } else if (line === '') {
        this.state = 'done';
      }
    }
  }
}

/** The answer of one connection: its head, then its body, read into the one buffer. */
class RawResponse implements StorageResponse {
  statusCode = 0;
  headers: http.IncomingHttpHeaders = {};
  private handlers: BodyHandlers | undefined;
  /** Body bytes that came with the head, before anyone read. */
  private early: Buffer | undefined;
  private framing: Framing = { kind: 'none' };
  private readonly chunked = new ChunkedDecoder();
  private finished = false;
  /** The connection ended before anyone read. */
  private closedWith: { error: unknown } | undefined;

  constructor(private readonly socket: Socket) {}

  begin(head: Head, framing: Framing, rest: Buffer): void {
    this.statusCode = head.status;
    this.headers = head.headers;
    this.framing = framing;
    this.early = rest.length > 0 ? Buffer.from(rest) : undefined;
    this.socket.pause();
  }

  read(handlers: BodyHandlers): void {
    this.handlers = handlers;
    const early = this.early;
    this.early = undefined;
    if (this.framing.kind === 'none') return this.finish(undefined);
    if (early !== undefined) this.body(early);
    if (this.closedWith !== undefined) return this.closed(this.closedWith.error);
    if (!this.finished) this.socket.resume();
  }

  pause(): void {
    this.socket.pause();
  }

  resume(): void {
    if (this.handlers !== undefined && !this.finished) this.socket.resume();
  }

  destroy(): void {
    this.finish(closedEarly());
    this.socket.destroy();
  }

  /** Bytes of the body as they come (views of the read buffer). */
  body(view: Buffer): void {
    if (this.finished || this.handlers === undefined) return;
    const { handlers, framing } = this;
    try {
      if (framing.kind === 'length') {
        const take = Math.min(framing.left, view.length);
        framing.left -= take;
        if (take > 0) handlers.data(view.subarray(0, take));
        if (framing.left === 0) this.finish(undefined);
      } else if (framing.kind === 'chunked') {
        this.chunked.push(view, (part) => handlers.data(part));
        if (this.chunked.done) this.finish(undefined);
      } else {
        handlers.data(view);
      }
    } catch (error) {
      this.finish(error);
    }
  }

  /** The connection ended: whole only when its framing says so. */
  closed(error: unknown): void {
    // Nobody reads yet: the first read hears of it, after the bytes that came.
    if (this.handlers === undefined) {
      this.closedWith = { error };
      return;
    }
    this.finish(error ?? (this.framing.kind === 'close' ? undefined : closedEarly()));
  }

  private finish(failure: unknown): void {
    if (this.finished) return;
    this.finished = true;
    this.socket.destroy();
    this.handlers?.end(failure);
  }
}

/** One GET over its own connection; resolves once the head has come. */
export function rawGet(url: URL, headers: Record<string, string>, o: RawGetOptions): Promise<StorageResponse> {
  return new Promise((resolve, reject) => {
    const secure = url.protocol === 'https:';
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const port = Number(url.port || (secure ? 443 : 80));
    let request: string;
    try {
      request = requestHead(url, headers);
    } catch (error) {
      return reject(error instanceof Error ? error : new Error(String(error)));
    }
    const buffer = Buffer.allocUnsafe(READ_BUFFER);
    const collected: Buffer[] = [];
    let response: RawResponse | undefined;
    let settled = false;
    const onread = {
      buffer,
      callback: (length: number, into: Uint8Array): boolean => {
        const view = Buffer.from(into.buffer, into.byteOffset, length);
        if (response !== undefined) {
          response.body(view);
          return true;
        }
        head(view);
        return true;
      },
    };
    const base = { host, port, onread };
    const socket: Socket = secure ? tlsConnect({ ...base, ...o.tls, ...(isIP(host) === 0 ? { servername: host } : {}) }) : netConnect(base);
    const fail = (error: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      socket.destroy();
      reject(error);
    };
    const connectTimer = setTimeout(() => fail(failure('ETIMEDOUT', l10n.t('no connection to {0} within {1} ms', url.host, o.connectTimeoutMs))), o.connectTimeoutMs);
    socket.once('connect', () => clearTimeout(connectTimer));
    socket.setTimeout(o.idleTimeoutMs, () => void socket.destroy(failure('ETIMEDOUT', l10n.t('nothing received for {0} ms', o.idleTimeoutMs))));
    const abort = (): void => void socket.destroy(new AbortedError());
    if (o.signal?.aborted === true) abort();
    o.signal?.addEventListener('abort', abort, { once: true });
    socket.once('close', () => o.signal?.removeEventListener('abort', abort));
    let lastError: unknown;
    socket.on('error', (error) => {
      lastError = error;
      if (response === undefined) fail(error);
    });
    socket.on('close', () => {
      if (response === undefined) fail(lastError instanceof Error ? lastError : closedEarly());
      else response.closed(lastError);
    });
    socket.write(request);

    /** Bytes before the body: the head, after any interim (1xx) answers. */
    function head(view: Buffer): void {
      collected.push(Buffer.from(view));
      let all = collected.length === 1 ? (collected[0] ?? Buffer.alloc(0)) : Buffer.concat(collected);
      for (;;) {
        const end = all.indexOf('\r\n\r\n');
        // However the reads cut it: a long head may come in one read, with its blank line.
        if ((end === -1 ? all.length : end) > MAX_HEAD) return fail(malformed(l10n.t('head too long')));
        if (end === -1) {
          collected.length = 0;
          collected.push(all);
          return;
        }
        let parsed: Head;
        let framing: Framing | undefined;
        try {
          parsed = parseHead(all.toString('latin1', 0, end));
          // Before the promise settles: a throw in here would escape the socket's read callback.
          if (parsed.status < 100 || parsed.status >= 200) framing = framingOf(parsed);
        } catch (error) {
          return fail(error as Error);
        }
        all = all.subarray(end + 4);
        if (framing === undefined) continue;
        settled = true;
        clearTimeout(connectTimer);
        response = new RawResponse(socket);
        response.begin(parsed, framing, all);
        collected.length = 0;
        resolve(response);
        return;
      }
    }
  });
}
