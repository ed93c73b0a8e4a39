/**
 * The API client's two waits (core/api/transport.ts): a server that never sends its headers reads
 * as "did not answer", a body that stops after them as "stopped sending", whatever the time the
 * headers took (a busy machine). The reliability suite's timeout cases rest on this.
 */
import * as assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AdminApiClient, type ApiClientOptions } from '../../src/core/api/client';
import { ApiError } from '../../src/core/api/apiErrors';
import { recordingLogger } from './support/logger';

const KEY = 'da_test_timeouts_key_51c0';
const AGENT_ID = 'agent_timeouts_1';

describe('the API client\'s waits for the headers and for the body', () => {
  it('a body that stalls reads as a stall however long its headers took, and a server that never answers as no answer (a busy machine)', async () => {
    const held: ServerResponse[] = [];
    const server = createServer((req, res) => {
      held.push(res);
      if (req.url?.includes('silent') === true) return;
      // The headers come late (as on a busy machine), then ten bytes of a longer body, then nothing.
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"id":"ag');
      }, 300);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const made = (over: Partial<ApiClientOptions>) =>
      new AdminApiClient({ baseUrl: `http://127.0.0.1:${port}`, projectId: 'p', getKey: () => KEY, log: recordingLogger('client'), maxAttempts: 1, ...over });
    const stalled = made({ requestTimeoutMs: 30_000, bodyTimeoutMs: 100 });
    const silent = made({ requestTimeoutMs: 100, baseUrl: `http://127.0.0.1:${port}/silent` });
    try {
      const body = await stalled.getAgentJob(AGENT_ID).then(() => assert.fail('a stalled body cannot succeed'), (error: unknown) => error);
      assert.ok(body instanceof ApiError && body.kind === 'timeout', String(body));
      assert.match(body.message, /stopped sending its answer \(nothing more came for 100 ms\)/);
      const none = await silent.getAgentJob(AGENT_ID).then(() => assert.fail('no answer cannot succeed'), (error: unknown) => error);
      assert.ok(none instanceof ApiError, String(none));
      assert.match(none.message, /did not answer within 100 ms/);
    } finally {
      for (const res of held) res.destroy();
      await Promise.all([stalled.close(), silent.close()]);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
