import * as assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { Simulator } from '../simulator';
import { collector } from './support/collector';
import { recordingLogger } from './support/logger';
import { AbortedError } from '../../src/core/abort';
import { AdminApiClient, type ApiClientOptions } from '../../src/core/api/client';
import { AuthError, ConflictError, ForbiddenError, InvalidInputError, InvalidResponseError, NetworkError, NotFoundError, RateLimitedError, RedirectError, RequestRejectedError, ServerError, TimeoutError } from '../../src/core/api/errors';

const KEY = 'da_test_key_4b1d2c3e9f';
const RO_KEY = 'da_test_readonly_77aa';
const BLOCKED_KEY = 'da_test_blocked_90ff';

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

describe('AdminApiClient against the simulator', () => {
  let sim: Simulator;
  let sleeps: number[];
  const clients: AdminApiClient[] = [];

  function client(over: Partial<ApiClientOptions> = {}): AdminApiClient {
    const c = new AdminApiClient({
      baseUrl: sim.baseUrl,
      projectId: sim.projectId,
      getKey: () => KEY,
      log: recordingLogger('api'),
      requestTimeoutMs: 2_000,
      connectTimeoutMs: 1_000,
      baseDelayMs: 1,
      maxDelayMs: 5,
      sleep: (ms) => {
        sleeps.push(ms);
        return Promise.resolve();
      },
      ...over,
    });
    clients.push(c);
    return c;
  }

  async function failure(promise: Promise<unknown>): Promise<Error> {
    try {
      await promise;
    } catch (error) {
      assert.ok(error instanceof Error);
      collector.recordError('api', error);
      return error;
    }
    assert.fail('expected the call to fail');
  }

  const apiRequests = () => sim.requests.filter((r) => r.origin === 'api');

  beforeEach(async () => {
    sim = await Simulator.start({ keys: [{ key: KEY }, { key: RO_KEY, readOnly: true }, { key: BLOCKED_KEY, ipBlocked: true }] });
    sleeps = [];
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await sim.stop();
  });

  describe('the four endpoints', () => {
    it('retrieves an agent job with the bearer key', async () => {
      sim.addAgentJob({ id: 'job-1', repository: 'https://github.com/acme/docs', ref: 'main', model: 'm-1' });
      const job = await client().getAgentJob('job-1');
      assert.equal(job.id, 'job-1');
      assert.equal(job.status, 'active');
      assert.deepEqual(job.source, { repository: 'https://github.com/acme/docs', ref: 'main' });
      assert.equal(job.prLink, null);
      const [req] = sim.requests;
      assert.equal(req?.headers.authorization, `Bearer ${KEY}`);
      assert.equal(req?.headers['content-type'], undefined, 'a GET has no body and no Content-Type');
      assert.equal(req?.path, `/v2/agent/${sim.projectId}/job/job-1`);
    });

    it('starts an export: JSON body with Content-Type, the whole job from the 202', async () => {
      const job = await client().startExport({ domain: 'docs.acme.dev', version: 'v7' });
      assert.equal(job.status, 'queued');
      assert.equal(job.domain, 'docs.acme.dev');
      assert.ok(job.jobId.length > 0);
      const [req] = sim.requests;
      assert.equal(req?.method, 'POST');
      assert.equal(req?.headers['content-type'], 'application/json');
      assert.deepEqual(JSON.parse(req?.body ?? ''), { domain: 'docs.acme.dev', version: 'v7' });
    });

    it('accepts a start answer that holds only the job id', async () => {
      sim.injectFault({ route: 'export.start', kind: 'status', status: 200, body: { jobId: 'exp-9' } });
      assert.deepEqual(await client().startExport({ domain: 'docs.acme.dev' }), { jobId: 'exp-9', status: 'queued', rawStatus: 'queued', domain: 'docs.acme.dev' });
    });

    it('reads export status with progress and page count, and generates a bundle without a body', async () => {
      sim.addExportJob({ jobId: 'e1', queuedMs: 0, durationMs: 1_000, pages: 50 });
      const c = client();
      const running = await c.getExportJob('e1');
      assert.equal(running.status, 'running');
      assert.equal(typeof running.progress, 'number');
      await assert.rejects(c.generateBundle('e1'), ConflictError);
      sim.advance(2_000);
      const done = await c.getExportJob('e1');
      assert.deepEqual([done.status, done.progress, done.pageCount], ['completed', 100, 50]);
      const bundle = await c.generateBundle('e1');
      assert.ok(bundle.bundleUrl.startsWith(sim.storageBaseUrl));
      assert.equal(bundle.sizeBytes, sim.defaultBundle().length);
      assert.ok(bundle.expiresAt !== undefined && Date.parse(bundle.expiresAt) > Date.now());
      assert.ok(bundle.serverDate !== undefined && Math.abs(bundle.serverDate - Date.now()) < 5_000);
      const post = sim.requests.filter((r) => r.route === 'export.bundle').at(-1);
      assert.equal(post?.body, '');
      assert.equal(post?.headers['content-type'], undefined);
    });

    it('keeps an unknown status instead of failing, and ignores extra fields', async () => {
      sim.addAgentJob({ id: 'odd', status: 'paused' });
      const job = await client().getAgentJob('odd');
      assert.equal(job.status, 'unknown');
      assert.equal(job.rawStatus, 'paused');
      sim.injectFault({ route: 'export.status', kind: 'status', status: 200, body: { jobId: 'x', status: 'rendering', progress: '12.5', pageCount: 3, extra: { nested: true } } });
      const exp = await client().getExportJob('x');
      assert.deepEqual(exp, { jobId: 'x', status: 'unknown', rawStatus: 'rendering', progress: 12.5, pageCount: 3 });
    });
  });

  describe('paths', () => {
    for (const id of ['a/b', '../../v1/static-export/jobs', 'x?y=1', 'h#f', 'sp ace', '%2F']) {
      it(`encodes the id ${JSON.stringify(id)} so it cannot change the path`, async () => {
        sim.addAgentJob({ id });
        // The job asked for was found (one path segment); its id, no job id, is refused in the answer.
        const error = await failure(client().getAgentJob(id));
        assert.ok(error instanceof InvalidResponseError, error.message);
        assert.equal(sim.requests[0]?.route, 'agent.get');
        assert.equal(sim.requests[0]?.path, `/v2/agent/${sim.projectId}/job/${encodeURIComponent(id)}`);
      });
    }

    it('keeps a base URL path prefix', async () => {
      sim.injectFault({ route: '*', kind: 'status', status: 200, body: { jobId: 'p', status: 'running' } });
      await client({ baseUrl: `${sim.baseUrl}/admin/` }).getExportJob('p');
      assert.equal(sim.requests[0]?.path, '/admin/v1/static-export/jobs/p');
    });

    it('refuses an empty id and a missing key before sending anything', async () => {
      await assert.rejects(client().getAgentJob('  '), InvalidInputError);
      const missing = await failure(client({ getKey: () => undefined }).getAgentJob('j'));
      assert.ok(missing instanceof AuthError && missing.reason === 'missing');
      assert.match(missing.message, /API keys page/);
      assert.equal(sim.requests.length, 0);
    });
  });

  describe('errors a person can act on', () => {
    it('401: the key is wrong or expired', async () => {
      sim.addAgentJob({ id: 'j' });
      const error = await failure(client({ getKey: () => 'da_wrong_key_123' }).getAgentJob('j'));
      assert.ok(error instanceof AuthError);
      assert.equal(error.status, 401);
      assert.match(error.message, /wrong, expired or revoked/);
      assert.ok(!error.message.includes('da_wrong_key_123'));
    });

    it('403: names the plan when static export is not enabled', async () => {
      sim.setStaticExportEnabled(false);
      const error = await failure(client().startExport({ domain: 'docs.acme.dev' }));
      assert.ok(error instanceof ForbiddenError);
      assert.deepEqual(error.causes, ['plan']);
      assert.match(error.message, /enterprise plan/);
    });

    it('403: names the scope for a read-only key, and the allow-list for a blocked IP', async () => {
      const scope = await failure(client({ getKey: () => RO_KEY }).startExport({ domain: 'docs.acme.dev' }));
      assert.ok(scope instanceof ForbiddenError);
      assert.deepEqual(scope.causes, ['scope']);
      sim.addAgentJob({ id: 'j' });
      const ip = await failure(client({ getKey: () => BLOCKED_KEY }).getAgentJob('j'));
      assert.ok(ip instanceof ForbiddenError);
      assert.deepEqual(ip.causes, ['ipAllowList']);
    });

    it('403 without a reason: lists every possible cause', async () => {
      sim.injectFault({ route: 'export.status', kind: 'status', status: 403, body: {} });
      const error = await failure(client().getExportJob('e'));
      assert.ok(error instanceof ForbiddenError);
      assert.deepEqual(error.causes, ['plan', 'scope', 'ipAllowList']);
      assert.match(error.message, /Possible causes/);
    });

    it('404: the server\'s message and which job', async () => {
      const error = await failure(client().getAgentJob('missing-job'));
      assert.ok(error instanceof NotFoundError);
      assert.equal(error.serverMessage, 'Agent job not found');
      assert.match(error.message, /missing-job/);
      assert.match(error.message, new RegExp(sim.projectId));
    });

    it('409: the bundle was asked before the job completed', async () => {
      sim.addExportJob({ jobId: 'slow', durationMs: 600_000 });
      const error = await failure(client().generateBundle('slow'));
      assert.ok(error instanceof ConflictError);
      assert.match(error.message, /not completed yet/);
    });

    it('other 4xx: the server refused the request, with its message', async () => {
      const error = await failure(client().startExport({ domain: 'https://docs.acme.dev/x' }));
      assert.ok(error instanceof RequestRejectedError);
      assert.equal(error.status, 400);
      assert.match(error.message, /bare hostname/);
    });

    it('429: a GET waits Retry-After (seconds), then succeeds', async () => {
      sim.addAgentJob({ id: 'j' });
      sim.injectFault({ route: 'agent.get', kind: 'status', status: 429, headers: { 'retry-after': '3' } });
      await client().getAgentJob('j');
      assert.deepEqual(sleeps, [3_000]);
      assert.equal(apiRequests().length, 2);
    });

    it('429: Retry-After as an HTTP date', async () => {
      sim.addAgentJob({ id: 'j' });
      sim.injectFault({ route: 'agent.get', kind: 'status', status: 429, headers: { 'retry-after': new Date(Date.now() + 10_000).toUTCString() } });
      await client().getAgentJob('j');
      assert.equal(sleeps.length, 1);
      assert.ok((sleeps[0] ?? 0) > 8_000 && (sleeps[0] ?? 0) <= 10_000, `slept ${sleeps[0]}`);
    });

    it('429: too long a wait is not waited out; the error carries it', async () => {
      sim.injectFault({ route: 'agent.get', kind: 'status', status: 429, headers: { 'retry-after': '3600' } });
      const error = await failure(client().getAgentJob('j'));
      assert.ok(error instanceof RateLimitedError);
      assert.equal(error.retryAfterMs, 3_600_000);
      assert.match(error.message, /Wait 3600 s/);
      assert.deepEqual(sleeps, []);
    });

    it('5xx: a GET is retried with back-off, then fails as a server error', async () => {
      sim.injectFault({ route: 'agent.get', kind: 'status', status: 503, times: 10 });
      const error = await failure(client({ maxAttempts: 3 }).getAgentJob('j'));
      assert.ok(error instanceof ServerError);
      assert.equal(error.status, 503);
      assert.equal(apiRequests().length, 3);
      assert.equal(sleeps.length, 2);
    });

    it('5xx: a POST is not retried (it may have been processed)', async () => {
      sim.injectFault({ route: 'export.start', kind: 'status', status: 500 });
      await assert.rejects(client().startExport({ domain: 'docs.acme.dev' }), ServerError);
      assert.equal(apiRequests().length, 1);
    });

    it('a reset connection: a GET is retried and succeeds; a POST is not retried', async () => {
      sim.addAgentJob({ id: 'j' });
      sim.injectFault({ route: 'agent.get', kind: 'reset' });
      assert.equal((await client().getAgentJob('j')).id, 'j');
      assert.equal(apiRequests().length, 2);
      sim.clearRequests();
      sim.injectFault({ route: 'export.start', kind: 'reset' });
      const error = await failure(client().startExport({ domain: 'docs.acme.dev' }));
      assert.ok(error instanceof NetworkError);
      assert.equal(error.reason, 'reset');
      assert.equal(apiRequests().length, 1);
    });

    it('connection refused: even a POST is retried (it never reached the server), then a network error', async () => {
      const port = await closedPort();
      const error = await failure(client({ baseUrl: `http://127.0.0.1:${port}` }).startExport({ domain: 'docs.acme.dev' }));
      assert.ok(error instanceof NetworkError);
      assert.equal(error.reason, 'refused');
      assert.equal(sleeps.length, 2, 'three attempts');
      assert.match(error.message, /refused/);
    });

    it('a DNS failure says so', async () => {
      const error = await failure(client({ baseUrl: 'http://no-such-host.invalid', maxAttempts: 1 }).getAgentJob('j'));
      assert.ok(error instanceof NetworkError);
      assert.equal(error.reason, 'dns');
    });

    it('headers that never come: a timeout', async () => {
      sim.injectFault({ route: 'agent.get', kind: 'delay', ms: 1_500 });
      const error = await failure(client({ requestTimeoutMs: 300, maxAttempts: 1 }).getAgentJob('j'));
      assert.ok(error instanceof TimeoutError);
      assert.equal(error.phase, 'request');
    });

    it('a body that stalls: a timeout', async () => {
      sim.addAgentJob({ id: 'j' });
      sim.injectFault({ route: 'agent.get', kind: 'stall', afterBytes: 10 });
      const error = await failure(client({ requestTimeoutMs: 300, maxAttempts: 1 }).getAgentJob('j'));
      assert.ok(error instanceof TimeoutError);
    });

    it('an HTML page, a body that is not JSON, an empty body, the wrong shape', async () => {
      const c = client({ maxAttempts: 1 });
      sim.injectFault({ route: 'agent.get', kind: 'malformed', status: 200, body: '<!doctype html><title>Sign in</title>' });
      assert.match((await failure(c.getAgentJob('j'))).message, /HTML page/);
      sim.injectFault({ route: 'agent.get', kind: 'malformed', status: 200, contentType: 'application/json', body: '{"id": "j", oops' });
      assert.match((await failure(c.getAgentJob('j'))).message, /not JSON/);
      sim.injectFault({ route: 'agent.get', kind: 'malformed', status: 200, contentType: 'application/json', body: '' });
      assert.match((await failure(c.getAgentJob('j'))).message, /empty/);
      sim.injectFault({ route: 'agent.get', kind: 'status', status: 200, body: { id: 'j', status: 'active', source: { repository: 42 }, createdAt: 'x' } });
      const shape = await failure(c.getAgentJob('j'));
      assert.ok(shape instanceof InvalidResponseError);
      assert.match(shape.message, /field "source\.repository" is not a string/);
      sim.injectFault({ route: 'agent.get', kind: 'malformed', status: 502, body: '<html><body>Bad Gateway</body></html>' });
      const proxy = await failure(c.getAgentJob('j'));
      assert.ok(proxy instanceof ServerError);
      assert.match(proxy.message, /HTML error page/);
    });

    it('a job id that is no id (link syntax, shell syntax, a path) is refused at the boundary, naming the field', async () => {
      const c = client({ maxAttempts: 1 });
      const hostile = ['[Open it](command:workbench.extensions.installExtension?["attacker.evil-ext"])', 'e1$(touch /tmp/pwned)', '../../v1/other', ' e1', 'e1\n::add-mask::x', ''];
      for (const id of hostile) {
        sim.injectFault({ route: 'agent.create', kind: 'status', status: 201, body: { id, status: 'active', source: { repository: 'https://github.com/acme/docs', ref: 'main' }, model: 'm', prLink: null, createdAt: '2026-01-01T00:00:00Z', archivedAt: null } });
        const agent = await failure(c.createAgentJob('Fix the typo.'));
        assert.ok(agent instanceof InvalidResponseError, `${JSON.stringify(id)}: ${agent.message}`);
        assert.match(agent.message, /field "id"/);
        sim.injectFault({ route: 'export.start', kind: 'status', status: 202, body: { jobId: id, status: 'queued' } });
        const exported = await failure(c.startExport({ domain: 'docs.acme.dev' }));
        assert.ok(exported instanceof InvalidResponseError, `${JSON.stringify(id)}: ${exported.message}`);
        assert.match(exported.message, /field "jobId"/);
      }
      sim.injectFault({ route: 'export.bundle', kind: 'status', status: 200, body: { jobId: 'e1$(touch /tmp/pwned)', bundleUrl: `${sim.storageBaseUrl}/b.tar.gz`, sizeBytes: 1 } });
      const bundle = await failure(c.generateBundle('e1'));
      assert.ok(bundle instanceof InvalidResponseError, bundle.message);
      assert.match(bundle.message, /field "jobId" is not a job id/);
      // The ids real services hand out still read.
      sim.injectFault({ route: 'export.start', kind: 'status', status: 202, body: { jobId: 'se_3f9a2c1b8e7d4a06', status: 'queued' } });
      assert.equal((await c.startExport({ domain: 'docs.acme.dev' })).jobId, 'se_3f9a2c1b8e7d4a06');
    });

    it('an oversized body is capped, not read whole', async () => {
      sim.injectFault({ route: 'agent.get', kind: 'oversized', bytes: 5_000_000 });
      const error = await failure(client({ maxBodyBytes: 64 * 1024, maxAttempts: 1 }).getAgentJob('j'));
      assert.ok(error instanceof InvalidResponseError);
      assert.match(error.message, /too large/);
      sim.injectFault({ route: 'agent.get', kind: 'oversized', bytes: 5_000_000, chunked: true });
      const streamed = await failure(client({ maxBodyBytes: 64 * 1024, maxAttempts: 1 }).getAgentJob('j'));
      assert.ok(streamed instanceof InvalidResponseError);
      assert.match(streamed.message, /over 65536 bytes/, 'caught while streaming, without a Content-Length');
    });
  });

  describe('cancellation', () => {
    it('aborts a request in flight at once', async () => {
      sim.injectFault({ route: 'agent.get', kind: 'delay', ms: 5_000 });
      const controller = new AbortController();
      const started = Date.now();
      setTimeout(() => controller.abort(), 50);
      await assert.rejects(client().getAgentJob('j', { signal: controller.signal }), AbortedError);
      assert.ok(Date.now() - started < 1_000);
    });

    it('aborts during the back-off wait', async () => {
      sim.injectFault({ route: 'agent.get', kind: 'status', status: 503, times: 5 });
      const controller = new AbortController();
      const c = new AdminApiClient({ baseUrl: sim.baseUrl, projectId: sim.projectId, getKey: () => KEY, log: recordingLogger('api'), baseDelayMs: 10_000, maxDelayMs: 10_000, random: () => 1 });
      clients.push(c);
      const started = Date.now();
      setTimeout(() => controller.abort(), 100);
      await assert.rejects(c.getAgentJob('j', { signal: controller.signal }), AbortedError);
      assert.ok(Date.now() - started < 1_000);
      assert.equal(apiRequests().length, 1);
    });
  });

  describe('the key stays on the API origin', () => {
    it('follows a same-origin redirect with the key', async () => {
      sim.addAgentJob({ id: 'j' });
      sim.injectFault({ route: 'agent.get', kind: 'redirect', status: 307, location: `/v2/agent/${sim.projectId}/job/j?moved=1` });
      assert.equal((await client().getAgentJob('j')).id, 'j');
      assert.deepEqual(apiRequests().map((r) => r.headers.authorization), [`Bearer ${KEY}`, `Bearer ${KEY}`]);
    });

    it('refuses a redirect to another origin: nothing is sent there, and its answer (a 2xx too) is never used', async () => {
      // The other origin would answer 200 with a job of its own: a GET that followed would show it.
      sim.addExportJob({ jobId: 'elsewhere', queuedMs: 0, durationMs: 0 });
      sim.injectFault({ route: 'agent.get', kind: 'redirect', status: 302, location: `${sim.storageBaseUrl}/elsewhere/job` });
      const error = await failure(client({ maxAttempts: 1 }).getAgentJob('j'));
      assert.ok(error instanceof RedirectError, String(error));
      assert.match(error.message, /The server redirected to another origin \(http:\/\/127\.0\.0\.1:\d+\); a redirect that leaves the API's origin is not followed\. Set the base URL to the API's own address\./);
      assert.equal(sim.requests.filter((r) => r.origin === 'storage').length, 0, 'nothing was sent to the other origin');
      sim.injectFault({ route: 'export.status', kind: 'redirect', status: 307, location: `${sim.baseUrl.replace('127.0.0.1', 'localhost')}/v1/static-export/jobs/elsewhere` });
      await assert.rejects(client({ maxAttempts: 1 }).getExportJob('e'), RedirectError, 'another host name is another origin, even on this machine');
    });

    it('stops a redirect loop with a clear error', async () => {
      sim.injectFault({ route: '*', kind: 'redirect', status: 302, location: `${sim.baseUrl}/loop`, times: null });
      const error = await failure(client({ maxAttempts: 1 }).getAgentJob('j'));
      assert.ok(error instanceof RedirectError);
      assert.match(error.message, /loop/);
    });

    it('never sends the key to the bundle link\'s host over a whole export', async () => {
      sim.addExportJob({ jobId: 'e', queuedMs: 0, durationMs: 1 });
      sim.advance(10);
      const c = client();
      await c.getExportJob('e');
      const bundle = await c.generateBundle('e');
      assert.ok(!bundle.bundleUrl.includes(KEY));
      const storage = sim.requests.filter((r) => r.origin === 'storage');
      assert.equal(storage.length, 0, 'the client itself never touches the link');
      assert.ok(sim.requests.every((r) => r.origin === 'api'));
    });
  });
});
