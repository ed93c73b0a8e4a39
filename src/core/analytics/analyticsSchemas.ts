/**
 * Validation of the analytics answers at the boundary (the vendor's "Analytics Export API"
 * 1.0.0). Tolerant reader: extra fields are dropped; an unknown source, status or resolution is
 * kept as `unknown` with the server's word; a field the document marks required but that a
 * row can do without (a feedback's `createdAt`, a conversation's `sources`) may be absent. A
 * missing identity field (an id, a path, a count) makes the answer invalid, naming the field.
 */
import * as l10n from '@vscode/l10n';
import * as z from 'zod/mini';
import { InvalidResponseError } from '../api/apiErrors';
import { describeIssue } from '../api/jobSchemas';
import { ReaderContact } from './contact';
import {
  FEEDBACK_SOURCES,
  FEEDBACK_STATUSES,
  type CallerStats,
  type Conversation,
  type CursorPage,
  type FeedbackEntry,
  type OffsetPage,
  type PageFeedbackCounts,
  type SearchRow,
  type TrafficRow,
} from './analyticsTypes';

/** A number, or a string holding one (some gateways stringify numbers). */
const count = z.union([z.number(), z.pipe(z.string().check(z.regex(/^-?\d+(\.\d+)?$/)), z.transform(Number))]).check(z.refine(Number.isFinite));
const text = z.string();
const nonEmpty = () => z.string().check(z.minLength(1));
const nullableString = z.pipe(z.nullish(z.string()), z.transform((v) => v ?? null));
const cursor = z.pipe(z.nullish(z.string()), z.transform((v) => (v === undefined || v === null || v === '' ? null : v)));

const feedbackSchema = z.object({
  id: nonEmpty(),
  path: text,
  comment: nullableString,
  createdAt: nullableString,
  source: nonEmpty(),
  status: nonEmpty(),
  helpful: z.nullish(z.boolean()),
  contact: nullableString,
  code: z.nullish(z.string()),
  filename: nullableString,
  lang: nullableString,
});

const feedbackAnswer = z.object({ feedback: z.array(feedbackSchema), nextCursor: cursor, hasMore: z.optional(z.boolean()) });

const byPageAnswer = z.object({
  feedback: z.array(z.object({ path: text, thumbsUp: count, thumbsDown: count, code: count, total: count })),
  hasMore: z.optional(z.boolean()),
});

const conversationSchema = z.object({
  id: nonEmpty(),
  timestamp: text,
  query: text,
  response: z.pipe(z.nullish(z.string()), z.transform((v) => v ?? '')),
  responseType: z.nullish(z.string()),
  sources: z.pipe(z.nullish(z.array(z.object({ title: z.pipe(z.nullish(z.string()), z.transform((v) => v ?? '')), url: text }))), z.transform((v) => v ?? [])),
  resolutionStatus: nonEmpty(),
  queryCategory: nullableString,
  pageUrl: nullableString,
});

const conversationsAnswer = z.object({ conversations: z.array(conversationSchema), nextCursor: cursor, hasMore: z.optional(z.boolean()) });

const searchesAnswer = z.object({
  searches: z.array(z.object({ searchQuery: text, hits: count, ctr: count, topClickedPage: nullableString, lastSearchedAt: z.pipe(z.nullish(z.string()), z.transform((v) => v ?? '')) })),
  totalSearches: z.optional(count),
  nextCursor: cursor,
});

const totals = z.object({ human: count, ai: count, total: count });
const trafficRow = z.object({ path: text, human: count, ai: count, total: count });
const viewsAnswer = z.object({ totals, views: z.array(trafficRow), hasMore: z.boolean() });
const visitorsAnswer = z.object({ totals, visitors: z.array(trafficRow), hasMore: z.boolean() });
const callerStatsAnswer = z.object({ web: count, api: count, other: count, total: count });

export type AnalyticsAnswer = 'feedback' | 'feedbackByPage' | 'conversations' | 'searches' | 'views' | 'visitors' | 'callerStats';

function parse<T>(schema: z.ZodMiniType<T>, value: unknown, what: AnalyticsAnswer, status: number): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.length ? issue.path.join('.') : l10n.t('(the body)');
  throw new InvalidResponseError(
    l10n.t("The server's answer could not be used: the analytics ({0}) have the wrong shape: field \"{1}\" {2}.", what, field, describeIssue(issue)),
    status,
    l10n.t('Check that the base URL points at the admin API; if it does, the API has changed in a way this version of Docs Admin does not know: look for an update.'),
  );
}

function knownOr<T extends string>(known: readonly T[], raw: string): T | 'unknown' {
  return (known as readonly string[]).includes(raw) ? (raw as T) : 'unknown';
}

export function parseFeedbackPage(value: unknown, status: number): CursorPage<FeedbackEntry> {
  const answer = parse(feedbackAnswer, value, 'feedback', status);
  const items = answer.feedback.map((row): FeedbackEntry => {
    const base = {
      id: row.id,
      path: row.path,
      comment: row.comment,
      createdAt: row.createdAt,
      source: knownOr(FEEDBACK_SOURCES, row.source),
      rawSource: row.source,
      status: knownOr(FEEDBACK_STATUSES, row.status),
      rawStatus: row.status,
    };
    // The shape follows the source; an unknown source is read by the fields it carries.
    if (row.source === 'code_snippet' || (base.source === 'unknown' && typeof row.code === 'string')) {
      return { ...base, shape: 'code', code: row.code ?? '', filename: row.filename, lang: row.lang };
    }
    if (row.source === 'contextual' || (base.source === 'unknown' && (typeof row.helpful === 'boolean' || typeof row.contact === 'string'))) {
      const contact = row.contact?.trim();
      return { ...base, shape: 'contextual', helpful: row.helpful ?? undefined, contact: contact === undefined || contact === '' ? undefined : new ReaderContact(contact) };
    }
    return { ...base, shape: 'plain' };
  });
  return { items, nextCursor: answer.nextCursor, hasMore: answer.hasMore };
}

export function parseFeedbackByPage(value: unknown, status: number): { items: PageFeedbackCounts[]; hasMore: boolean } {
  const answer = parse(byPageAnswer, value, 'feedbackByPage', status);
  return { items: answer.feedback, hasMore: answer.hasMore ?? false };
}

export function parseConversationsPage(value: unknown, status: number): CursorPage<Conversation> {
  const answer = parse(conversationsAnswer, value, 'conversations', status);
  const items = answer.conversations.map((row): Conversation => ({
    id: row.id,
    timestamp: row.timestamp,
    query: row.query,
    response: row.response,
    // The vendor: "Defaults to `answer` when not present."
    responseType: row.responseType === undefined || row.responseType === null || row.responseType === 'answer' ? 'answer' : row.responseType === 'clarifying_question' ? 'clarifying_question' : 'unknown',
    sources: row.sources,
    resolutionStatus: row.resolutionStatus === 'answered' || row.resolutionStatus === 'unanswered' ? row.resolutionStatus : 'unknown',
    queryCategory: row.queryCategory,
    pageUrl: row.pageUrl,
  }));
  return { items, nextCursor: answer.nextCursor, hasMore: answer.hasMore };
}

/**
 * Searches, ordered by hits. `ctr` is read as a share (0 to 1); a page of answers holding a
 * value above 1 gives percentages, and is read as such.
 */
export function parseSearchesPage(value: unknown, status: number): CursorPage<SearchRow> & { totalSearches: number | undefined } {
  const answer = parse(searchesAnswer, value, 'searches', status);
  const percent = answer.searches.some((s) => s.ctr > 1);
  const items = answer.searches.map((s) => ({ ...s, ctr: Math.min(1, Math.max(0, percent ? s.ctr / 100 : s.ctr)) }));
  return { items, nextCursor: answer.nextCursor, hasMore: undefined, totalSearches: answer.totalSearches };
}

export function parseViewsPage(value: unknown, status: number): OffsetPage<TrafficRow> {
  const answer = parse(viewsAnswer, value, 'views', status);
  return { items: answer.views, totals: answer.totals, hasMore: answer.hasMore };
}

export function parseVisitorsPage(value: unknown, status: number): OffsetPage<TrafficRow> {
  const answer = parse(visitorsAnswer, value, 'visitors', status);
  return { items: answer.visitors, totals: answer.totals, hasMore: answer.hasMore };
}

export function parseCallerStats(value: unknown, status: number): CallerStats {
  return parse(callerStatsAnswer, value, 'callerStats', status);
}
