/**
 * The direct-connection reader (rawHttp.ts) against a raw TCP server writing exact bytes, cut
 * at chosen points: the framing of a body (length, chunked, close), interim answers, and
 * connections that drop before the body is whole. Heads, timeouts and control: rawHttpControl.
 */
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ChunkedDecoder, rawGet, type RawGetOptions } from '../../src/core/bundle/download/rawHttp';
import { collect, cut, cutAt, rawServer, send, type RawServer, type Script } from './support/rawServer';

const OPTIONS: RawGetOptions = { tls: {}, connectTimeoutMs: 5000, idleTimeoutMs: 5000 };

function codeOf(error: unknown): unknown {
  return (error as { code?: unknown } | undefined)?.code;
}

describe('rawHttp: body framing', function () {
  let server: RawServer | undefined;

  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  async function get(script: Script, headers: Record<string, string> = {}) {
    await server?.stop();
    server = await rawServer(script);
    return rawGet(server.url(), headers, OPTIONS);
  }

  it('sends a GET with Host, the given headers and Connection: close', async () => {
    const res = await get((s) => void s.end('HTTP/1.1 204 No Content\r\n\r\n'), { Range: 'bytes=5-' });
    assert.equal(res.statusCode, 204);
    assert.deepEqual((await collect(res).done).body, Buffer.alloc(0));
    const port = server?.url().port ?? '';
    assert.equal(server?.requests[0], `GET /bundle.tar.gz?X-Sig=1 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nRange: bytes=5-\r\nConnection: close\r\n\r\n`);
  });

  it('reads a Content-Length body that comes in many reads, after a head cut mid-CRLF', async () => {
    const body = randomBytes(5000);
    const head = 'HTTP/1.1 200 OK\r\nContent-Length: 5000\r\nETag: "abc"\r\n\r\n';
    // The head cut after a CR, after the first CRLF of the blank line, and inside a name.
    const parts = [...cutAt(head, [['\r\nContent', 1], ['ETag', 2], ['\r\n\r\n', 3]]), ...cut(body, [1, 700, 701, 2048, 4999])];
    const res = await get((s) => send(s, parts));
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-length'], '5000');
    assert.equal(res.headers.etag, '"abc"');
    const read = collect(res);
    const { body: got, failure } = await read.done;
    assert.equal(failure, undefined);
    assert.deepEqual(got, body);
    assert.ok(read.parts.length >= 2, `the body came in ${read.parts.length} reads`);
  });

  it('stops at Content-Length: bytes past it are not delivered', async () => {
    const res = await get((s) => send(s, ['HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456', '789ABCDEF']));
    const read = collect(res);
    assert.deepEqual(await read.done, { body: Buffer.from('0123456789'), failure: undefined });
    await sleep(30);
    assert.deepEqual(read.late, []);
  });

  it('ends an empty Content-Length body at once, whole', async () => {
    // The server keeps the connection open: the end must not wait for (or need) a close.
    const res = await get((s) => send(s, ['HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n']));
    assert.deepEqual(await collect(res).done, { body: Buffer.alloc(0), failure: undefined });
  });

  const CHUNKED = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n' + '5;ext=1\r\nhello\r\n' + '1A ; name="v"\r\nabcdefghijklmnopqrstuvwxyz\r\n' + '3\r\n\r\n!\r\n' + '0;last\r\nX-Checksum: 12\r\nX-More: 3\r\n\r\n';
  const CHUNKED_BODY = 'helloabcdefghijklmnopqrstuvwxyz\r\n!';

  it('decodes chunks cut inside the size line, inside CRLFs and inside the data, with extensions and trailers', async () => {
    const parts = cutAt(CHUNKED, [
      ['\r\n\r\n5', 2], // the blank line after the head, between its CRLFs
      ['5;ext', 2], // inside the extension
      ['hello', 3], // inside the data
      ['\r\n1A', 1], // between the CR and the LF that end a chunk
      ['1A ', 1], // inside the size
      ['ijk', 0],
      ['xyz\r\n', 4], // between the CR and LF after the data
      ['!\r\n0', 2],
      ['0;last', 1],
      ['X-Checksum', 5], // inside a trailer
      ['X-More: 3\r\n\r', 12], // inside the final CRLF
    ]);
    const res = await get((s) => send(s, parts));
    const read = collect(res);
    assert.deepEqual(await read.done, { body: Buffer.from(CHUNKED_BODY), failure: undefined });
    assert.ok(read.parts.length >= 2, `the body came in ${read.parts.length} reads`);
  });

  it('decodes a chunked answer sent one byte per write', async () => {
    const bytes = Buffer.from(CHUNKED);
    const res = await get((s) => send(s, cut(bytes, Array.from({ length: bytes.length - 1 }, (_, i) => i + 1)), 1));
    assert.deepEqual(await collect(res).done, { body: Buffer.from(CHUNKED_BODY), failure: undefined });
  });

  it('ChunkedDecoder: the same body for every way of cutting the input in three', () => {
    const input = Buffer.from(CHUNKED.slice(CHUNKED.indexOf('\r\n\r\n') + 4));
    for (let i = 0; i <= input.length; i++) {
      for (let j = i; j <= input.length; j++) {
        const decoder = new ChunkedDecoder();
        const out: Buffer[] = [];
        for (const part of [input.subarray(0, i), input.subarray(i, j), input.subarray(j)]) decoder.push(part, (v) => out.push(Buffer.from(v)));
        assert.equal(Buffer.concat(out).toString('latin1'), CHUNKED_BODY, `cut at ${i} and ${j}`);
        assert.ok(decoder.done, `done, cut at ${i} and ${j}`);
      }
    }
  });

  it('ends a chunked body with a bad size line as not valid HTTP', async () => {
    const res = await get((s) => send(s, ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n', '3\r\nabc\r\n', 'zz\r\nno\r\n0\r\n\r\n']));
    const { body, failure } = await collect(res).done;
    assert.equal(body.toString(), 'abc');
    assert.equal(codeOf(failure), 'HPE_INVALID');
    assert.match(String(failure), /not valid HTTP \(chunk size\)/);
  });

  it('skips interim answers (100 Continue, 103 Early Hints with headers) before the real one', async () => {
    const text = 'HTTP/1.1 100 Continue\r\n\r\n' + 'HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\nX-Hint: 1\r\n\r\n' + 'HTTP/1.1 100 Continue\r\n\r\n' + 'HTTP/1.1 200 OK\r\nContent-Length: 4\r\nX-Final: yes\r\n\r\nbody';
    const parts = cutAt(text, [['\r\n\r\nHTTP/1.1 103', 3], ['Link', 3], ['X-Hint: 1\r\n\r\n', 11], ['HTTP/1.1 200', 0], ['body', 2]]);
    const res = await get((s) => send(s, parts));
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-final'], 'yes');
    assert.equal(res.headers.link, undefined);
    assert.equal(res.headers['x-hint'], undefined);
    assert.deepEqual(await collect(res).done, { body: Buffer.from('body'), failure: undefined });
  });

  it('reads a close-delimited body (no length, not chunked) whole at the close', async () => {
    const body = randomBytes(3000);
    const res = await get(async (s) => {
      await send(s, ['HTTP/1.1 200 OK\r\nContent-Type: application/gzip\r\n\r\n', ...cut(body, [1, 1500, 2999])]);
      s.end();
    });
    assert.deepEqual(await collect(res).done, { body, failure: undefined });
  });

  it('ends a body read before the close came as whole, with what came with the head', async () => {
    // All of it (head, body, close) is in before anyone reads.
    const res = await get((s) => void s.end('HTTP/1.1 200 OK\r\n\r\nall of it'));
    await sleep(50);
    assert.deepEqual(await collect(res).done, { body: Buffer.from('all of it'), failure: undefined });
  });

  it('fails a Content-Length body whose connection drops midway, with only the bytes that came', async () => {
    const res = await get(async (s) => {
      await send(s, ['HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123', '456789']);
      s.end();
    });
    const read = collect(res);
    const { body, failure } = await read.done;
    assert.equal(body.toString(), '0123456789');
    assert.equal(codeOf(failure), 'ECONNRESET');
    assert.match(String(failure), /closed before the body ended/);
    await sleep(30);
    assert.deepEqual(read.late, []);
  });

  it('fails a chunked body cut mid-chunk, and one cut before its last chunk', async () => {
    for (const [rest, expected] of [
      ['a\r\n01234', '01234'],
      ['5\r\n01234\r\n', '01234'],
    ] as const) {
      const res = await get(async (s) => {
        await send(s, ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n', rest]);
        s.destroy();
      });
      const read = collect(res);
      const { body, failure } = await read.done;
      assert.equal(body.toString(), expected);
      assert.equal(codeOf(failure), 'ECONNRESET', rest);
      await sleep(30);
      assert.deepEqual(read.late, []);
    }
  });
});
