/**
 * The analytics routes (issue 30) in the contract tests: each with the vendor operation it is
 * held against, the client's call (through core/analytics/analyticsApi.ts, as the editor, the CLI and the
 * Action make it) and what the client must make of any vendor-valid answer: every row kept,
 * each field as the answer gave it (a nullable as null, an unknown source or status with the
 * server's word, the feedback shape chosen by the source, a contact held and revealed as given).
 */
import * as assert from 'node:assert/strict';
import { AnalyticsApi } from '../../src/core/analytics/analyticsApi';
import type { CallerStats, Conversation, CursorPage, FeedbackEntry, OffsetPage, PageFeedbackCounts, SearchRow, TrafficRow } from '../../src/core/analytics/analyticsTypes';
import type { ContractRoute } from './routes';

type Fields = Record<string, unknown>;

/** The range every call asks about (any valid one: the simulator or the generated answer decides what comes). */
export const CONTRACT_RANGE = { from: '2026-11-01', to: '2026-12-01' };

function value<T>(outcome: unknown): T {
  assert.ok(!(outcome instanceof Error), `refused: ${outcome instanceof Error ? outcome.message : ''}`);
  return outcome as T;
}

const rows = (body: unknown, list: string): Fields[] => ((body as Fields)[list] ?? []) as Fields[];

function feedback(outcome: unknown, body: unknown): void {
  const page = value<CursorPage<FeedbackEntry>>(outcome);
  const given = rows(body, 'feedback');
  assert.equal(page.items.length, given.length, 'every entry kept');
  page.items.forEach((entry, i) => {
    const b = given[i] ?? {};
    assert.equal(entry.id, b.id, 'id');
    assert.equal(entry.path, b.path, 'path');
    assert.equal(entry.comment, b.comment ?? null, 'comment');
    assert.equal(entry.createdAt, b.createdAt ?? null, 'createdAt');
    assert.equal(entry.rawSource, b.source, 'source');
    assert.equal(entry.rawStatus, b.status, 'status');
    if (b.source === 'code_snippet') {
      assert.ok(entry.shape === 'code', 'a code_snippet entry is feedback on code');
      assert.deepEqual([entry.code, entry.filename, entry.lang], [b.code ?? '', b.filename ?? null, b.lang ?? null]);
    } else if (b.source === 'contextual') {
      assert.ok(entry.shape === 'contextual', 'a contextual entry is page feedback');
      assert.equal(entry.helpful, typeof b.helpful === 'boolean' ? b.helpful : undefined, 'helpful');
      const contact = typeof b.contact === 'string' && b.contact.trim() !== '' ? b.contact.trim() : undefined;
      assert.equal(entry.contact?.reveal(), contact, 'contact');
    }
  });
  assert.equal(page.nextCursor, typeof (body as Fields).nextCursor === 'string' && (body as Fields).nextCursor !== '' ? (body as Fields).nextCursor : null, 'nextCursor');
}

function conversations(outcome: unknown, body: unknown): void {
  const page = value<CursorPage<Conversation>>(outcome);
  const given = rows(body, 'conversations');
  assert.equal(page.items.length, given.length, 'every conversation kept');
  page.items.forEach((c, i) => {
    const b = given[i] ?? {};
    assert.deepEqual([c.id, c.timestamp, c.query, c.response], [b.id, b.timestamp, b.query, b.response ?? '']);
    assert.equal(c.resolutionStatus, b.resolutionStatus === 'answered' || b.resolutionStatus === 'unanswered' ? b.resolutionStatus : 'unknown', 'resolutionStatus');
    assert.equal(c.responseType, b.responseType === undefined || b.responseType === 'answer' ? 'answer' : b.responseType === 'clarifying_question' ? 'clarifying_question' : 'unknown', 'responseType');
    assert.deepEqual([c.queryCategory, c.pageUrl], [b.queryCategory ?? null, b.pageUrl ?? null]);
    assert.equal(c.sources.length, ((b.sources ?? []) as unknown[]).length, 'sources');
  });
}

function searches(outcome: unknown, body: unknown): void {
  const page = value<CursorPage<SearchRow>>(outcome);
  const given = rows(body, 'searches');
  // A share, 0 to 1; an answer holding a value above 1 gives percentages (core/analytics/analyticsSchemas.ts).
  const percent = given.some((s) => Number(s.ctr) > 1);
  assert.deepEqual(
    page.items.map((s) => [s.searchQuery, s.hits, s.ctr, s.topClickedPage]),
    given.map((s) => [s.searchQuery, s.hits, Math.min(1, Math.max(0, percent ? Number(s.ctr) / 100 : Number(s.ctr))), s.topClickedPage ?? null]),
  );
}

function traffic(list: 'views' | 'visitors') {
  return (outcome: unknown, body: unknown): void => {
    const page = value<OffsetPage<TrafficRow>>(outcome);
    assert.deepEqual(page.items, rows(body, list));
    assert.deepEqual(page.totals, (body as Fields).totals);
    assert.equal(page.hasMore, (body as Fields).hasMore);
  };
}

export const ANALYTICS_ROUTES: readonly ContractRoute[] = [
  { route: 'analytics.feedback', document: 'analytics', method: 'get', path: '/v1/analytics/{projectId}/feedback', call: (client) => new AnalyticsApi(client).feedback(CONTRACT_RANGE, { limit: 50 }), read: feedback },
  {
    route: 'analytics.feedbackByPage',
    document: 'analytics',
    method: 'get',
    path: '/v1/analytics/{projectId}/feedback/by-page',
    call: (client) => new AnalyticsApi(client).feedbackByPage(CONTRACT_RANGE, 100),
    read: (outcome, body) => assert.deepEqual(value<{ items: PageFeedbackCounts[] }>(outcome).items, rows(body, 'feedback')),
  },
  { route: 'analytics.assistant', document: 'analytics', method: 'get', path: '/v1/analytics/{projectId}/assistant', call: (client) => new AnalyticsApi(client).conversations(CONTRACT_RANGE, { limit: 100 }), read: conversations },
  {
    route: 'analytics.callerStats',
    document: 'analytics',
    method: 'get',
    path: '/v1/analytics/{projectId}/assistant/caller-stats',
    call: (client) => new AnalyticsApi(client).callerStats(CONTRACT_RANGE),
    read: (outcome, body) => assert.deepEqual(value<CallerStats>(outcome), body),
  },
  { route: 'analytics.searches', document: 'analytics', method: 'get', path: '/v1/analytics/{projectId}/searches', call: (client) => new AnalyticsApi(client).searches(CONTRACT_RANGE, { limit: 50 }), read: searches },
  { route: 'analytics.views', document: 'analytics', method: 'get', path: '/v1/analytics/{projectId}/views', call: (client) => new AnalyticsApi(client).views(CONTRACT_RANGE, { offset: 0, limit: 50 }), read: traffic('views') },
  { route: 'analytics.visitors', document: 'analytics', method: 'get', path: '/v1/analytics/{projectId}/visitors', call: (client) => new AnalyticsApi(client).visitors(CONTRACT_RANGE, { offset: 0, limit: 50 }), read: traffic('visitors') },
];
