/**
 * Serves an extracted static export on this machine, for previewing a bundle before it ships.
 *
 * Requests map to files the way a static host maps them: `/path` is the file itself, else
 * `path.html`, else `path/index.html`; a path ending in `/` is its `index.html`. What matches
 * nothing gets the site's own `404.html` (status 404) when it has one.
 *
 * Nothing outside the root is served. The path is percent-decoded once (malformed encodings
 * and NUL are 400), backslashes are refused, a `..` segment is refused (browsers resolve those
 * before sending, so only a crafted request has one), and every file is resolved with
 * `realpath` and served only when its real path is inside the root's real path, so a symlink
 * in the export cannot lead out of it (403).
 *
 * The server listens on 127.0.0.1 only and answers only requests addressed to a loopback name
 * (`127.0.0.1`, `localhost`, `[::1]`) with a port: a page on another site whose name an
 * attacker points at 127.0.0.1 (DNS rebinding) sends its own name as Host and is refused (421).
 * Any port is accepted, because a forwarded port (Remote SSH, a dev container) reaches the
 * server under the port the client chose.
 */
import * as l10n from '@vscode/l10n';
import { open, realpath, type FileHandle } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, sep } from 'node:path';
import { pipeline } from 'node:stream';
import { silentLogger, type Logger } from '../../log';

export interface PreviewOptions {
  /** The extracted export folder. */
  root: string;
  host?: '127.0.0.1';
  /** 0, the default, takes any free port. */
  port?: number;
  log?: Logger;
}

export interface PreviewServer {
  /** `http://127.0.0.1:PORT/` */
  readonly url: string;
  /** The folder served, as given. */
  readonly root: string;
  /** Stops listening and drops every connection, finished or not. Safe to call again. */
  close(): Promise<void>;
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.pdf': 'application/pdf',
  '.wasm': 'application/wasm',
};

/** The Content-Type for a file name, by its extension. */
export function contentTypeOf(name: string): string {
  return TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';
}

type Resolved = { ok: true; segments: string[]; dir: boolean } | { ok: false; status: 400 | 403 };

/**
 * The path segments a request target names, or why it is refused. Pure: no file system.
 * `dir` is true when the path ends in `/` (or is the root).
 */
export function requestSegments(target: string): Resolved {
  const raw = target.split(/[?#]/, 1)[0] ?? '';
  if (!raw.startsWith('/')) return { ok: false, status: 400 };
  let path: string;
  try {
    path = decodeURIComponent(raw);
  } catch {
    return { ok: false, status: 400 };
  }
  if (path.includes('\0')) return { ok: false, status: 400 };
  if (path.includes('\\')) return { ok: false, status: 403 };
  const parts = path.split('/');
  if (parts.includes('..')) return { ok: false, status: 403 };
  return { ok: true, segments: parts.filter((p) => p !== '' && p !== '.'), dir: path.endsWith('/') };
}

/** The files a request may mean, in the order a static host tries them. */
function candidates(segments: string[], dir: boolean): string[] {
  const rel = segments.join('/');
  if (dir || rel === '') return [rel === '' ? 'index.html' : `${rel}/index.html`];
  return [rel, `${rel}.html`, `${rel}/index.html`];
}

const MISSING = new Set(['ENOENT', 'ENOTDIR', 'ENAMETOOLONG', 'EISDIR']);

function isMissing(err: unknown): boolean {
  return err instanceof Error && MISSING.has((err as NodeJS.ErrnoException).code ?? '');
}

interface Found {
  handle: FileHandle;
  size: number;
  name: string;
}

/** Opens the first candidate that is a regular file inside the real root. */
async function find(realRoot: string, rels: string[]): Promise<Found | 'missing' | 'outside'> {
  for (const rel of rels) {
    let real: string;
    try {
      real = await realpath(join(realRoot, rel));
    } catch (err) {
      if (isMissing(err)) continue;
      throw err;
    }
    if (real !== realRoot && !real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep)) return 'outside';
    let handle: FileHandle;
    try {
      handle = await open(real, 'r');
    } catch (err) {
      if (isMissing(err)) continue;
      throw err;
    }
    const stat = await handle.stat().catch(async (err: unknown) => {
      await handle.close();
      throw err;
    });
    if (stat.isFile()) return { handle, size: stat.size, name: real };
    await handle.close();
  }
  return 'missing';
}

/** A short plain-text answer: one line, in the editor's language (only a browser shows it). */
function sendText(res: ServerResponse, status: number, line: string, headers: Record<string, string> = {}): void {
  const text = `${line}\n`;
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(text);
}

function sendFile(req: IncomingMessage, res: ServerResponse, status: number, file: Found, log: Logger): void {
  res.writeHead(status, {
    'Content-Type': contentTypeOf(file.name),
    'Content-Length': file.size,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  });
  if (req.method === 'HEAD' || file.size === 0) {
    res.end();
    void file.handle.close();
    return;
  }
  // No further than the size sent, should the file grow meanwhile. The stream closes the handle.
  pipeline(file.handle.createReadStream({ start: 0, end: file.size - 1 }), res, (err) => {
    if (err && err.code !== 'ERR_STREAM_PREMATURE_CLOSE') log.warn(`preview: reading ${file.name} failed: ${err.message}`);
  });
}

/** `127.0.0.1:PORT`, `localhost:PORT` or `[::1]:PORT`, whatever the port. */
export function isLoopbackHostHeader(host: string | undefined): boolean {
  return /^(127\.0\.0\.1|localhost|\[::1\]):\d{1,5}$/.test((host ?? '').toLowerCase());
}

function createHandler(realRoot: string, log: Logger) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!isLoopbackHostHeader(req.headers.host)) return sendText(res, 421, l10n.t('This preview only answers on 127.0.0.1 or localhost.'));
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, l10n.t('Method not allowed.'), { Allow: 'GET, HEAD' });
    const target = requestSegments(req.url ?? '');
    if (!target.ok) return sendText(res, target.status, target.status === 400 ? l10n.t('Bad request.') : l10n.t('Forbidden.'));
    const found = await find(realRoot, candidates(target.segments, target.dir));
    if (found === 'outside') return sendText(res, 403, l10n.t('Forbidden.'));
    if (found !== 'missing') return sendFile(req, res, 200, found, log);
    const page = await find(realRoot, ['404.html']);
    if (typeof page === 'object') return sendFile(req, res, 404, page, log);
    return sendText(res, 404, l10n.t('Not found.'));
  };
}

/** Starts serving `root` on 127.0.0.1. Rejects when the port cannot be bound. */
export async function startPreviewServer(options: PreviewOptions): Promise<PreviewServer> {
  const log = options.log ?? silentLogger;
  const realRoot = await realpath(options.root);
  const handle = createHandler(realRoot, log);
  const server = createServer((req, res) => {
    res.on('close', () => log.debug(`preview: ${req.method ?? '?'} ${JSON.stringify((req.url ?? '').slice(0, 300))} -> ${res.statusCode}`));
    handle(req, res).catch((err: unknown) => {
      log.error(`preview: ${req.url ?? ''} failed: ${err instanceof Error ? err.message : String(err)}`);
      if (res.headersSent) res.destroy();
      else sendText(res, 500, l10n.t('Internal error.'));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/`;
  log.info(`preview: serving ${realRoot} at ${url}`);

  let closing: Promise<void> | undefined;
  return {
    url,
    root: options.root,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
