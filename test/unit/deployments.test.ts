/**
 * The deployment routes in the client, against the simulator over real sockets (TLS too), the
 * tolerant reading of their answers, and the triggers' rules: pacing within the platform's
 * limits, a 429 waited out once, one request in flight per kind and branch, never sent twice
 * after a 5xx.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { AdminApiClient } from '../../src/core/api/client';
import { ForbiddenError, InvalidResponseError, NotFoundError, RateLimitedError, RequestRejectedError, ServerError } from '../../src/core/api/apiErrors';
import { parseDeployment } from '../../src/core/deployments/deploymentSchemas';
import { DeploymentTriggers, TriggerMayHaveArrivedError, TriggerRateLimitError } from '../../src/core/deployments/triggers';
import { RateWindow } from '../../src/core/deployments/pacer';
import { toSnapshot } from '../../src/core/deployments/deploymentTypes';
import { waitForDeployment } from '../../src/core/jobs/wait';
import { Network } from '../../src/core/net/network';
import { Simulator } from '../simulator';
import { makeTestCertificates } from '../support/certificates';
import { recordingLogger } from './support/logger';

const KEY = 'da_deploy_test_key_5e8a1f';

describe('deployments, previews and automations through the client (simulator, real sockets)', () => {
  let sim: Simulator;
  const clients: AdminApiClient[] = [];
  const client = (over: { projectId?: string; sleep?: (ms: number) => Promise<void> } = {}) => {
    const c = new AdminApiClient({ baseUrl: sim.baseUrl, projectId: over.projectId ?? sim.projectId, getKey: () => KEY, log: recordingLogger('deploy'), requestTimeoutMs: 2_000, baseDelayMs: 1, maxDelayMs: 5, sleep: over.sleep ?? (() => Promise.resolve()) });
    clients.push(c);
    return c;
  };

  before(async () => {
    sim = await Simulator.start({ timeScale: 60, keys: [{ key: KEY }] });
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await sim.stop();
  });

  it('triggers a deployment (202 {statusId}) and follows it from queued through in_progress to success, the logs growing line by line', async () => {
    sim.setDeploymentDefaults({ queuedMs: 3_000, durationMs: 120_000 });
    try {
      const c = client();
      const { statusId } = await c.triggerDeployment();
      const sent = sim.requests.at(-1);
      assert.equal(sent?.method, 'POST');
      assert.equal(sent?.path, `/v1/project/update/${sim.projectId}`);
      assert.equal(sent?.body, '', 'no body');
      assert.equal(sent?.status, 202);
      const seen: { status: string; lines: number }[] = [];
      const done = await waitForDeployment(c, statusId, { floorMs: 100, ceilingMs: 200, onUpdate: (d) => seen.push({ status: d.status, lines: d.logs.length }) });
      assert.equal(done.status, 'success');
      assert.equal(done.id, statusId);
      assert.ok(seen.some((s) => s.status === 'in_progress'), JSON.stringify(seen));
      const lines = seen.filter((s) => s.status === 'in_progress').map((s) => s.lines);
      assert.ok(new Set(lines).size >= 3, `the logs grew over several readings: ${lines.join(',')}`);
      assert.deepEqual(lines, [...lines].sort((a, b) => a - b), 'never fewer lines');
      assert.equal(done.logs.at(-1), 'Deployment complete');
      assert.ok(done.endedAt !== undefined && Date.parse(done.endedAt) >= Date.parse(done.createdAt ?? ''));
      assert.deepEqual(done.commit?.filesChanged, { added: [], modified: ['quickstart.mdx'], removed: [] });
      assert.equal(done.author?.name, 'Ada Lovelace');
      assert.equal(done.source, 'api');
    } finally {
      sim.setDeploymentDefaults({ queuedMs: 3_000, durationMs: 60_000 });
    }
  });

  it('previews a branch (202 {statusId, previewUrl}); previewing it again redeploys at the same URL', async () => {
    const c = client();
    const first = await c.triggerPreview('docs-agent/fix links?');
    assert.deepEqual(JSON.parse(sim.requests.at(-1)?.body ?? ''), { branch: 'docs-agent/fix links?' });
    assert.equal(sim.requests.at(-1)?.headers['content-type'], 'application/json');
    const again = await c.triggerPreview('docs-agent/fix links?');
    assert.notEqual(again.statusId, first.statusId, 'a new deployment');
    assert.equal(again.previewUrl, first.previewUrl, 'the same preview URL');
    assert.equal(first.previewUrl, sim.previewUrl('docs-agent/fix links?'));
    await assert.rejects(c.triggerPreview('  '), /The branch is empty/);
  });

  it('a 403 for the plan names the missing feature; an unknown status id is a 404 that says so; a bad automation is a 400 with the server\'s words', async () => {
    const c = client();
    sim.setPreviewsEnabled(false);
    try {
      const error = await c.triggerPreview('main').then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof ForbiddenError);
      assert.deepEqual(error.causes, ['plan']);
      assert.equal(error.feature, 'previews');
      assert.match(error.message, /^Access denied \(403: Preview deployments are not available on your current plan\.\)\. The cause: the organization's plan does not include preview deployments\./);
    } finally {
      sim.setPreviewsEnabled(true);
    }
    const missing = await c.getDeploymentStatus('000000000000000000000000').then(() => undefined, (e: unknown) => e);
    assert.ok(missing instanceof NotFoundError);
    assert.match(missing.message, /^Deployment status "000000000000000000000000" was not found \(404: Update status not found\)/);
    const inactive = sim.addAutomation({ active: false });
    const refused = await c.triggerAutomation(inactive).then(() => undefined, (e: unknown) => e);
    assert.ok(refused instanceof RequestRejectedError);
    assert.match(refused.message, /\(400: Automation is not active\)/);
    const unknown = await c.triggerAutomation('0123456789abcdef01234567').then(() => undefined, (e: unknown) => e);
    assert.ok(unknown instanceof NotFoundError);
    const ok = sim.addAutomation();
    const run = await c.triggerAutomation(ok);
    assert.equal(run.schemaId, ok);
    assert.equal(run.instanceId, sim.automationRuns(ok)?.[0]?.instanceId);
    // Ids travel as one path segment each.
    await assert.rejects(c.getDeploymentStatus('..'), /is not an id; it was not sent/);
    await c.getDeploymentStatus('a/b').catch(() => undefined);
    assert.equal(sim.requests.at(-1)?.path, '/v1/project/update-status/a%2Fb');
  });

  it('the platform\'s limits hold in simulated time: the 11th trigger in 10 s and the 6th preview in a minute are 429s with Retry-After', async () => {
    const c = client();
    sim.advance(120_000);
    for (let i = 0; i < 10; i++) await c.triggerDeployment();
    const limited = await c.triggerDeployment().then(() => undefined, (e: unknown) => e);
    assert.ok(limited instanceof RateLimitedError);
    assert.ok((limited.retryAfterMs ?? 0) > 0 && (limited.retryAfterMs ?? 0) <= 10_000);
    // Automations share that limit.
    await assert.rejects(c.triggerAutomation(sim.addAutomation()), RateLimitedError);
    sim.advance(10_000);
    await c.triggerDeployment();
    for (let i = 0; i < 5; i++) await c.triggerPreview(`limit/${i}`);
    const preview = await c.triggerPreview('limit/6').then(() => undefined, (e: unknown) => e);
    assert.ok(preview instanceof RateLimitedError);
    assert.ok((preview.retryAfterMs ?? 0) > 10_000, 'a minute\'s window');
    sim.advance(60_000);
    await c.triggerPreview('limit/6');
  });

  it('reads a status tolerantly: every field may be missing or null; unknown statuses and extra fields are kept or dropped, never fatal', () => {
    const bare = parseDeployment({ status: 'in_progress' }, 200, 'abc');
    assert.deepEqual(bare, { id: 'abc', status: 'in_progress', rawStatus: 'in_progress', logs: [], author: null });
    const odd = parseDeployment({ _id: 'other', status: 'cancelled', logs: ['a', null, 'b'], author: null, commit: { sha: 'f00', filesChanged: { added: null } }, extra: { deep: true }, endedAt: null }, 200, 'abc');
    assert.equal(odd.id, 'abc', 'the id asked for');
    assert.equal(odd.status, 'unknown');
    assert.equal(odd.rawStatus, 'cancelled');
    assert.deepEqual(odd.logs, ['a', '', 'b']);
    assert.deepEqual(odd.commit, { sha: 'f00', filesChanged: { added: [], modified: [], removed: [] } });
    assert.equal(odd.endedAt, undefined);
    // The vendor's document requires no field: no status reads as not given; a status of the wrong type is refused.
    assert.deepEqual(parseDeployment({ logs: [] }, 200, 'abc'), { id: 'abc', status: 'unknown', rawStatus: '', logs: [], author: null });
    assert.throws(() => parseDeployment({ status: 5 }, 200, 'abc'), (e: unknown) => e instanceof InvalidResponseError && /the deployment status has the wrong shape: field "status" is not a string/.test(e.message));
    // What the registry keeps: no logs (their count), file lists cut with their counts whole.
    const many = Array.from({ length: 120 }, (_, i) => `page-${i}.mdx`);
    const snapshot = toSnapshot({ ...bare, logs: ['x', 'y'], commit: { filesChanged: { added: many, modified: [], removed: ['gone.mdx'] } } });
    assert.equal(snapshot.logLines, 2);
    assert.ok(!('logs' in snapshot));
    assert.equal(snapshot.commit?.filesChanged?.added.length, 50);
    assert.deepEqual(snapshot.commit?.filesCount, { added: 120, modified: 0, removed: 1 });
  });

  it('refuses a trigger answer whose statusId is not an id (it would travel in a path and show on a row)', async () => {
    const c = client();
    sim.injectFault({ route: 'deploy.trigger', kind: 'status', status: 202, body: { statusId: '../../v2/agent/x' } });
    await assert.rejects(c.triggerDeployment(), /the deployment's trigger answer has the wrong shape: field "statusId" is not an id/);
  });

  it('over TLS, as the real service is reached', async () => {
    const pki = makeTestCertificates();
    const tls = await Simulator.start({ timeScale: 600, keys: [{ key: KEY }], tls: { key: pki.key, cert: pki.cert } });
    const c = new AdminApiClient({ baseUrl: tls.baseUrl, projectId: tls.projectId, getKey: () => KEY, log: recordingLogger('tls'), network: new Network({ extraCa: [pki.caCert] }, { env: {}, readFile: (p) => readFileSync(p, 'utf8') }) });
    try {
      assert.match(tls.baseUrl, /^https:/);
      const started = await c.triggerPreview('feature/tls');
      assert.match(started.previewUrl ?? '', /^https:\/\/127\.0\.0\.1:\d+\/previews\/feature-tls-[0-9a-f]{6}\/$/);
      const done = await waitForDeployment(c, started.statusId, { floorMs: 50, ceilingMs: 100 });
      assert.equal(done.status, 'success');
    } finally {
      await c.close();
      await tls.stop();
      pki.remove();
    }
  });
});

describe('DeploymentTriggers: pacing, 429s, one request in flight', () => {
  /** A client whose answers the test decides, counting what was sent. */
  function fake(answer: (kind: string, n: number) => Promise<unknown>) {
    const sent: string[] = [];
    const call = (kind: string) => {
      sent.push(kind);
      return answer(kind, sent.length);
    };
    return {
      sent,
      client: {
        triggerDeployment: () => call('deploy') as Promise<{ statusId: string }>,
        triggerPreview: (branch: string) => call(`preview:${branch}`) as Promise<{ statusId: string; previewUrl?: string }>,
        triggerAutomation: (id: string) => call(`automation:${id}`) as Promise<{ instanceId?: string }>,
      },
    };
  }
  function clock() {
    let now = 1_000_000;
    const sleeps: number[] = [];
    return { now: () => now, sleeps, sleep: (ms: number) => ((now += ms), sleeps.push(ms), Promise.resolve()) };
  }

  it('paces previews at 5 per minute and deployments with automations at 10 per 10 s, shared', async () => {
    const t = clock();
    const f = fake((kind, n) => Promise.resolve({ statusId: `s${n}` }));
    const triggers = new DeploymentTriggers({ client: f.client, now: t.now, sleep: t.sleep, joinWindowMs: 0 });
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) await triggers.preview(`b${i}`, { onWait: (ms) => waits.push(ms) });
    assert.deepEqual(t.sleeps, [60_000], 'the sixth preview waited for the first to leave the minute');
    assert.deepEqual(waits, [60_000]);
    t.sleeps.length = 0;
    for (let i = 0; i < 6; i++) await triggers.deploy();
    for (let i = 0; i < 4; i++) await triggers.runAutomation(`a${i}`);
    assert.deepEqual(t.sleeps, [], 'ten within 10 s');
    await triggers.deploy();
    assert.deepEqual(t.sleeps, [10_000], 'the eleventh (deployments and automations together) waited');
  });

  it('a 429 is waited out (its Retry-After) and sent once more; a second 429 ends with the time to retry; nothing waits longer than allowed', async () => {
    const t = clock();
    let limited = 1;
    const f = fake(() => (limited-- > 0 ? Promise.reject(new RateLimitedError(7_000)) : Promise.resolve({ statusId: 'ok' })));
    const triggers = new DeploymentTriggers({ client: f.client, now: t.now, sleep: t.sleep });
    const why: string[] = [];
    assert.deepEqual(await triggers.preview('main', { onWait: (_ms, w) => why.push(w) }), { statusId: 'ok' });
    assert.deepEqual(f.sent, ['preview:main', 'preview:main']);
    assert.deepEqual(t.sleeps, [7_000]);
    assert.deepEqual(why, ['rateLimited']);
    limited = 2;
    await assert.rejects(triggers.preview('other'), (e: unknown) => e instanceof TriggerRateLimitError && /5 previews per minute, 429\); nothing was started\. Try again after \d\d:\d\d \(in 7 s\)/.test(e.message));
    assert.equal(f.sent.filter((s) => s === 'preview:other').length, 2);
    const long = fake(() => Promise.reject(new RateLimitedError(3_600_000)));
    await assert.rejects(new DeploymentTriggers({ client: long.client, now: t.now, sleep: t.sleep, maxRateLimitWaitMs: 60_000 }).deploy(), TriggerRateLimitError);
    assert.equal(long.sent.length, 1, 'not waited: longer than allowed');
  });

  it('one request in flight per kind and branch: a double-click joins the first (and shortly after, gets its answer); other branches go', async () => {
    const t = clock();
    const pending: ((v: unknown) => void)[] = [];
    const f = fake((kind, n) => new Promise((done) => pending.push(() => done({ statusId: `${kind}#${n}` }))));
    const triggers = new DeploymentTriggers({ client: f.client, now: t.now, sleep: t.sleep });
    const a = triggers.preview('x');
    const b = triggers.preview('x');
    const c = triggers.preview('y');
    const d = triggers.deploy();
    const e = triggers.deploy();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(f.sent, ['preview:x', 'preview:y', 'deploy']);
    assert.equal(triggers.isRunning('preview', 'x'), true);
    for (const p of pending) p(undefined);
    assert.deepEqual(await Promise.all([a, b, c, d, e]), [{ statusId: 'preview:x#1' }, { statusId: 'preview:x#1' }, { statusId: 'preview:y#2' }, { statusId: 'deploy#3' }, { statusId: 'deploy#3' }]);
    assert.deepEqual(await triggers.preview('x'), { statusId: 'preview:x#1' }, 'a click right after it answered');
    await t.sleep(2_000);
    const later = triggers.preview('x');
    pending.at(-1)?.(undefined);
    assert.deepEqual(await later, { statusId: 'preview:x#4' }, 'a redeploy later is sent');
  });

  it('a trigger that got a 5xx may have queued the deployment: never sent again, and the error says so', async () => {
    const f = fake(() => Promise.reject(new ServerError(502)));
    const triggers = new DeploymentTriggers({ client: f.client });
    await assert.rejects(triggers.deploy(), (e: unknown) => e instanceof TriggerMayHaveArrivedError && /may have been queued anyway, so it was not sent again/.test(e.message));
    assert.equal(f.sent.length, 1);
    // A refusal (4xx) created nothing: it is the client's own error.
    const refused = fake(() => Promise.reject(new RequestRejectedError(400, 'Invalid automation ID')));
    await assert.rejects(new DeploymentTriggers({ client: refused.client }).runAutomation('x'), RequestRejectedError);
  });

  it('RateWindow: the wait is until the oldest start in the window leaves it, or until a 429 said', () => {
    let now = 0;
    const w = new RateWindow(2, 1_000, () => now);
    w.record();
    now = 300;
    w.record();
    assert.equal(w.waitMs(), 700);
    now = 900;
    assert.equal(w.waitMs(), 100);
    now = 1_000;
    assert.equal(w.waitMs(), 0, 'the first start has left the window');
    w.block(5_000);
    assert.equal(w.waitMs(), 5_000);
  });
});
