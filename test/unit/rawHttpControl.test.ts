/**
 * The direct-connection reader (rawHttp.ts) against a raw TCP server: heads it must refuse, the
 * request it must not send, the idle timeout, cancellation, and the reader's control of the
 * body (pause, resume, destroy). The framing of bodies: rawHttp.test.ts.
 */
import * as assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { AbortedError } from '../../src/core/abort';
import { rawGet, requestHead, type RawGetOptions } from '../../src/core/bundle/download/rawHttp';
import { collect, cut, rawServer, send, type RawServer, type Script } from './support/rawServer';

const OPTIONS: RawGetOptions = { tls: {}, connectTimeoutMs: 5000, idleTimeoutMs: 5000 };

function codeOf(error: unknown): unknown {
  return (error as { code?: unknown } | undefined)?.code;
}

describe('rawHttp: heads, timeouts and control', function () {
  let server: RawServer | undefined;

  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  async function get(script: Script, over: Partial<RawGetOptions> = {}, headers: Record<string, string> = {}) {
    await server?.stop();
    server = await rawServer(script);
    return rawGet(server.url(), headers, { ...OPTIONS, ...over });
  }

  /** rawGet over an answer sent in `parts`, which must reject as not valid HTTP (`detail`). */
  async function refused(parts: (string | Buffer)[], detail: RegExp): Promise<void> {
    const promise = get((s) => send(s, parts));
    await assert.rejects(promise, (error: unknown) => {
      assert.equal(codeOf(error), 'HPE_INVALID');
      assert.match(String(error), /not valid HTTP/);
      assert.match(String(error), detail);
      return true;
    });
    // The connection is dropped, not left open.
    await server?.closed[0];
  }

  it('refuses a bad status line', async () => {
    await refused(['HTTP/1.1 2OO OK\r\nContent-Length: 0\r\n\r\n'], /status line/);
    await refused(['HTTP/2 200 OK\r\n', '\r\n'], /status line/);
    await refused(['ICY 200 OK\r\n\r\n'], /status line/);
  });

  it('refuses a header line without a colon, and one with a space in its name', async () => {
    await refused(['HTTP/1.1 200 OK\r\nContent-Length 5\r\n\r\nhello'], /header field/);
    await refused(['HTTP/1.1 200 OK\r\nContent Length: 5\r\n\r\nhello'], /header field/);
    await refused(['HTTP/1.1 200 OK\r\n: empty name\r\n\r\n'], /header field/);
  });

  it('refuses a head larger than 64 KiB, in many reads or in one', async () => {
    const big = `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(70 * 1024)}\r\nContent-Length: 1\r\n\r\nx`;
    // No blank line ever comes: the limit alone must end it, however the reads are cut.
    await refused(cut(big.slice(0, 66 * 1024), [16 * 1024, 40 * 1024, 64 * 1024 + 1]), /head too long/);
    await refused([big], /head too long/);
  });

  it('refuses two different Content-Length values, and takes the same one twice', async () => {
    await refused(['HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!'], /two lengths/);
    const res = await get((s) => send(s, ['HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello']));
    assert.deepEqual(await collect(res).done, { body: Buffer.from('hello'), failure: undefined });
  });

  it('refuses Transfer-Encoding with Content-Length (RFC 9112 6.3: ought to be handled as an error)', async () => {
    await refused(['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n5\r\nhello\r\n0\r\n\r\n'], /a length and a transfer coding/);
  });

  it('refuses a transfer coding other than chunked, and a bad length', async () => {
    await refused(['HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n'], /transfer coding gzip, chunked/);
    await refused(['HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n'], /length/);
  });

  it('requestHead refuses CR or LF in a header value, and nothing is sent', async () => {
    const url = new URL('http://127.0.0.1:1/x?y=1');
    for (const value of ['a\r\nX-Injected: 1', 'a\nb', 'a\rb', 'a\u0000b']) {
      assert.throws(() => requestHead(url, { Range: value }), (e: unknown) => codeOf(e) === 'ERR_INVALID_CHAR' && /the header Range holds a character/.test(String(e)));
    }
    assert.match(requestHead(url, { Range: 'a\tb' }), /\r\nRange: a\tb\r\n/);
    server = await rawServer(() => undefined);
    await assert.rejects(rawGet(server.url(), { Range: 'bytes=0-\r\nX-Injected: 1' }, OPTIONS), (e: unknown) => codeOf(e) === 'ERR_INVALID_CHAR');
    await sleep(50);
    assert.equal(server.connections, 0);
  });

  it('times out when nothing comes: before the head, and mid-body', async () => {
    const started = Date.now();
    await assert.rejects(
      get(() => undefined, { idleTimeoutMs: 150 }),
      (e: unknown) => codeOf(e) === 'ETIMEDOUT' && /nothing received for 150 ms/.test(String(e)),
    );
    assert.ok(Date.now() - started >= 140, 'not before the idle time');
    const res = await get((s) => send(s, ['HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n', '012']), { idleTimeoutMs: 150 });
    const { body, failure } = await collect(res).done;
    assert.equal(body.toString(), '012');
    assert.equal(codeOf(failure), 'ETIMEDOUT');
    await server?.closed[0];
  });

  it('ends with AbortedError when aborted before the connection, before the head, and mid-body', async () => {
    await assert.rejects(get(() => undefined, { signal: AbortSignal.abort() }), AbortedError);
    await sleep(30);
    assert.equal(server?.connections, 0);

    const before = new AbortController();
    const pending = get(() => void setTimeout(() => before.abort(), 20), { signal: before.signal });
    await assert.rejects(pending, AbortedError);
    await server?.closed[0];

    const mid = new AbortController();
    const res = await get((s) => send(s, ['HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123', '4567']), { signal: mid.signal });
    const read = collect(res, (_, parts) => {
      if (parts.length === 1) setTimeout(() => mid.abort(), 40);
    });
    const { body, failure } = await read.done;
    assert.equal(body.toString(), '01234567');
    assert.ok(failure instanceof AbortedError, String(failure));
    await server?.closed[0];
  });

  it('pause(): no data while paused though the server sends on; resume(): the rest, whole', async () => {
    const parts = Array.from({ length: 6 }, (_, i) => Buffer.alloc(1000, 0x41 + i));
    const res = await get((s) => send(s, ['HTTP/1.1 200 OK\r\nContent-Length: 6000\r\n\r\n', ...parts], 15));
    let paused = false;
    let whilePaused = 0;
    const read = collect(res, (_, got) => {
      if (paused) whilePaused++;
      if (got.length === 1) {
        paused = true;
        res.pause();
        setTimeout(() => {
          paused = false;
          res.resume();
        }, 200);
      }
    });
    const { body, failure } = await read.done;
    assert.equal(whilePaused, 0);
    assert.equal(failure, undefined);
    assert.deepEqual(body, Buffer.concat(parts));
    // The server sent on while the reader was paused: it came in fewer reads after.
    assert.ok(read.parts.length < 6, `${read.parts.length} reads`);
  });

  it('destroy() mid-body: the body ends as closed early, and the server sees the close', async () => {
    const res = await get((s) => send(s, ['HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n', '0123456789']));
    const read = collect(res, () => res.destroy());
    const { body, failure } = await read.done;
    assert.equal(body.toString(), '0123456789');
    assert.equal(codeOf(failure), 'ECONNRESET');
    assert.match(String(failure), /closed before the body ended/);
    await server?.closed[0];
    await sleep(20);
    assert.deepEqual(read.late, []);
  });
});
