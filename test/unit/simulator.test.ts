import * as assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { Simulator } from '../simulator';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: () => Record<string, unknown>;
}

async function call(url: string, options: { method?: 'GET' | 'POST' | 'HEAD'; key?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await request(url, { method: options.method ?? 'GET', headers, body: options.body === undefined ? null : JSON.stringify(options.body) });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

describe('API simulator', () => {
  let sim: Simulator;
  beforeEach(async () => {
    sim = await Simulator.start({ timeScale: 60, keys: [{ key: 'good' }, { key: 'ro', readOnly: true }, { key: 'blocked', ipBlocked: true }] });
  });
  afterEach(() => sim.stop());

  it('answers 401 without a valid key, and 403 for a blocked IP or a read-only key on a POST', async () => {
    sim.addAgentJob({ id: 'j1' });
    const path = `${sim.baseUrl}/v2/agent/${sim.projectId}/job/j1`;
    assert.equal((await call(path)).status, 401);
    assert.deepEqual((await call(path, { key: 'wrong' })).json(), { error: 'Invalid or missing API key' });
    assert.equal((await call(path, { key: 'good' })).status, 200);
    assert.equal((await call(path, { key: 'ro' })).status, 200, 'a read-only key may GET');
    assert.match(String((await call(path, { key: 'blocked' })).json().error), /allow-list/);
    const post = await call(`${sim.baseUrl}/v1/static-export/jobs`, { method: 'POST', key: 'ro', body: { domain: 'docs.acme.dev' } });
    assert.equal(post.status, 403);
    assert.match(String(post.json().error), /write access/);
  });

  it('moves an agent job from active to completed with a pull request, and 404s an unknown one', async () => {
    sim.addAgentJob({ id: 'j1', durationMs: 60_000, repository: 'https://github.com/acme/docs' });
    const path = `${sim.baseUrl}/v2/agent/${sim.projectId}/job/j1`;
    const first = (await call(path, { key: 'good' })).json();
    assert.equal(first.status, 'active');
    assert.equal(first.prLink, null);
    sim.advance(1_000); // one real second is a simulated minute at time scale 60
    const done = (await call(path, { key: 'good' })).json();
    assert.equal(done.status, 'completed');
    assert.match(String(done.prLink), /^https:\/\/github\.com\/acme\/docs\/pull\/\d+$/);
    const missing = await call(`${sim.baseUrl}/v2/agent/${sim.projectId}/job/nope`, { key: 'good' });
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.json(), { error: 'Agent job not found' });
    assert.equal((await call(`${sim.baseUrl}/v2/agent/other-project/job/j1`, { key: 'good' })).status, 404);
  });

  it('keeps completed-without-changes, failed, archived and unknown statuses', async () => {
    sim.addAgentJob({ id: 'nc', durationMs: 1, outcome: 'no-changes' });
    sim.addAgentJob({ id: 'f', durationMs: 1, outcome: 'failed' });
    sim.addAgentJob({ id: 'p', status: 'paused' });
    sim.addAgentJob({ id: 'a' });
    sim.archiveAgentJob('a');
    sim.advance(10);
    const get = async (id: string) => (await call(`${sim.baseUrl}/v2/agent/${sim.projectId}/job/${id}`, { key: 'good' })).json();
    assert.deepEqual([(await get('nc')).status, (await get('nc')).prLink], ['completed', null]);
    assert.equal((await get('f')).status, 'failed');
    assert.equal((await get('p')).status, 'paused');
    const archived = await get('a');
    assert.equal(archived.status, 'archived');
    assert.equal(typeof archived.archivedAt, 'string');
  });

  it('decodes path segments one by one, so encoded ids reach their job', async () => {
    for (const id of ['a/b', '../x', 'q?x=1', 'h#frag', 'sp ace', 'ünï']) {
      sim.addAgentJob({ id });
      const answer = await call(`${sim.baseUrl}/v2/agent/${sim.projectId}/job/${encodeURIComponent(id)}`, { key: 'good' });
      assert.equal(answer.status, 200, id);
      assert.equal(answer.json().id, id);
    }
    assert.equal((await call(`${sim.baseUrl}/v2/agent/${sim.projectId}/job/a/b`, { key: 'good' })).status, 404, 'an unencoded slash is another path');
  });

  it('runs an export: 202 queued, running with progress and pages, completed; 409 before, a link after', async () => {
    sim.setExportDefaults({ queuedMs: 60_000, durationMs: 600_000, pages: 200 });
    const start = await call(`${sim.baseUrl}/v1/static-export/jobs`, { method: 'POST', key: 'good', body: { domain: 'docs.acme.dev' } });
    assert.equal(start.status, 202);
    const job = start.json();
    assert.equal(job.status, 'queued');
    const status = async () => (await call(`${sim.baseUrl}/v1/static-export/jobs/${String(job.jobId)}`, { key: 'good' })).json();
    const bundle = () => call(`${sim.baseUrl}/v1/static-export/jobs/${String(job.jobId)}/bundle`, { method: 'POST', key: 'good' });
    assert.equal((await bundle()).status, 409);
    sim.advance(6_000); // 6 simulated minutes: 5 into the 10-minute run
    const running = await status();
    assert.equal(running.status, 'running');
    // Real milliseconds pass too, and count 60 times: allow a fraction of a percent.
    assert.ok(Number(running.progress) >= 50 && Number(running.progress) < 51, `progress ${String(running.progress)}`);
    assert.ok(Number(running.pageCount) >= 100 && Number(running.pageCount) <= 101, `pageCount ${String(running.pageCount)}`);
    assert.equal((await bundle()).status, 409);
    sim.advance(6_000);
    const done = await status();
    assert.deepEqual([done.status, done.progress, done.pageCount], ['completed', 100, 200]);
    const generated = await bundle();
    assert.equal(generated.status, 200);
    const body = generated.json();
    assert.equal(body.sizeBytes, sim.defaultBundle().length);
    assert.ok(String(body.bundleUrl).startsWith(`${sim.storageBaseUrl}/bundles/`));
    assert.ok(Date.parse(String(body.expiresAt)) > sim.now());
    assert.ok(generated.headers.date);
  });

  it('moves an export along its progress curve: a stall stays flat, a jump jumps', async () => {
    // 10 running minutes: up to 40 % in the first 2, flat until minute 6, then a jump to 90 %, then 100 % at the end.
    const curve: [number, number][] = [[0, 0], [0.2, 0.4], [0.6, 0.4], [0.6, 0.9], [1, 1]];
    const job = sim.addExportJob({ createdAt: sim.now(), queuedMs: 0, durationMs: 600_000, progressCurve: curve });
    const progress = async () => Number((await call(`${sim.baseUrl}/v1/static-export/jobs/${String(job.jobId)}`, { key: 'good' })).json().progress);
    const at = async (minute: number) => {
      // timeScale 60: one simulated minute is a real second; the clock is set, not waited for.
      sim.advance(minute * 1_000 - (sim.now() - Number(new Date(String(job.createdAt)))));
      return progress();
    };
    assert.ok(Math.abs((await at(1)) - 20) < 1, 'half-way up the first stretch');
    assert.ok(Math.abs((await at(3)) - 40) < 1, 'the stall');
    assert.ok(Math.abs((await at(5)) - 40) < 1, 'still the stall');
    assert.ok(Math.abs((await at(6.5)) - 91.25) < 1, 'after the jump');
  });

  it('refuses a bad domain, a body that is not JSON, and an organization without static export', async () => {
    for (const domain of ['https://docs.acme.dev', 'docs.acme.dev/path', 'docs.acme.dev/', '', 'docs acme']) {
      const answer = await call(`${sim.baseUrl}/v1/static-export/jobs`, { method: 'POST', key: 'good', body: { domain } });
      assert.equal(answer.status, 400, domain);
    }
    sim.setStaticExportEnabled(false);
    const denied = await call(`${sim.baseUrl}/v1/static-export/jobs`, { method: 'POST', key: 'good', body: { domain: 'docs.acme.dev' } });
    assert.equal(denied.status, 403);
    assert.equal(denied.json().error, 'static export is not enabled for this organization');
  });

  describe('bundle links', () => {
    let url: string;
    beforeEach(async () => {
      sim.addExportJob({ jobId: 'done', queuedMs: 0, durationMs: 1 });
      sim.advance(10);
      url = String((await call(`${sim.baseUrl}/v1/static-export/jobs/done/bundle`, { method: 'POST', key: 'good' })).json().bundleUrl);
    });

    it('serves a real tar.gz of the docs site, with Content-Length', async () => {
      const res = await request(url);
      const body = Buffer.from(await res.body.arrayBuffer());
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-length'], String(body.length));
      assert.deepEqual(body, sim.defaultBundle());
      const tar = gunzipSync(body).toString('latin1');
      assert.ok(tar.includes('guides/install.html'));
      assert.ok(tar.includes('href="/guides/install"'), 'links are extension-less');
    });

    it('serves ranges (206) and refuses unsatisfiable ones (416)', async () => {
      const size = sim.defaultBundle().length;
      const part = await request(url, { headers: { range: 'bytes=10-19' } });
      assert.equal(part.statusCode, 206);
      assert.equal(part.headers['content-range'], `bytes 10-19/${size}`);
      assert.deepEqual(Buffer.from(await part.body.arrayBuffer()), sim.defaultBundle().subarray(10, 20));
      const tail = await request(url, { headers: { range: `bytes=${size - 5}-` } });
      assert.equal((await tail.body.arrayBuffer()).byteLength, 5);
      const bad = await request(url, { headers: { range: `bytes=${size}-` } });
      await bad.body.dump();
      assert.equal(bad.statusCode, 416);
    });

    it('rejects a tampered signature, a HEAD and any Authorization header, as S3 does', async () => {
      const tampered = url.replace(/X-Amz-Signature=([0-9a-f])/, (_m, c: string) => `X-Amz-Signature=${c === '0' ? '1' : '0'}`);
      const bad = await call(tampered);
      assert.equal(bad.status, 403);
      assert.match(bad.text, /SignatureDoesNotMatch/);
      assert.equal((await call(url, { method: 'HEAD' })).status, 403);
      const withKey = await call(url, { key: 'good' });
      assert.equal(withKey.status, 400);
      assert.match(withKey.text, /Only one auth mechanism allowed/);
    });

    it('expires: S3\'s XML 403 "Request has expired", and a fresh link works again', async () => {
      sim.advance(3_601_000);
      const expired = await call(url);
      assert.equal(expired.status, 403);
      assert.match(expired.text, /<Code>AccessDenied<\/Code><Message>Request has expired<\/Message>/);
      const fresh = String((await call(`${sim.baseUrl}/v1/static-export/jobs/done/bundle`, { method: 'POST', key: 'good' })).json().bundleUrl);
      assert.equal((await call(fresh)).status, 200);
    });

    it('can ignore Range, truncate and stall on the storage route', async () => {
      sim.injectFault({ route: 'storage.get', kind: 'ignoreRange' });
      const full = await request(url, { headers: { range: 'bytes=0-9' } });
      await full.body.dump();
      assert.equal(full.statusCode, 200);
      sim.injectFault({ route: 'storage.get', kind: 'truncate', afterBytes: 100 });
      const cut = await request(url);
      await assert.rejects(cut.body.arrayBuffer());
    });
  });

  describe('faults', () => {
    beforeEach(() => {
      sim.addAgentJob({ id: 'j' });
    });
    const path = () => `${sim.baseUrl}/v2/agent/${sim.projectId}/job/j`;

    it('answers an injected status for as many requests as asked, in order', async () => {
      sim.injectFault({ route: 'agent.get', kind: 'status', status: 429, headers: { 'retry-after': '7' }, times: 2 });
      sim.injectFault({ route: '*', kind: 'status', status: 503 });
      const first = await call(path(), { key: 'good' });
      assert.equal(first.status, 429);
      assert.equal(first.headers['retry-after'], '7');
      assert.equal((await call(path(), { key: 'good' })).status, 429);
      assert.equal((await call(path(), { key: 'good' })).status, 503);
      assert.equal((await call(path(), { key: 'good' })).status, 200);
    });

    it('sends malformed and oversized bodies, redirects, and resets', async () => {
      sim.injectFault({ route: 'agent.get', kind: 'malformed', body: '<html>Bad gateway</html>', status: 502 });
      const html = await call(path(), { key: 'good' });
      assert.equal(html.status, 502);
      assert.equal(html.headers['content-type'], 'text/html');
      sim.injectFault({ route: 'agent.get', kind: 'oversized', bytes: 2_000_000 });
      assert.ok((await call(path(), { key: 'good' })).text.length >= 1_999_000);
      sim.injectFault({ route: 'agent.get', kind: 'redirect', status: 302, location: `${sim.storageBaseUrl}/elsewhere` });
      const redirect = await call(path(), { key: 'good' });
      assert.equal(redirect.status, 302);
      assert.equal(redirect.headers.location, `${sim.storageBaseUrl}/elsewhere`);
      sim.injectFault({ route: 'agent.get', kind: 'reset' });
      await assert.rejects(call(path(), { key: 'good' }));
    });

    it('delays an answer', async () => {
      sim.injectFault({ route: 'agent.get', kind: 'delay', ms: 150 });
      const started = Date.now();
      assert.equal((await call(path(), { key: 'good' })).status, 200);
      assert.ok(Date.now() - started >= 140);
    });

    it('stops promptly with a stalled request in flight', async () => {
      sim.injectFault({ route: 'agent.get', kind: 'stall', afterBytes: 5 });
      const stalled = await request(path(), { headers: { authorization: 'Bearer good' } });
      const reading = stalled.body.text().catch(() => 'aborted');
      const started = Date.now();
      await sim.stop();
      assert.ok(Date.now() - started < 1_000);
      assert.equal(await reading, 'aborted');
    });
  });

  it('logs every request with its origin, route, headers and status, but not control calls', async () => {
    sim.addExportJob({ jobId: 'e', queuedMs: 0, durationMs: 1 });
    sim.advance(10);
    const link = String((await call(`${sim.baseUrl}/v1/static-export/jobs/e/bundle`, { method: 'POST', key: 'good' })).json().bundleUrl);
    await call(link);
    await call(`${sim.baseUrl}/_sim/info`);
    assert.deepEqual(
      sim.requests.map((r) => [r.origin, r.route, r.status, r.headers.authorization ?? null]),
      [
        ['api', 'export.bundle', 200, 'Bearer good'],
        ['storage', 'storage.get', 200, null],
      ],
    );
    sim.clearRequests();
    assert.equal(sim.requests.length, 0);
  });

  it('is controlled over HTTP under /_sim/', async () => {
    const info = (await call(`${sim.baseUrl}/_sim/info`)).json();
    assert.equal(info.baseUrl, sim.baseUrl);
    assert.equal(info.key, 'good');
    await call(`${sim.baseUrl}/_sim/agent-jobs`, { method: 'POST', body: { id: 'seeded', durationMs: 60_000 } });
    assert.equal((await call(`${sim.baseUrl}/v2/agent/${sim.projectId}/job/seeded`, { key: 'good' })).json().status, 'active');
    await call(`${sim.baseUrl}/_sim/clock`, { method: 'POST', body: { advanceMs: 1_000 } });
    assert.equal((await call(`${sim.baseUrl}/v2/agent/${sim.projectId}/job/seeded`, { key: 'good' })).json().status, 'completed');
    await call(`${sim.baseUrl}/_sim/faults`, { method: 'POST', body: { route: 'agent.get', kind: 'status', status: 500, times: null } });
    for (let i = 0; i < 3; i++) assert.equal((await call(`${sim.baseUrl}/v2/agent/${sim.projectId}/job/seeded`, { key: 'good' })).status, 500);
    const log = (await call(`${sim.baseUrl}/_sim/requests`)).text;
    assert.ok((JSON.parse(log) as unknown[]).length >= 5);
  });
});
