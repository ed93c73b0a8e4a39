/**
 * The analytics routes, as the vendor's "Analytics Export API" 1.0.0 describes them: date
 * filters (`dateFrom` inclusive, `dateTo` exclusive; 400 on a date that is not ISO 8601 or
 * `YYYY-MM-DD`), `limit` within each route's bounds (400 outside), cursors (opaque for feedback
 * and searches, the last conversation's ULID for the assistant; 400 for one it did not give),
 * offsets with `hasMore` for views and visitors, the three feedback shapes, conversations with
 * `pageUrl`, a thread's transcript (400 for an id that is not a ULID, 404 for an unknown one), and
 * the caller counts. Errors are `{error, details?: [{message}]}`. A plan without analytics: 403.
 */
import { ULID, type AnalyticsData, type ConversationRecord, type FeedbackRecord } from './analyticsData';

export interface AnalyticsReply {
  status: number;
  body: unknown;
}

export type AnalyticsRoute = 'analytics.feedback' | 'analytics.feedbackByPage' | 'analytics.assistant' | 'analytics.thread' | 'analytics.callerStats' | 'analytics.searches' | 'analytics.views' | 'analytics.visitors';

class BadRequest extends Error {
  constructor(readonly details: string[], message = 'Invalid query parameters') {
    super(message);
  }
}

const SOURCES = ['code_snippet', 'contextual', 'agent', 'thumbs_only'];
const STATUSES = ['pending', 'in_progress', 'resolved', 'dismissed'];
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;
const iso = (ms: number) => new Date(ms).toISOString();

function date(query: URLSearchParams, name: 'dateFrom' | 'dateTo'): number | undefined {
  const text = query.get(name);
  if (text === null) return undefined;
  const at = DATE_ONLY.test(text) ? Date.parse(`${text}T00:00:00Z`) : DATE_TIME.test(text) ? Date.parse(text) : NaN;
  // A day that does not exist (2026-02-30) is not a date either.
  if (Number.isNaN(at) || (DATE_ONLY.test(text) && new Date(at).toISOString().slice(0, 10) !== text)) throw new BadRequest([`${name}: Invalid date, expected ISO 8601 or YYYY-MM-DD`]);
  return at;
}

function limit(query: URLSearchParams, min: number, max: number, fallback: number, integer = false): number {
  const text = query.get('limit');
  if (text === null) return fallback;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) throw new BadRequest([`limit: Number must be ${integer ? 'an integer ' : ''}between ${min} and ${max}`]);
  return Math.floor(n);
}

function offset(query: URLSearchParams): number {
  const text = query.get('offset');
  if (text === null) return 0;
  const n = Number(text);
  if (text.trim() === '' || !Number.isInteger(n) || n < 0) throw new BadRequest(['offset: Number must be an integer greater than or equal to 0']);
  return n;
}

/** An opaque cursor: where the next page starts, tied to the query it was given for. */
function makeCursor(position: number, scope: string): string {
  return Buffer.from(JSON.stringify({ p: position, s: scope })).toString('base64url');
}

function readCursor(query: URLSearchParams, scope: string): number {
  const text = query.get('cursor');
  if (text === null || text === '') return 0;
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as { p?: unknown; s?: unknown };
    if (typeof value.p === 'number' && Number.isInteger(value.p) && value.p >= 0 && value.s === scope) return value.p;
  } catch {
    // Not one of ours.
  }
  throw new BadRequest(['cursor: Invalid or expired cursor'], 'Invalid cursor');
}

export class AnalyticsRoutes {
  data: AnalyticsData = { feedback: [], conversations: [], searches: [], traffic: [] };
  enabled = true;

  constructor(private readonly now: () => number) {}

  reply(route: AnalyticsRoute, params: Record<string, string>, query: URLSearchParams): AnalyticsReply {
    if (!this.enabled) return { status: 403, body: { error: 'Analytics export is not available on your plan' } };
    try {
      const from = date(query, 'dateFrom');
      const to = date(query, 'dateTo');
      const within = (at: number | null) => (from === undefined && to === undefined ? true : at !== null && (from === undefined || at >= from) && (to === undefined || at < to));
      switch (route) {
        case 'analytics.feedback':
          return this.feedback(query, within);
        case 'analytics.feedbackByPage':
          return this.byPage(query, within);
        case 'analytics.assistant':
          return this.assistant(query, within);
        case 'analytics.thread':
          return this.thread(params.threadId ?? '');
        case 'analytics.callerStats': {
          const counted = this.data.conversations.filter((c) => within(c.at));
          const by = (caller: string) => counted.filter((c) => c.caller === caller).length;
          return { status: 200, body: { web: by('web'), api: by('api'), other: by('other'), total: counted.length } };
        }
        case 'analytics.searches':
          return this.searches(query, within);
        case 'analytics.views':
        case 'analytics.visitors':
          return this.traffic(route === 'analytics.views' ? 'views' : 'visitors', query, within);
      }
    } catch (error) {
      if (error instanceof BadRequest) return { status: 400, body: { error: error.message, details: error.details.map((message) => ({ message })) } };
      throw error;
    }
  }

  private filters(query: URLSearchParams): { source: string | undefined; statuses: string[] | undefined } {
    const source = query.get('source') ?? undefined;
    if (source !== undefined && !SOURCES.includes(source)) throw new BadRequest([`source: Invalid enum value. Expected ${SOURCES.map((s) => `'${s}'`).join(' | ')}, received '${source}'`]);
    const status = query.get('status');
    const statuses = status === null || status.trim() === '' ? undefined : status.split(',').map((s) => s.trim());
    const bad = statuses?.filter((s) => !STATUSES.includes(s)) ?? [];
    if (bad.length > 0) throw new BadRequest([`status: Invalid status ${bad.map((s) => `'${s}'`).join(', ')}`]);
    return { source, statuses };
  }

  private matching(query: URLSearchParams, within: (at: number | null) => boolean): FeedbackRecord[] {
    const { source, statuses } = this.filters(query);
    return this.data.feedback
      .filter((f) => within(f.createdAt) && (source === undefined || f.source === source) && (statuses === undefined || statuses.includes(f.status)))
      .sort((a, b) => (b.createdAt ?? -Infinity) - (a.createdAt ?? -Infinity) || a.id.localeCompare(b.id));
  }

  private feedback(query: URLSearchParams, within: (at: number | null) => boolean): AnalyticsReply {
    const size = limit(query, 1, 100, 50);
    const scope = ['dateFrom', 'dateTo', 'source', 'status'].map((k) => query.get(k) ?? '').join('|');
    const start = readCursor(query, scope);
    const all = this.matching(query, within);
    const page = all.slice(start, start + size);
    const more = start + size < all.length;
    return { status: 200, body: { feedback: page.map(feedbackJson), nextCursor: more ? makeCursor(start + size, scope) : null, hasMore: more } };
  }

  private byPage(query: URLSearchParams, within: (at: number | null) => boolean): AnalyticsReply {
    const size = limit(query, 1, 100, 10);
    const pages = new Map<string, { path: string; thumbsUp: number; thumbsDown: number; code: number; total: number }>();
    for (const f of this.matching(query, within)) {
      const row = pages.get(f.path) ?? { path: f.path, thumbsUp: 0, thumbsDown: 0, code: 0, total: 0 };
      if (f.source === 'contextual' && f.helpful === true) row.thumbsUp++;
      if (f.source === 'contextual' && f.helpful === false) row.thumbsDown++;
      if (f.source === 'code_snippet') row.code++;
      row.total++;
      pages.set(f.path, row);
    }
    const rows = [...pages.values()].sort((a, b) => b.total - a.total || a.path.localeCompare(b.path));
    return { status: 200, body: { feedback: rows.slice(0, size), hasMore: rows.length > size } };
  }

  private assistant(query: URLSearchParams, within: (at: number | null) => boolean): AnalyticsReply {
    const size = limit(query, 1, 1000, 100);
    const all = this.data.conversations.filter((c) => within(c.at)).sort((a, b) => b.at - a.at || b.id.localeCompare(a.id));
    const cursor = query.get('cursor');
    let start = 0;
    if (cursor !== null && cursor !== '') {
      if (!ULID.test(cursor)) throw new BadRequest(['cursor: Invalid ULID']);
      const at = all.findIndex((c) => c.id === cursor);
      if (at < 0) throw new BadRequest(['cursor: Unknown cursor'], 'Invalid cursor');
      start = at + 1;
    }
    const page = all.slice(start, start + size);
    const more = start + size < all.length;
    return { status: 200, body: { conversations: page.map(conversationJson), nextCursor: more ? (page[page.length - 1]?.id ?? null) : null, hasMore: more } };
  }

  private thread(threadId: string): AnalyticsReply {
    if (!ULID.test(threadId)) return { status: 400, body: { error: 'Invalid thread ID', details: [{ message: 'threadId: Invalid ULID' }] } };
    const c = this.data.conversations.find((x) => x.id === threadId);
    if (c === undefined) return { status: 404, body: { error: 'Thread not found' } };
    return {
      status: 200,
      body: {
        threadId: c.id,
        createdAt: iso(c.at),
        messages: [
          { id: `${c.id}-q`, role: 'user', content: c.query, createdAt: iso(c.at) },
          { id: `${c.id}-a`, role: 'assistant', content: c.response, createdAt: iso(c.at + 2_000) },
        ],
      },
    };
  }

  private searches(query: URLSearchParams, within: (at: number | null) => boolean): AnalyticsReply {
    const size = limit(query, 1, 100, 50);
    const scope = ['dateFrom', 'dateTo'].map((k) => query.get(k) ?? '').join('|');
    const start = readCursor(query, scope);
    const terms = new Map<string, { hits: number; clicks: Map<string, number>; last: number }>();
    let totalSearches = 0;
    for (const s of this.data.searches) {
      if (!within(s.at)) continue;
      totalSearches += s.hits;
      const t = terms.get(s.query) ?? { hits: 0, clicks: new Map<string, number>(), last: 0 };
      t.hits += s.hits;
      t.last = Math.max(t.last, s.at);
      for (const [page, n] of Object.entries(s.clicks)) t.clicks.set(page, (t.clicks.get(page) ?? 0) + n);
      terms.set(s.query, t);
    }
    const rows = [...terms.entries()]
      .map(([searchQuery, t]) => {
        const clicks = [...t.clicks.values()].reduce((a, b) => a + b, 0);
        const top = [...t.clicks.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
        return { searchQuery, hits: t.hits, ctr: t.hits === 0 ? 0 : Math.round((clicks / t.hits) * 1000) / 1000, topClickedPage: top === undefined || top[1] === 0 ? null : top[0], lastSearchedAt: iso(t.last) };
      })
      .sort((a, b) => b.hits - a.hits || a.searchQuery.localeCompare(b.searchQuery));
    const page = rows.slice(start, start + size);
    const more = start + size < rows.length;
    return { status: 200, body: { searches: page, totalSearches, nextCursor: more ? makeCursor(start + size, scope) : null } };
  }

  private traffic(kind: 'views' | 'visitors', query: URLSearchParams, within: (at: number | null) => boolean): AnalyticsReply {
    const size = limit(query, 1, 250, 50, true);
    const skip = offset(query);
    const paths = new Map<string, { path: string; human: number; ai: number; total: number }>();
    const totals = { human: 0, ai: 0, total: 0 };
    for (const t of this.data.traffic) {
      if (!within(t.at)) continue;
      const n = kind === 'views' ? { human: t.human, ai: t.ai, total: t.human + t.ai } : t.visitors;
      const row = paths.get(t.path) ?? { path: t.path, human: 0, ai: 0, total: 0 };
      row.human += n.human;
      row.ai += n.ai;
      row.total += n.total;
      paths.set(t.path, row);
      totals.human += n.human;
      totals.ai += n.ai;
      totals.total += n.total;
    }
    const rows = [...paths.values()].sort((a, b) => b.total - a.total || a.path.localeCompare(b.path));
    return { status: 200, body: { totals, [kind]: rows.slice(skip, skip + size), hasMore: skip + size < rows.length } };
  }
}

function feedbackJson(f: FeedbackRecord): Record<string, unknown> {
  const base = { id: f.id, path: f.path, comment: f.comment, createdAt: f.createdAt === null ? null : iso(f.createdAt), source: f.source, status: f.status };
  if (f.source === 'contextual') return { ...base, helpful: f.helpful ?? false, contact: f.contact ?? null };
  if (f.source === 'code_snippet') return { ...base, code: f.code ?? '', filename: f.filename ?? null, lang: f.lang ?? null };
  return base;
}

function conversationJson(c: ConversationRecord): Record<string, unknown> {
  return {
    id: c.id,
    timestamp: iso(c.at),
    query: c.query,
    response: c.response,
    responseType: c.responseType ?? 'answer',
    sources: c.sources,
    resolutionStatus: c.resolutionStatus,
    queryCategory: c.queryCategory,
    pageUrl: c.pageUrl,
  };
}
