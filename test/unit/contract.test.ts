/**
 * Contract tests: the client and the simulator held against the vendor's own OpenAPI documents
 * (test/contract/), over TLS as the real service speaks it.
 * - Recorded traffic: every request the real client sends and every answer the simulator gives,
 *   on every route of test/contract/routes.ts, is validated against the documents, so neither
 *   can drift from them unseen.
 * - Generated answers: every vendor-valid answer made from the documents' schemas (the required
 *   fields only, every field, each enum value, nulls) is served over a real socket; the client
 *   must read each one (and each documented error as its typed error).
 */
import * as assert from 'node:assert/strict';
import { AnalyticsApi } from '../../src/core/analytics/analyticsApi';
import { periodRange } from '../../src/core/analytics/period';
import { loadSite } from '../../src/core/analytics/site';
import { AdminApiClient } from '../../src/core/api/client';
import { ApiError, AuthError, ConflictError, ForbiddenError, NotFoundError, RateLimitedError, RequestRejectedError, ServerError } from '../../src/core/api/apiErrors';
import { askAgent } from '../../src/core/agent/ask';
import { Network } from '../../src/core/net/network';
import { Simulator, type Exchange, type RouteName } from '../simulator';
import { makeTestCertificates, type TestCertificates } from '../support/certificates';
import { DOCUMENTS, VendorDocument, type DocumentName } from '../contract/documents';
import { variants } from '../contract/generate';
import { CONTRACT_ROUTES, type ContractRoute } from '../contract/routes';
import { recordingLogger } from './support/logger';

const KEY = 'da_contract_key_5be1';
const RO_KEY = 'da_contract_readonly_key_07c3';

/** The typed error a documented error status must be read as. */
const ERROR_OF: Record<number, new (...args: never[]) => ApiError> = {
  400: RequestRejectedError,
  401: AuthError,
  403: ForbiddenError,
  404: NotFoundError,
  409: ConflictError,
  429: RateLimitedError,
  500: ServerError,
};

describe('contract: the client and the simulator against the vendor OpenAPI documents (over TLS)', function () {
  this.timeout(30_000);
  let pki: TestCertificates;
  let sim: Simulator;
  const documents = new Map<DocumentName, VendorDocument>();
  const open: AdminApiClient[] = [];

  before(async () => {
    pki = makeTestCertificates();
    sim = await Simulator.start({ keys: [{ key: KEY }, { key: RO_KEY, readOnly: true }], tls: { key: pki.key, cert: pki.cert }, agentDefaults: { hourlyLimit: 4 } });
    for (const name of new Set(CONTRACT_ROUTES.map((r) => r.document))) documents.set(name, await VendorDocument.load(name));
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
    sim.clearFaults();
  });
  after(async () => {
    await sim.stop();
    pki.remove();
  });

  function client(key = KEY): AdminApiClient {
    const c = new AdminApiClient({
      baseUrl: sim.baseUrl,
      projectId: sim.projectId,
      getKey: () => key,
      network: new Network({ extraCa: [pki.caCert] }, { env: {} }),
      log: recordingLogger('contract'),
      maxAttempts: 1,
      sleep: () => Promise.resolve(),
    });
    open.push(c);
    return c;
  }

  function documentOf(route: ContractRoute): VendorDocument {
    const document = documents.get(route.document);
    assert.ok(document !== undefined, route.document);
    return document;
  }

  function routeOf(name: RouteName | 'unknown'): ContractRoute {
    const route = CONTRACT_ROUTES.find((r) => r.route === name);
    assert.ok(route !== undefined, `the simulator's route "${name}" is in test/contract/routes.ts`);
    return route;
  }

  /** Whatever a call does, its outcome (the calls below fail on purpose too). */
  async function settle(promise: Promise<unknown>): Promise<unknown> {
    return promise.catch((error: unknown) => error);
  }

  /** Every problem with the requests and answers of `exchanges`, one line each. */
  async function findings(exchanges: readonly Exchange[]): Promise<string[]> {
    const found: string[] = [];
    for (const { request, reply } of exchanges) {
      const route = routeOf(request.route);
      const document = documentOf(route);
      const where = `${request.method} ${request.path} (${route.route}) -> ${reply.status}`;
      const checked = await document.checkRequest(request);
      found.push(...checked.findings.map((f) => `${where}: ${f}`));
      const expected = document.operation(route.method, route.path);
      assert.ok(expected !== undefined, `${route.document} documents ${route.method.toUpperCase()} ${route.path}`);
      if (checked.operation !== undefined && checked.operation.operationId !== expected.operationId) found.push(`${where}: is the document's ${checked.operation.operationId}, not ${expected.operationId}`);
      found.push(...document.checkReply(expected, reply).map((f) => `${where}: ${f}`));
    }
    return found;
  }

  it('the documents are valid OpenAPI and document every route the project uses', () => {
    for (const route of CONTRACT_ROUTES) {
      assert.ok(documentOf(route).operation(route.method, route.path), `${route.document} has ${route.method.toUpperCase()} ${route.path}`);
    }
  });

  it('every document loads, and every answer generated from its schemas is valid against it (ready for the routes to come)', async () => {
    const counts: Record<string, number> = {};
    const invalid: string[] = [];
    for (const name of Object.keys(DOCUMENTS) as DocumentName[]) {
      const document = documents.get(name) ?? (await VendorDocument.load(name));
      counts[name] = 0;
      for (const operation of document.operations()) {
        for (const [code, response] of Object.entries((operation.responses ?? {}) as Record<string, { content?: Record<string, { schema?: object }> }>)) {
          const schema = response.content?.['application/json']?.schema;
          if (schema === undefined) continue;
          for (const variant of variants(schema)) {
            counts[name]++;
            invalid.push(...document.validate(schema, variant.body).map((f) => `${name} ${operation.operationId ?? ''} ${code} ${variant.name}: ${f}`));
          }
        }
      }
    }
    assert.deepEqual(invalid, []);
    // Each document gives many shapes (enums, nulls, anyOf branches), not one per answer.
    for (const [name, count] of Object.entries(counts)) assert.ok(count >= 20, `${name}: ${count} generated answers`);
  });

  describe('recorded traffic (the real client against the real simulator)', () => {
    it('every request sent and every answer given, on every route and each outcome, is what the documents say', async () => {
      const exchanges: Exchange[] = [];
      const stop = sim.onExchange((e) => exchanges.push(e));
      try {
        const c = client();
        // Agent jobs: create, read while active and once done, a follow-up; the refusals.
        const created = await askAgent(c, { kind: 'create' }, 'Rewrite the quickstart.');
        await c.getAgentJob(created.id);
        sim.advance(120_000);
        await c.getAgentJob(created.id);
        await c.sendAgentMessage(created.id, 'And the FAQ.');
        const archived = String(sim.addAgentJob({ outcome: 'no-changes', durationMs: 0 }).id);
        sim.archiveAgentJob(archived);
        await c.getAgentJob(archived);
        await settle(c.sendAgentMessage(archived, 'Once more.'));
        await c.getAgentJob(String(sim.addAgentJob({ outcome: 'failed', durationMs: 0 }).id));
        await settle(c.getAgentJob('no-such-job'));
        await settle(c.sendAgentMessage('no-such-job', 'Hello?'));
        await settle(c.createAgentJob('Rewrite the FAQ.'));
        await settle(c.createAgentJob('Over the hourly limit.'));
        await settle(c.createAgentJob('Over the hourly limit, again.'));
        // Static export: start (with a version and paths), each status, the bundle before and after, the refusals.
        sim.setExportDefaults({ queuedMs: 10_000, durationMs: 60_000 });
        const started = await c.startExport({ domain: 'docs.example.com', version: '2026-11-01', paths: ['index', 'guides/setup'] });
        await c.getExportJob(started.jobId);
        await settle(c.generateBundle(started.jobId));
        sim.advance(30_000);
        await c.getExportJob(started.jobId);
        sim.advance(60_000);
        await c.getExportJob(started.jobId);
        await c.generateBundle(started.jobId);
        const failed = String(sim.addExportJob({ outcome: 'failed', error: 'render timeout', queuedMs: 0, durationMs: 0, createdAt: sim.now() - 1_000 }).jobId);
        await c.getExportJob(failed);
        await settle(c.generateBundle(failed));
        await settle(c.getExportJob('no-such-export'));
        await settle(c.generateBundle('no-such-export'));
        await settle(c.startExport({ domain: 'not a domain' }));
        // The key: rejected, read-only, and static export not in the plan.
        await settle(client('da_wrong_key_0000').getAgentJob(created.id));
        await settle(client('da_wrong_key_0000').getExportJob(started.jobId));
        await settle(client(RO_KEY).createAgentJob('Read-only.'));
        sim.setStaticExportEnabled(false);
        await settle(c.startExport({ domain: 'docs.example.com' }));
        await settle(c.getExportJob(started.jobId));
        sim.setStaticExportEnabled(true);
        // Deployments: a deployment read queued, running and ended, a failed one; a preview (and
        // not in the plan); an automation run, and the refusals; the rate limits.
        const deployed = await c.triggerDeployment();
        await c.getDeploymentStatus(deployed.statusId);
        sim.advance(20_000);
        await c.getDeploymentStatus(deployed.statusId);
        sim.advance(120_000);
        await c.getDeploymentStatus(deployed.statusId);
        await c.getDeploymentStatus(String(sim.addDeployment({ kind: 'preview', branch: 'agent/fr', outcome: 'failure', queuedMs: 0, durationMs: 0, author: null, createdAt: sim.now() - 1_000 })._id));
        await settle(c.getDeploymentStatus('000000000000000000000000'));
        await c.triggerPreview('docs-agent/fix-links');
        sim.setPreviewsEnabled(false);
        await settle(c.triggerPreview('docs-agent/fix-links'));
        sim.setPreviewsEnabled(true);
        const automation = sim.addAutomation();
        await c.triggerAutomation(automation);
        await settle(c.triggerAutomation('not-an-automation-id'));
        await settle(c.triggerAutomation('0123456789abcdef01234567'));
        for (let i = 0; i < 10; i++) await settle(c.triggerDeployment());
        for (let i = 0; i < 5; i++) await settle(c.triggerPreview(`limit/${i}`));
        // Reader analytics: the whole site as the editor loads it, every list as the CLI reads
        // it (filters, cursors, offsets), a bad date, a wrong key, a plan without analytics.
        sim.seedPlaygroundAnalytics();
        const range = periodRange(30, sim.now());
        const analytics = new AnalyticsApi(c);
        await loadSite(analytics, range, { paging: { sleep: () => Promise.resolve() } });
        const firstFeedback = await analytics.feedback(range, { limit: 2 }, { source: 'contextual', status: ['pending', 'in_progress'] });
        await analytics.feedback(range, { limit: 2, cursor: firstFeedback.nextCursor ?? undefined }, { source: 'contextual', status: ['pending', 'in_progress'] });
        await analytics.feedbackByPage(range, 5, { source: 'code_snippet' });
        const firstTalks = await analytics.conversations(range, { limit: 2 });
        await analytics.conversations(range, { limit: 2, cursor: firstTalks.nextCursor ?? undefined });
        await analytics.callerStats(range);
        const firstSearches = await analytics.searches(range, { limit: 2 });
        await analytics.searches(range, { limit: 2, cursor: firstSearches.nextCursor ?? undefined });
        await analytics.visitors(range, { offset: 2, limit: 2 });
        for (const bad of [{ from: '2026-02-30', to: '2026-03-01' }, { from: 'yesterday', to: '2026-03-01' }]) {
          await settle(analytics.feedback(bad, { limit: 1 }));
          await settle(analytics.feedbackByPage(bad, 1));
          await settle(analytics.conversations(bad, { limit: 1 }));
          await settle(analytics.callerStats(bad));
          await settle(analytics.searches(bad, { limit: 1 }));
          await settle(analytics.views(bad, { offset: 0, limit: 1 }));
          await settle(analytics.visitors(bad, { offset: 0, limit: 1 }));
        }
        await settle(new AnalyticsApi(client('da_wrong_key_0000')).views(range, { offset: 0, limit: 1 }));
        sim.setAnalyticsEnabled(false);
        await settle(analytics.feedback(range, { limit: 1 }));
        sim.setAnalyticsEnabled(true);
      } finally {
        stop();
      }
      assert.deepEqual(await findings(exchanges), []);
      // Each route was seen, and with the outcomes the tour meant to cover.
      const seen = new Map<string, Set<number>>();
      for (const { request, reply } of exchanges) seen.set(request.route, (seen.get(request.route) ?? new Set()).add(reply.status));
      const statuses = Object.fromEntries(CONTRACT_ROUTES.map((r) => [r.route, [...(seen.get(r.route) ?? [])].sort()]));
      assert.deepEqual(statuses, {
        'agent.get': [200, 401, 404],
        'agent.create': [201, 403, 429],
        'agent.message': [200, 400, 404],
        'export.start': [202, 400, 403],
        'export.status': [200, 401, 403, 404],
        'export.bundle': [200, 404, 409],
        'deploy.trigger': [202, 429],
        'preview.trigger': [202, 403, 429],
        'deploy.status': [200, 404],
        'automation.trigger': [202, 400, 404],
        'analytics.feedback': [200, 400, 403],
        'analytics.feedbackByPage': [200, 400],
        'analytics.assistant': [200, 400],
        'analytics.callerStats': [200, 400],
        'analytics.searches': [200, 400],
        'analytics.views': [200, 400, 401],
        'analytics.visitors': [200, 400],
      });
    });

    it('the check can fail: a wrong answer and a wrong request are both found', async () => {
      const exchanges: Exchange[] = [];
      const stop = sim.onExchange((e) => exchanges.push(e));
      try {
        const job = String(sim.addAgentJob().id);
        sim.injectFault({ route: 'agent.get', kind: 'status', status: 200, body: { id: job, status: 'paused', prLink: 'not a link', createdAt: 'yesterday' } });
        await settle(client().getAgentJob(job));
        sim.injectFault({ route: 'agent.get', kind: 'status', status: 418, body: { error: 'teapot' } });
        await settle(client().getAgentJob(job));
        // A request the client never sends: no key, and an empty prompt.
        await fetchIgnoringCertificate(`${sim.baseUrl}/v2/agent/${sim.projectId}/job`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: '' }) });
      } finally {
        stop();
      }
      const found = (await findings(exchanges)).join('\n');
      assert.match(found, /\/status must be equal to one of the allowed values/);
      assert.match(found, /\/prLink must match format "uri"/);
      assert.match(found, /\/createdAt must match format "date-time"/);
      assert.match(found, /418 is not an answer the document lists/);
      assert.match(found, /does not meet the security requirement/);
    });

    /** A request made by hand (the client always sends a key and a prompt), trusting the test CA. */
    async function fetchIgnoringCertificate(url: string, init: { method: string; headers: Record<string, string>; body: string }): Promise<void> {
      const { request } = await import('node:https');
      await new Promise<void>((resolve, reject) => {
        const req = request(url, { method: init.method, headers: init.headers, ca: pki.caCert }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        req.end(init.body);
      });
    }
  });

  describe('generated answers (every vendor-valid shape, served over a socket)', () => {
    for (const route of CONTRACT_ROUTES) {
      describe(`${route.route}: ${route.method.toUpperCase()} ${route.path}`, () => {
        // The documents load in `before`; the cases are made from them when the suite runs.
        it('reads every documented answer: what the route gives, or the typed error of its status', async () => {
          const document = documentOf(route);
          const operation = document.operation(route.method, route.path);
          assert.ok(operation !== undefined);
          const responses = (operation.responses ?? {}) as Record<string, { content?: Record<string, { schema?: object }> }>;
          const tried: string[] = [];
          const failures: string[] = [];
          for (const [code, response] of Object.entries(responses)) {
            const status = Number(code);
            const schema = response.content?.['application/json']?.schema;
            assert.ok(schema !== undefined, `${code} has a JSON schema`);
            for (const variant of variants(schema)) {
              const name = `${code} ${variant.name}`;
              tried.push(name);
              // The generator's answer must itself be vendor-valid.
              assert.deepEqual(document.validate(schema, variant.body), [], `${name}: the generated answer is not vendor-valid`);
              sim.injectFault({ route: route.route, kind: 'status', status, body: variant.body });
              const outcome = await settle(route.call(client(), 'job-asked-about'));
              try {
                if (status < 300) {
                  route.read(outcome, variant.body, 'job-asked-about');
                } else {
                  const expected = ERROR_OF[status];
                  assert.ok(expected !== undefined, `no typed error is expected for ${status}`);
                  assert.ok(outcome instanceof expected, `read as ${outcome instanceof Error ? outcome.name : typeof outcome}, not ${expected.name}: ${outcome instanceof Error ? outcome.message : ''}`);
                }
              } catch (error) {
                failures.push(`${name}: ${JSON.stringify(variant.body)}: ${error instanceof Error ? error.message : String(error)}`);
              }
            }
          }
          assert.deepEqual(failures, [], `of ${tried.length} answers`);
          assert.ok(tried.length >= 2, `${tried.length} answers tried`);
        });
      });
    }
  });
});
