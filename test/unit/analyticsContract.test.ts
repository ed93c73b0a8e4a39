/**
 * Contract tests of the analytics routes against the vendor's own document
 * (test/contract/vendor/analytics.openapi.json, the "Analytics Export API" 1.0.0, copied
 * unchanged under its MIT licence), with the validator of the project's contract tests:
 * openapi-backend (an operation found from the method and path under the document's server;
 * `$ref`s resolved; parameters and answers validated with Ajv, which reads 3.1's type arrays),
 * ajv-formats for `format`. Over TLS, as the real service is:
 * - every request the client sends for a whole site and for the CLI's lists is one the document
 *   takes (its parameters, their bounds), and every answer the simulator gives (successes and
 *   refusals) is one the document describes;
 * - vendor-valid answers written to the edges of the document (required fields only, nulls where
 *   allowed, each feedback shape, every enum value) are checked valid by the validator, served,
 *   and read by the client, each field kept.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import addFormats from 'ajv-formats';
import { OpenAPIBackend, type Document, type Operation } from 'openapi-backend';
import { AnalyticsApi } from '../../src/core/analytics/api';
import { periodRange } from '../../src/core/analytics/period';
import { loadSite } from '../../src/core/analytics/site';
import { Agent, request } from 'undici';
import { AdminApiClient } from '../../src/core/api/client';
import { Network } from '../../src/core/net/network';
import { makeTestCertificates, type TestCertificates } from '../support/certificates';
import { Simulator } from '../simulator';
import { recordingLogger } from './support/logger';

const VENDOR = join(__dirname, '..', '..', '..', 'test', 'contract', 'vendor', 'analytics.openapi.json');

/**
 * openapi-backend, without its check of the document as a whole: that check knows OpenAPI 3.0
 * only, and this document is 3.1 (its schemas still validate requests and answers: Ajv reads
 * 3.1's type arrays).
 */
class Backend extends OpenAPIBackend {
  override validateDefinition(): Document {
    return this.document;
  }
}

describe('contract: the analytics routes against the vendor\'s analytics.openapi.json', function () {
  this.timeout(30_000);
  let pki: TestCertificates;
  let sim: Simulator;
  let client: AdminApiClient;
  let doc: Backend;

  before(async () => {
    const definition = JSON.parse(readFileSync(VENDOR, 'utf8')) as Document;
    // Operations without an operationId get `<method> <path>` (openapi-backend keys them by it).
    for (const [path, item] of Object.entries(definition.paths ?? {})) {
      for (const [method, operation] of Object.entries(item ?? {})) if (typeof operation === 'object' && operation !== null && 'responses' in operation) (operation as { operationId?: string }).operationId ??= `${method} ${path}`;
    }
    doc = new Backend({
      definition,
      apiRoot: '/',
      strict: true,
      ajvOpts: { allErrors: true },
      customizeAjv: (ajv) => {
        addFormats(ajv);
        // The document's cursors and thread ids (Crockford base32, 26 characters).
        ajv.addFormat('ulid', /^[0-9A-HJKMNP-TV-Z]{26}$/i);
        return ajv;
      },
    });
    await doc.init();
    pki = makeTestCertificates();
    sim = await Simulator.start({ tls: { key: pki.key, cert: pki.cert } });
    client = new AdminApiClient({ baseUrl: sim.baseUrl, projectId: sim.projectId, getKey: () => sim.key, log: recordingLogger('contract'), network: new Network({ extraCa: [pki.caCert] }, { env: {} }), baseDelayMs: 1, maxDelayMs: 2 });
  });
  after(async () => {
    await client.close();
    await sim.stop();
    pki.remove();
  });

  function operationOf(method: string, path: string, query: string): Operation {
    const operation = doc.matchOperation({ method, path, query, headers: {} });
    assert.ok(operation !== undefined, `${method} ${path}: no operation of the document`);
    return operation;
  }

  /** Every analytics request in the log and its answer, checked against the document. */
  function checkTraffic(): number {
    const exchanges = sim.requests.filter((r) => r.route.startsWith('analytics.'));
    for (const r of exchanges) {
      const operation = operationOf(r.method, r.path, r.query);
      const request = doc.validateRequest({ method: r.method, path: r.path, query: r.query, headers: r.headers }, operation);
      assert.ok(request.valid, `${r.method} ${r.path}?${r.query}: ${JSON.stringify(request.errors)}`);
      assert.match(r.headers.authorization ?? '', /^Bearer \S+$/, 'bearerAuth');
    }
    return exchanges.length;
  }

  it('a whole site and every CLI list: each request is one the document takes, each answer one it describes (successes and 400s)', async () => {
    sim.seedPlaygroundAnalytics();
    sim.clearRequests();
    const api = new AnalyticsApi(client);
    const range = periodRange(30, sim.now());
    await loadSite(api, range, { paging: { sleep: () => Promise.resolve() } });
    await api.visitors(range, { offset: 0, limit: 2 });
    await api.callerStats(range);
    await api.feedback(range, { limit: 3 }, { source: 'code_snippet', status: ['pending', 'in_progress'] });
    await api.feedbackByPage(range, 5, { source: 'contextual' });
    const first = await api.feedback(range, { limit: 2 });
    await api.feedback(range, { limit: 2, cursor: first.nextCursor ?? undefined });
    const talks = await api.conversations(range, { limit: 2 });
    await api.conversations(range, { limit: 2, cursor: talks.nextCursor ?? undefined });
    await assert.rejects(api.feedback({ from: '2026-02-30', to: '2026-03-01' }, { limit: 1 }), /400/);
    const sent = checkTraffic();
    assert.ok(sent >= 12, `${sent} requests checked`);
    // The answers, by status, as the simulator gave them (read again without the client).
    for (const r of sim.requests.filter((x) => x.route.startsWith('analytics.'))) {
      const operation = operationOf(r.method, r.path, r.query);
      const answer = await answerOf(r.path, r.query);
      assert.equal(answer.status, r.status, `${r.path}: the same answer again`);
      const valid = doc.validateResponse(answer.body, operation, answer.status);
      assert.ok(valid.valid, `${r.path}?${r.query} -> ${answer.status}: ${JSON.stringify(valid.errors)}`);
    }
  });

  /** The answer to a GET, asked again with the key through the client's own TLS trust. */
  async function answerOf(path: string, query: string): Promise<{ status: number; body: unknown }> {
    const dispatcher = new Agent({ connect: { ca: pki.caCert } });
    try {
      const res = await request(`${sim.baseUrl}${path}${query === '' ? '' : `?${query}`}`, { headers: { authorization: `Bearer ${sim.key}` }, dispatcher });
      return { status: res.statusCode, body: await res.body.json() };
    } finally {
      await dispatcher.close();
    }
  }

  it('answers at the document\'s edges (required fields only, nulls, each feedback shape, every enum value) are valid, and the client keeps every field', async () => {
    const feedback = {
      feedback: [
        { id: 'c1', path: '/a', comment: null, createdAt: null, source: 'contextual', status: 'pending', helpful: false, contact: null },
        { id: 'c2', path: 'https://docs.example.com/b', comment: 'words', createdAt: '2026-11-01T00:00:00Z', source: 'contextual', status: 'in_progress', helpful: true, contact: 'someone@example.com' },
        { id: 'k1', path: '/c', comment: null, createdAt: null, source: 'code_snippet', status: 'resolved', code: 'x()', filename: null, lang: null },
        { id: 'p1', path: '/d', comment: null, createdAt: null, source: 'agent', status: 'dismissed' },
        { id: 'p2', path: '/e', comment: 'thumbs', createdAt: '2026-11-02', source: 'thumbs_only', status: 'pending' },
      ],
      nextCursor: null,
      hasMore: false,
    };
    const conversations = {
      conversations: [
        { id: '01JDQ8V7W4T2M8X6Y1Z3A5B7C9', timestamp: '2026-11-01T00:00:00Z', query: 'q', response: 'r', sources: [], resolutionStatus: 'unanswered', queryCategory: null, pageUrl: null },
        { id: '01JDQ8V7W4T2M8X6Y1Z3A5B7CA', timestamp: '2026-11-01T00:00:00Z', query: 'q2', response: 'r2', responseType: 'clarifying_question', sources: [{ title: 't', url: 'https://docs.example.com/x' }], resolutionStatus: 'answered', queryCategory: 'c', pageUrl: 'https://docs.example.com/x' },
      ],
      nextCursor: null,
      hasMore: false,
    };
    const searches = { searches: [{ searchQuery: 's', hits: 3, ctr: 0.5, topClickedPage: null, lastSearchedAt: '2026-11-01T00:00:00Z' }], totalSearches: 3, nextCursor: null };
    const views = { totals: { human: 1, ai: 2, total: 3 }, views: [{ path: '/a', human: 1, ai: 2, total: 3 }], hasMore: false };
    const byPage = { feedback: [{ path: '/a', thumbsUp: 0, thumbsDown: 1, code: 0, total: 1 }], hasMore: false };
    const cases: [string, string, unknown][] = [
      ['analytics.feedback', 'feedback', feedback],
      ['analytics.assistant', 'assistant', conversations],
      ['analytics.searches', 'searches', searches],
      ['analytics.views', 'views', views],
      ['analytics.feedbackByPage', 'feedback/by-page', byPage],
    ];
    for (const [, resource, body] of cases) {
      const valid = doc.validateResponse(body, operationOf('get', `/v1/analytics/${sim.projectId}/${resource}`, ''), 200);
      assert.ok(valid.valid, `${resource}: the sample itself is vendor-valid: ${JSON.stringify(valid.errors)}`);
    }
    const api = new AnalyticsApi(client);
    const range = periodRange(7, sim.now());
    const serve = (route: string, body: unknown) => sim.injectFault({ route: route as 'analytics.feedback', kind: 'malformed', status: 200, contentType: 'application/json', body: JSON.stringify(body) });
    serve('analytics.feedback', feedback);
    const f = await api.feedback(range, { limit: 10 });
    assert.deepEqual(f.items.map((e) => `${e.id}:${e.shape}:${e.rawStatus}`), ['c1:contextual:pending', 'c2:contextual:in_progress', 'k1:code:resolved', 'p1:plain:dismissed', 'p2:plain:pending']);
    const c2 = f.items[1];
    assert.ok(c2?.shape === 'contextual' && c2.helpful === true && c2.contact?.reveal() === 'someone@example.com' && c2.comment === 'words');
    const k1 = f.items[2];
    assert.ok(k1?.shape === 'code' && k1.code === 'x()' && k1.filename === null && k1.lang === null);
    assert.equal(f.nextCursor, null);
    serve('analytics.assistant', conversations);
    const c = await api.conversations(range, { limit: 10 });
    assert.deepEqual(c.items.map((x) => `${x.resolutionStatus}:${x.responseType}:${x.pageUrl}:${x.queryCategory}`), ['unanswered:answer:null:null', 'answered:clarifying_question:https://docs.example.com/x:c']);
    serve('analytics.searches', searches);
    assert.deepEqual((await api.searches(range, { limit: 10 })).items, searches.searches);
    serve('analytics.views', views);
    const v = await api.views(range, { offset: 0, limit: 10 });
    assert.deepEqual([v.items, v.totals, v.hasMore], [views.views, views.totals, false]);
    serve('analytics.feedbackByPage', byPage);
    assert.deepEqual((await api.feedbackByPage(range, 10)).items, byPage.feedback);
  });

  it('the check can fail: a wrong answer and a wrong request are found', () => {
    const operation = operationOf('get', `/v1/analytics/${sim.projectId}/views`, '');
    assert.equal(doc.validateResponse({ totals: { human: 1 }, views: [], hasMore: 'no' }, operation, 200).valid, false);
    assert.equal(doc.validateRequest({ method: 'get', path: `/v1/analytics/${sim.projectId}/views`, query: 'limit=999', headers: {} }, operation).valid, false);
  });
});
