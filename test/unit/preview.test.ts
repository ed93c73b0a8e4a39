import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'undici';
import { contentTypeOf, startPreviewServer, type PreviewServer } from '../../src/core/bundle/serve/bundleServer';
import { recordingLogger } from './support/logger';

const SECRET = 'secret-outside-the-root-7f3a';
const INDEX = '<h1>Home</h1>';
const INSTALL = '<h1>Install guide</h1>';
const REFERENCE = '<h1>Reference index</h1>';
const NOT_FOUND = '<h1>Custom not found</h1>';
const CSS = 'body { color: #333; }';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** The raw bytes a server sent back on a fresh socket, until it closed. */
function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
  });
}

/** Resolves with the error when a connection cannot be made; rejects when it can. */
function connectError(host: string, port: number): Promise<NodeJS.ErrnoException> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, host);
    socket.on('connect', () => {
      socket.destroy();
      reject(new Error(`connected to ${host}:${port}`));
    });
    socket.on('error', (err: NodeJS.ErrnoException) => resolve(err));
  });
}

describe('bundle preview server', function () {
  let base: string;
  let root: string;
  let server: PreviewServer;
  let client: Client;
  let port: number;
  let logged: string[];

  beforeEach(async () => {
    base = mkdtempSync(join(tmpdir(), 'docs-admin-preview-'));
    root = join(base, 'site');
    mkdirSync(join(root, 'guides'), { recursive: true });
    mkdirSync(join(root, 'reference'));
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), INDEX);
    writeFileSync(join(root, 'guides', 'install.html'), INSTALL);
    writeFileSync(join(root, 'reference', 'index.html'), REFERENCE);
    writeFileSync(join(root, '404.html'), NOT_FOUND);
    writeFileSync(join(root, 'assets', 'site.css'), CSS);
    writeFileSync(join(base, 'secret.txt'), SECRET);
    writeFileSync(join(base, 'site.html'), SECRET);
    const log = recordingLogger('preview');
    logged = log.lines;
    server = await startPreviewServer({ root, port: 0, log });
    port = Number(new URL(server.url).port);
    client = new Client(server.url);
  });

  afterEach(async () => {
    await client.close();
    await server.close();
    rmSync(base, { recursive: true, force: true });
  });

  /** The path is sent as written: undici's Client does not resolve `..` or re-encode. */
  async function ask(path: string, method = 'GET', headers: Record<string, string> = {}): Promise<Answer> {
    const res = await client.request({ path, method, headers });
    return { status: res.statusCode, headers: res.headers, body: await res.body.text() };
  }

  it('serves / as index.html with the expected headers', async () => {
    const res = await ask('/');
    assert.equal(res.status, 200);
    assert.equal(res.body, INDEX);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.equal(res.headers['content-length'], String(INDEX.length));
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['cache-control'], 'no-store');
  });

  it('rewrites extensionless paths and folders the way a static host does', async () => {
    for (const path of ['/guides/install', '/guides/install.html', '/guides/install?tab=linux']) {
      const res = await ask(path);
      assert.equal(res.status, 200, path);
      assert.equal(res.body, INSTALL, path);
      assert.match(String(res.headers['content-type']), /^text\/html/, path);
    }
    for (const path of ['/reference', '/reference/', '/reference/index.html']) {
      const res = await ask(path);
      assert.equal(res.status, 200, path);
      assert.equal(res.body, REFERENCE, path);
    }
    const css = await ask('/assets/site.css');
    assert.equal(css.status, 200);
    assert.equal(css.body, CSS);
    assert.match(String(css.headers['content-type']), /^text\/css/);
  });

  it('answers unknown paths with the site\'s own 404.html and status 404', async () => {
    for (const path of ['/nope', '/guides/missing', '/assets/site.css/extra', '/guides/install/']) {
      const res = await ask(path);
      assert.equal(res.status, 404, path);
      assert.equal(res.body, NOT_FOUND, path);
      assert.match(String(res.headers['content-type']), /^text\/html/, path);
    }
  });

  it('answers a plain-text 404 when the site has no 404.html', async () => {
    rmSync(join(root, '404.html'));
    const res = await ask('/nope');
    assert.equal(res.status, 404);
    assert.match(String(res.headers['content-type']), /^text\/plain/);
    assert.ok(!res.body.includes('<h1>'));
  });

  it('never serves anything outside the root, however the path is spelled', async () => {
    const attempts = [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/%2E%2E%2Fsecret.txt',
      '/..%2fsecret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/.%2e/secret.txt',
      '/..\\secret.txt',
      '/%5c..%5csecret.txt',
      '/assets%5c..%5c..%5csecret.txt',
      '/../site', // would rewrite to ../site.html
      `/${encodeURIComponent(join(base, 'secret.txt'))}`,
      `/${join(base, 'secret.txt')}`,
      '/secret.txt%00.html',
      '/%00',
      '/%E0%A4%A',
      '/%',
    ];
    for (const path of attempts) {
      const res = await ask(path);
      assert.ok([400, 403, 404].includes(res.status), `${path} answered ${res.status}`);
      assert.ok(!res.body.includes(SECRET), `${path} served the secret`);
    }
    assert.equal((await ask('/../secret.txt')).status, 403);
    assert.equal((await ask('/%2e%2e/secret.txt')).status, 403);
    assert.equal((await ask('/..%5csecret.txt')).status, 403);
    assert.equal((await ask('/index.html%00')).status, 400);
    assert.equal((await ask('/%E0%A4%A')).status, 400);
  });

  it('refuses a symlink inside the root that points outside it, and follows one that stays inside', async () => {
    symlinkSync(join(base, 'secret.txt'), join(root, 'escape.txt'));
    symlinkSync(base, join(root, 'outside'), 'dir');
    symlinkSync(join(base, 'site.html'), join(root, 'page.html'));
    symlinkSync(join(root, 'index.html'), join(root, 'alias.html'));
    for (const path of ['/escape.txt', '/outside/secret.txt', '/outside/site', '/page']) {
      const res = await ask(path);
      assert.equal(res.status, 403, path);
      assert.ok(!res.body.includes(SECRET), `${path} served the secret`);
    }
    const inside = await ask('/alias');
    assert.equal(inside.status, 200);
    assert.equal(inside.body, INDEX);
  });

  it('answers HEAD with the headers and no body', async () => {
    const text = await rawExchange(port, `HEAD /assets/site.css HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    assert.match(text, /^HTTP\/1\.1 200 /);
    assert.match(text, new RegExp(`\r\ncontent-length: ${CSS.length}\r\n`, 'i'));
    assert.match(text, /\r\ncontent-type: text\/css/i);
    assert.ok(text.endsWith('\r\n\r\n'), 'a body followed the headers');
    assert.ok(!text.includes(CSS));
  });

  it('refuses methods other than GET and HEAD with 405 and Allow', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
      const res = await ask('/index.html', method);
      assert.equal(res.status, 405, method);
      assert.equal(res.headers.allow, 'GET, HEAD', method);
      assert.ok(!res.body.includes(INDEX), method);
    }
  });

  it('answers only requests addressed to a loopback name (any port: forwarded ports differ)', async () => {
    assert.equal((await ask('/', 'GET', { host: `localhost:${port}` })).body, INDEX);
    assert.equal((await ask('/', 'GET', { host: `LocalHost:${port}` })).body, INDEX);
    assert.equal((await ask('/', 'GET', { host: `127.0.0.1:${port + 1}` })).body, INDEX, 'a forwarded port');
    assert.equal((await ask('/', 'GET', { host: '[::1]:8080' })).body, INDEX);
    for (const host of ['evil.example', `evil.example:${port}`, 'localhost', `localhost.evil.example:${port}`, `127.0.0.1.evil.example:${port}`, `127.0.0.2:${port}`]) {
      const res = await ask('/', 'GET', { host });
      assert.ok(res.status === 421 || res.status === 403, `${host} answered ${res.status}`);
      assert.ok(!res.body.includes(INDEX), `${host} was served the site`);
    }
    const noHost = await rawExchange(port, 'GET / HTTP/1.0\r\n\r\n');
    assert.match(noHost, /^HTTP\/1\.1 4\d\d /);
    assert.ok(!noHost.includes(INDEX));
  });

  it('streams a large file whole, with its exact length', async () => {
    const big = Buffer.alloc(4 * 1024 * 1024 + 3, 'abcdefgh');
    writeFileSync(join(root, 'assets', 'big.bin'), big);
    const res = await client.request({ path: '/assets/big.bin', method: 'GET' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/octet-stream');
    assert.equal(res.headers['content-length'], String(big.length));
    assert.ok(Buffer.from(await res.body.arrayBuffer()).equals(big));
  });

  it('logs one debug line per request', async () => {
    await ask('/guides/install');
    await ask('/nope');
    await ask('/', 'POST');
    await new Promise((resolve) => setImmediate(resolve));
    const requests = logged.filter((l) => !l.startsWith('[info]'));
    assert.equal(requests.length, 3, requests.join('\n'));
    assert.match(requests[0] ?? '', /GET "\/guides\/install" -> 200/);
    assert.match(requests[1] ?? '', /-> 404/);
    assert.match(requests[2] ?? '', /POST "\/" -> 405/);
  });

  it('listens on 127.0.0.1 only', async () => {
    assert.equal(server.url, `http://127.0.0.1:${port}/`);
    assert.ok(port > 0);
    // 127.0.0.2 is loopback too: a server bound to 0.0.0.0 would answer there.
    await connectError('127.0.0.2', port);
    await connectError('::1', port);
  });

  it('close() drops open connections promptly, frees the port and can be called again', async () => {
    // A request whose headers never finish would hold a plain server.close() for a minute.
    const pending = connect(port, '127.0.0.1');
    pending.on('error', () => undefined); // the reset is what is expected
    await new Promise<void>((resolve) => pending.on('connect', resolve));
    pending.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    const dropped = new Promise<void>((resolve) => pending.on('close', () => resolve()));
    const started = Date.now();
    await Promise.all([server.close(), server.close()]);
    await dropped;
    assert.ok(Date.now() - started < 2000, `close took ${Date.now() - started} ms`);
    assert.equal((await connectError('127.0.0.1', port)).code, 'ECONNREFUSED');
    await server.close();
  });

  it('rejects when the port is already taken', async () => {
    await assert.rejects(startPreviewServer({ root, port, log: recordingLogger('preview') }), /EADDRINUSE/);
  });

  it('maps extensions to content types', () => {
    const expected: Record<string, string> = {
      'a.html': 'text/html', 'a.css': 'text/css', 'a.js': 'text/javascript', 'a.mjs': 'text/javascript',
      'a.json': 'application/json', 'a.map': 'application/json', 'a.svg': 'image/svg+xml', 'a.png': 'image/png',
      'a.jpg': 'image/jpeg', 'a.JPEG': 'image/jpeg', 'a.gif': 'image/gif', 'a.webp': 'image/webp',
      'a.ico': 'image/x-icon', 'a.woff': 'font/woff', 'a.woff2': 'font/woff2', 'a.ttf': 'font/ttf',
      'a.txt': 'text/plain', 'a.xml': 'application/xml', 'a.pdf': 'application/pdf', 'a.wasm': 'application/wasm',
      'a.exe': 'application/octet-stream', 'README': 'application/octet-stream',
    };
    for (const [name, type] of Object.entries(expected)) assert.equal(contentTypeOf(name).split(';')[0], type, name);
  });
});
