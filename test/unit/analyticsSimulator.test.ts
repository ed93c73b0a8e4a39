/**
 * The simulator's analytics routes hold to the vendor's document where a client depends on it:
 * `dateTo` exclusive and `dateFrom` inclusive, 400 with details on a bad date, limit or cursor,
 * cursors and offsets that give every row once, `hasMore`, the three feedback shapes,
 * conversations with `pageUrl`, a thread by its ULID, and 403 for a plan without analytics.
 */
import * as assert from 'node:assert/strict';
import { Simulator, emptyAnalytics, type AnalyticsData } from '../simulator';

const DAY = 86_400_000;

describe('simulator: the analytics routes', () => {
  let sim: Simulator;
  const get = async (path: string) => {
    const res = await fetch(`${sim.baseUrl}/v1/analytics/${sim.projectId}/${path}`, { headers: { authorization: `Bearer ${sim.key}` } });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  before(async () => {
    sim = await Simulator.start();
  });
  after(() => sim.stop());

  it('dateFrom is inclusive, dateTo exclusive, at the day and at the millisecond; a bad date is a 400 that says which', async () => {
    const day = Date.parse('2026-03-10T00:00:00Z');
    const data: AnalyticsData = emptyAnalytics();
    for (const [id, at] of [['before', day - 1], ['start', day], ['inside', day + DAY - 1], ['end', day + DAY]] as const) {
      data.feedback.push({ id, path: '/p', comment: null, createdAt: at, source: 'thumbs_only', status: 'resolved' });
    }
    sim.setAnalytics(data);
    const ids = async (q: string) => ((await get(`feedback?${q}`)).body.feedback as { id: string }[]).map((f) => f.id).sort();
    assert.deepEqual(await ids('dateFrom=2026-03-10&dateTo=2026-03-11'), ['inside', 'start']);
    assert.deepEqual(await ids('dateFrom=2026-03-10T00:00:00.001Z&dateTo=2026-03-11T00:00:00Z'), ['inside']);
    assert.deepEqual(await ids('dateTo=2026-03-10'), ['before']);
    for (const bad of ['dateFrom=2026-02-30', 'dateTo=yesterday', 'dateFrom=10/03/2026']) {
      const answer = await get(`feedback?${bad}`);
      assert.equal(answer.status, 400, bad);
      assert.match(JSON.stringify(answer.body.details), new RegExp(bad.split('=')[0]!), bad);
    }
  });

  it('cursors give every feedback entry once, in pages of at most `limit`, with hasMore; a cursor for another query is refused', async () => {
    const data = emptyAnalytics();
    for (let i = 0; i < 23; i++) data.feedback.push({ id: `f${i}`, path: '/p', comment: `c${i}`, createdAt: Date.now() - i * 1000, source: 'contextual', status: 'pending', helpful: i % 2 === 0, contact: null });
    sim.setAnalytics(data);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const answer = await get(`feedback?limit=10${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
      const rows = answer.body.feedback as { id: string }[];
      assert.ok(rows.length <= 10);
      seen.push(...rows.map((r) => r.id));
      cursor = answer.body.nextCursor as string | null;
      assert.equal(answer.body.hasMore, cursor !== null);
      pages++;
    } while (cursor !== null);
    assert.equal(pages, 3);
    assert.deepEqual([...seen].sort(), data.feedback.map((f) => f.id).sort());
    const first = await get('feedback?limit=5');
    const other = await get(`feedback?limit=5&source=contextual&cursor=${encodeURIComponent(String(first.body.nextCursor))}`);
    assert.equal(other.status, 400);
    assert.equal((await get('feedback?limit=0')).status, 400);
    assert.equal((await get('feedback?limit=101')).status, 400);
    assert.equal((await get('feedback?status=pending,open')).status, 400);
  });

  it('the three feedback shapes, by source; the per-page counts count contextual thumbs only', async () => {
    sim.seedPlaygroundAnalytics();
    const all = (await get('feedback?limit=100')).body.feedback as Record<string, unknown>[];
    const keys = (source: string) => Object.keys(all.find((f) => f.source === source) ?? {}).sort();
    assert.deepEqual(keys('contextual'), ['comment', 'contact', 'createdAt', 'helpful', 'id', 'path', 'source', 'status']);
    assert.deepEqual(keys('code_snippet'), ['code', 'comment', 'createdAt', 'filename', 'id', 'lang', 'path', 'source', 'status']);
    assert.deepEqual(keys('agent'), ['comment', 'createdAt', 'id', 'path', 'source', 'status']);
    assert.deepEqual(keys('thumbs_only'), keys('agent'));
    const codeOnly = (await get('feedback?source=code_snippet')).body.feedback as { source: string }[];
    assert.ok(codeOnly.length === 2 && codeOnly.every((f) => f.source === 'code_snippet'));
    const byPage = (await get('feedback/by-page?limit=100')).body.feedback as { path: string; thumbsUp: number; thumbsDown: number; code: number; total: number }[];
    const auth = byPage.find((r) => r.path === '/api/auth');
    assert.deepEqual(auth, { path: '/api/auth', thumbsUp: 0, thumbsDown: 0, code: 0, total: 2 }, 'agent and thumbs_only entries count in total only');
    assert.equal(byPage.find((r) => r.path === '/guides/install')?.code, 2);
  });

  it('conversations page by the last ULID, carry pageUrl, and lead to their thread; views and visitors page by offset', async () => {
    sim.seedPlaygroundAnalytics();
    const first = await get('assistant?limit=3');
    const rows = first.body.conversations as { id: string; pageUrl: string | null }[];
    assert.equal(rows.length, 3);
    assert.equal(first.body.nextCursor, rows[2]?.id);
    const second = await get(`assistant?limit=100&cursor=${rows[2]!.id}`);
    assert.equal((second.body.conversations as unknown[]).length, 5);
    assert.equal(second.body.hasMore, false);
    assert.equal(second.body.nextCursor, null);
    assert.ok(rows.some((r) => r.pageUrl?.startsWith('https://docs.acme.dev/')));
    assert.equal((await get('assistant?cursor=not-a-ulid')).status, 400);
    const thread = await get(`assistant/threads/${rows[0]!.id}`);
    assert.equal((thread.body.messages as unknown[]).length, 2);
    assert.equal((await get('assistant/threads/nope')).status, 400);
    assert.equal((await get('assistant/threads/01ARZ3NDEKTSV4RRFFQ69G5FAV')).status, 404);
    const views = await get('views?limit=3&offset=0');
    const rest = await get('views?limit=250&offset=3');
    assert.equal(views.body.hasMore, true);
    assert.equal(rest.body.hasMore, false);
    assert.equal((views.body.views as unknown[]).length + (rest.body.views as unknown[]).length, 7);
    assert.equal((await get('views?limit=251')).status, 400);
    assert.equal((await get('visitors?offset=-1')).status, 400);
    assert.equal((await get('views?limit=2.5')).status, 400);
    const searches = await get('searches?limit=2');
    assert.equal(typeof searches.body.totalSearches, 'number');
    assert.equal(typeof searches.body.nextCursor, 'string');
    assert.ok(((await get('searches')).body.searches as { topClickedPage: string | null }[]).some((s) => s.topClickedPage === null), 'a search with no click');
  });

  it('a plan without analytics: 403 with the reason; another project: 404; no key: 401', async () => {
    sim.setAnalyticsEnabled(false);
    try {
      const answer = await get('feedback');
      assert.equal(answer.status, 403);
      assert.match(String(answer.body.error), /plan/);
    } finally {
      sim.setAnalyticsEnabled(true);
    }
    const other = await fetch(`${sim.baseUrl}/v1/analytics/someone-else/feedback`, { headers: { authorization: `Bearer ${sim.key}` } });
    assert.equal(other.status, 404);
    const none = await fetch(`${sim.baseUrl}/v1/analytics/${sim.projectId}/feedback`);
    assert.equal(none.status, 401);
  });
});
