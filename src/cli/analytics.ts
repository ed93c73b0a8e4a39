/**
 * `docs-admin analytics pages|feedback|questions|searches|views|visitors --from <date> --to
 * <date> [--limit <n>] [--format table|json|csv]`: the reader analytics, for reports and
 * spreadsheets. The dates are checked before anything is sent (`--to` is exclusive, as the API's
 * `dateTo`); pages are followed only as far as `--limit` needs. A reader's contact address is
 * printed only with `--include-contact` (feedback); otherwise no output holds it.
 */
import * as l10n from '@vscode/l10n';
import { AnalyticsApi, PAGE_SIZE } from '../core/analytics/analyticsApi';
import { collectCursor, collectOffset, waitingOutRateLimits, type PagingOptions } from '../core/analytics/paging';
import { checkRange } from '../core/analytics/period';
import { FEEDBACK_SOURCES, FEEDBACK_STATUSES, type Conversation, type DateRange, type FeedbackEntry, type FeedbackSource, type PageFeedbackCounts, type SearchRow, type TrafficRow } from '../core/analytics/analyticsTypes';
import type { Parsed } from './args';
import { option, type Context } from './context';
import { EXIT, UsageError } from './exit';
import { csv, table, type Column } from './tables';

type Format = 'table' | 'json' | 'csv';

/** The most rows any list gives without --limit. */
const DEFAULT_CAP = 10_000;

function format(parsed: Parsed, ctx: Context): Format {
  const given = option(parsed, 'format');
  if (given !== undefined && given !== 'table' && given !== 'json' && given !== 'csv') throw new UsageError(l10n.t('--format takes table, json or csv, not "{0}".', given));
  if (ctx.json && given !== undefined && given !== 'json') throw new UsageError(l10n.t('--json and --format {0} ask for two formats: give one.', given));
  return ctx.json ? 'json' : (given ?? 'table');
}

function limit(parsed: Parsed): number | undefined {
  const text = option(parsed, 'limit');
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(l10n.t('--limit takes a whole number of rows, 1 or more, not "{0}".', text));
  return n;
}

function range(parsed: Parsed): DateRange {
  const from = option(parsed, 'from');
  const to = option(parsed, 'to');
  if (from === undefined || to === undefined) throw new UsageError(l10n.t('--from <date> and --to <date> are required (YYYY-MM-DD; --to is exclusive: the last 7 days of November are --from 2026-11-24 --to 2026-12-01).'));
  const checked = checkRange(from, to, { from: '--from', to: '--to' });
  if (!checked.ok) throw new UsageError(checked.reason);
  return checked.range;
}

function feedbackFilter(parsed: Parsed): { source?: FeedbackSource; status?: string[] } {
  const source = option(parsed, 'source');
  if (source !== undefined && !(FEEDBACK_SOURCES as readonly string[]).includes(source)) throw new UsageError(l10n.t('--source takes {0}, not "{1}".', FEEDBACK_SOURCES.join(', '), source));
  const status = option(parsed, 'status')?.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const bad = status?.filter((s) => !(FEEDBACK_STATUSES as readonly string[]).includes(s)) ?? [];
  if (bad.length > 0) throw new UsageError(l10n.t('--status takes a comma-separated list of {0}, not "{1}".', FEEDBACK_STATUSES.join(', '), bad.join(',')));
  return { ...(source === undefined ? {} : { source: source as FeedbackSource }), ...(status === undefined || status.length === 0 ? {} : { status }) };
}

const pageColumns: Column<PageFeedbackCounts>[] = [
  { header: 'path', value: (r) => r.path, width: 60 },
  { header: 'thumbsDown', value: (r) => r.thumbsDown },
  { header: 'thumbsUp', value: (r) => r.thumbsUp },
  { header: 'code', value: (r) => r.code },
  { header: 'total', value: (r) => r.total },
];

function feedbackColumns(includeContact: boolean): Column<FeedbackEntry>[] {
  return [
    { header: 'createdAt', value: (f) => f.createdAt },
    { header: 'path', value: (f) => f.path, width: 40 },
    { header: 'source', value: (f) => f.rawSource },
    { header: 'status', value: (f) => f.rawStatus },
    { header: 'helpful', value: (f) => (f.shape === 'contextual' ? (f.helpful ?? null) : null) },
    { header: 'comment', value: (f) => f.comment, width: 60 },
    { header: 'filename', value: (f) => (f.shape === 'code' ? f.filename : null) },
    { header: 'lang', value: (f) => (f.shape === 'code' ? f.lang : null) },
    { header: 'code', value: (f) => (f.shape === 'code' ? f.code : null), width: 40 },
    ...(includeContact ? [{ header: 'contact', value: (f: FeedbackEntry) => (f.shape === 'contextual' ? (f.contact?.reveal() ?? null) : null) }] : []),
    { header: 'id', value: (f) => f.id },
  ];
}

/** A feedback entry as JSON: its contact only when asked for (else whether there was one). */
function feedbackJson(f: FeedbackEntry, includeContact: boolean): Record<string, unknown> {
  const base: Record<string, unknown> = { id: f.id, path: f.path, comment: f.comment, createdAt: f.createdAt, source: f.rawSource, status: f.rawStatus };
  if (f.shape === 'code') return { ...base, code: f.code, filename: f.filename, lang: f.lang };
  if (f.shape === 'contextual') return { ...base, helpful: f.helpful ?? null, ...(includeContact ? { contact: f.contact?.reveal() ?? null } : { hasContact: f.contact !== undefined }) };
  return base;
}

const questionColumns: Column<Conversation>[] = [
  { header: 'timestamp', value: (c) => c.timestamp },
  { header: 'resolution', value: (c) => c.resolutionStatus },
  { header: 'category', value: (c) => c.queryCategory, width: 24 },
  { header: 'page', value: (c) => c.pageUrl, width: 50 },
  { header: 'query', value: (c) => c.query, width: 80 },
  { header: 'id', value: (c) => c.id },
];

const searchColumns: Column<SearchRow>[] = [
  { header: 'searchQuery', value: (s) => s.searchQuery, width: 60 },
  { header: 'hits', value: (s) => s.hits },
  { header: 'ctr', value: (s) => Math.round(s.ctr * 1000) / 1000 },
  { header: 'topClickedPage', value: (s) => s.topClickedPage, width: 50 },
  { header: 'lastSearchedAt', value: (s) => s.lastSearchedAt },
];

const trafficColumns: Column<TrafficRow>[] = [
  { header: 'path', value: (r) => r.path, width: 60 },
  { header: 'human', value: (r) => r.human },
  { header: 'ai', value: (r) => r.ai },
  { header: 'total', value: (r) => r.total },
];

function output<T>(ctx: Context, as: Format, rows: readonly T[], columns: Column<T>[], json: () => unknown, note?: string): void {
  if (as === 'json') ctx.io.out(`${JSON.stringify(json(), null, 2)}\n`);
  else if (as === 'csv') ctx.io.out(csv(rows, columns));
  else {
    ctx.io.out(rows.length === 0 ? `${l10n.t('Nothing in this range.')}\n` : table(rows, columns));
    if (note !== undefined) ctx.io.err(`${note}\n`);
  }
}

export async function run(parsed: Parsed, ctx: Context): Promise<number> {
  // Everything the person gave is checked before the client is made or anything is sent.
  const what = parsed.spec.name.split(' ')[1];
  const dates = range(parsed);
  const as = format(parsed, ctx);
  const cap = limit(parsed);
  const includeContact = parsed.options['include-contact'] === true;
  const filter = what === 'feedback' || what === 'pages' ? feedbackFilter(parsed) : {};
  const all = what === 'questions' && parsed.options.all === true;
  const api = new AnalyticsApi(await ctx.api());
  const call = { signal: ctx.io.signal };
  const paging = (pageSize: number): PagingOptions => ({
    maxItems: cap ?? DEFAULT_CAP,
    pageSize,
    signal: ctx.io.signal,
    maxRateLimitWaitMs: 5 * 60_000,
    onRateLimitWait: (ms) => ctx.io.err(`${l10n.t('The server is rate limiting requests (429): waiting {0} s.', Math.ceil(ms / 1000))}\n`),
  });
  const cut = (truncated: boolean) => (truncated ? l10n.t('(more rows are on the server: --limit shows more)') : undefined);
  const meta = { from: dates.from, to: dates.to };
  switch (what) {
    case 'pages': {
      const budget = { left: 5 * 60_000, requests: 0 };
      const got = await waitingOutRateLimits(() => api.feedbackByPage(dates, Math.min(cap ?? PAGE_SIZE.byPage, PAGE_SIZE.byPage), filter, call), paging(PAGE_SIZE.byPage), budget);
      output(ctx, as, got.items, pageColumns, () => ({ ...meta, pages: got.items, hasMore: got.hasMore }), got.hasMore ? l10n.t('(the API gives at most {0} pages)', PAGE_SIZE.byPage) : undefined);
      return EXIT.ok;
    }
    case 'feedback': {
      const got = await collectCursor((cursor, n) => api.feedback(dates, { cursor, limit: n }, filter, call), paging(PAGE_SIZE.feedback));
      output(ctx, as, got.items, feedbackColumns(includeContact), () => ({ ...meta, feedback: got.items.map((f) => feedbackJson(f, includeContact)), truncated: got.truncated }), cut(got.truncated));
      return EXIT.ok;
    }
    case 'questions': {
      // Unanswered questions (the documentation's gaps); --all lists every conversation.
      const got = await collectCursor(async (cursor, n) => {
        const page = await api.conversations(dates, { cursor, limit: all ? n : PAGE_SIZE.conversations }, call);
        return all ? page : { ...page, items: page.items.filter((c) => c.resolutionStatus === 'unanswered') };
      }, paging(PAGE_SIZE.conversations));
      output(ctx, as, got.items, questionColumns, () => ({ ...meta, conversations: got.items, truncated: got.truncated }), cut(got.truncated));
      return EXIT.ok;
    }
    case 'searches': {
      let total: number | undefined;
      const got = await collectCursor(async (cursor, n) => {
        const page = await api.searches(dates, { cursor, limit: n }, call);
        total ??= page.totalSearches;
        return page;
      }, paging(PAGE_SIZE.searches));
      const note = [cut(got.truncated), total === undefined ? undefined : l10n.t('{0} searches in all.', total)].filter((n): n is string => n !== undefined).join(' ');
      output(ctx, as, got.items, searchColumns, () => ({ ...meta, searches: got.items, totalSearches: total ?? null, truncated: got.truncated }), note === '' ? undefined : note);
      return EXIT.ok;
    }
    case 'views':
    case 'visitors': {
      const got = await collectOffset((offset, n) => (what === 'views' ? api.views(dates, { offset, limit: n }, call) : api.visitors(dates, { offset, limit: n }, call)), paging(PAGE_SIZE.views));
      const totals = l10n.t('In all: {0} (humans {1}, AI agents {2}).', got.totals.total, got.totals.human, got.totals.ai);
      output(ctx, as, got.items, trafficColumns, () => ({ ...meta, totals: got.totals, [what]: got.items, truncated: got.truncated }), [cut(got.truncated), totals].filter((n): n is string => n !== undefined).join(' '));
      return EXIT.ok;
    }
    default:
      throw new UsageError(l10n.t('"{0}" is not implemented.', parsed.spec.name));
  }
}
