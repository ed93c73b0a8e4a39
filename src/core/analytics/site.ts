/**
 * The whole site's analytics for one date range, in one set of requests: every feedback entry
 * (cursor pages, up to a cap), the per-page feedback counts (one request), the assistant's
 * conversations (cursor pages, up to a cap), the searches (cursor pages, up to a cap) and the
 * views (offset pages, up to a cap). Never per page: the editor asks once for the site and looks
 * each page up in what came back. Requests of one kind go one at a time (`KindGate`, shared by
 * every range); the kinds go side by side. A kind that fails leaves the others usable, except
 * an error that stops them all (the key, the plan, cancellation), which is thrown.
 */
import { AbortedError } from '../abort';
import { AuthError, ForbiddenError, InvalidInputError } from '../api/apiErrors';
import type { Logger } from '../log';
import { PAGE_SIZE, type AnalyticsApi } from './analyticsApi';
import { collectCursor, collectOffset, waitingOutRateLimits, type PagingOptions } from './paging';
import type { Conversation, DateRange, FeedbackEntry, PageFeedbackCounts, SearchRow, TrafficRow, TrafficTotals } from './analyticsTypes';

export const SITE_KINDS = ['feedback', 'byPage', 'conversations', 'searches', 'views'] as const;
export type SiteKind = (typeof SITE_KINDS)[number];

/** The most rows kept of each list (the rest stays on the server, and the data says it was cut). */
export interface SiteLimits {
  feedback: number;
  conversations: number;
  searches: number;
  views: number;
}

export const DEFAULT_SITE_LIMITS: SiteLimits = { feedback: 1000, conversations: 2000, searches: 500, views: 2000 };

export interface SiteAnalytics {
  range: DateRange;
  /** When the data came (epoch ms). */
  fetchedAt: number;
  feedback: FeedbackEntry[];
  byPage: PageFeedbackCounts[];
  conversations: Conversation[];
  searches: SearchRow[];
  totalSearches: number | undefined;
  views: TrafficRow[];
  viewTotals: TrafficTotals | undefined;
  /** Lists cut at their cap (or, for the per-page counts, at the route's 100 pages). */
  truncated: Partial<Record<SiteKind, boolean>>;
  /** Kinds that could not be read, with why (the others are still shown). */
  failures: Partial<Record<SiteKind, Error>>;
  /** Requests made for this data, 429s retried included. */
  requests: number;
}

/** One request at a time per kind, whichever range asks. */
export class KindGate {
  private readonly tails = new Map<SiteKind, Promise<unknown>>();

  run<T>(kind: SiteKind, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(kind) ?? Promise.resolve();
    const next = previous.then(task, task);
    this.tails.set(
      kind,
      next.catch(() => undefined),
    );
    return next;
  }
}

export interface LoadOptions {
  limits?: SiteLimits;
  gate?: KindGate;
  now?: () => number;
  log?: Logger;
  paging?: Omit<PagingOptions, 'maxItems' | 'pageSize'>;
}

/** Errors after which no other kind can do better: thrown, not kept per kind. */
function stopsAll(error: unknown): boolean {
  return error instanceof AuthError || error instanceof ForbiddenError || error instanceof AbortedError || error instanceof InvalidInputError;
}

export async function loadSite(api: AnalyticsApi, range: DateRange, options: LoadOptions = {}): Promise<SiteAnalytics> {
  const limits = options.limits ?? DEFAULT_SITE_LIMITS;
  const gate = options.gate ?? new KindGate();
  const paging = options.paging ?? {};
  const call = { ...(paging.signal === undefined ? {} : { signal: paging.signal }) };
  const site: SiteAnalytics = {
    range,
    fetchedAt: 0,
    feedback: [],
    byPage: [],
    conversations: [],
    searches: [],
    totalSearches: undefined,
    views: [],
    viewTotals: undefined,
    truncated: {},
    failures: {},
    requests: 0,
  };
  const tasks: Record<SiteKind, () => Promise<void>> = {
    feedback: async () => {
      const got = await collectCursor((cursor, limit) => api.feedback(range, { cursor, limit }, {}, call), { ...paging, maxItems: limits.feedback, pageSize: PAGE_SIZE.feedback });
      Object.assign(site, { feedback: got.items, requests: site.requests + got.requests });
      site.truncated.feedback = got.truncated;
    },
    byPage: async () => {
      const budget = { left: paging.maxRateLimitWaitMs ?? 0, requests: 0 };
      const got = await waitingOutRateLimits(() => api.feedbackByPage(range, PAGE_SIZE.byPage, {}, call), { ...paging, maxItems: PAGE_SIZE.byPage, pageSize: PAGE_SIZE.byPage }, budget);
      site.byPage = got.items;
      site.requests += budget.requests;
      site.truncated.byPage = got.hasMore;
    },
    conversations: async () => {
      const got = await collectCursor((cursor, limit) => api.conversations(range, { cursor, limit }, call), { ...paging, maxItems: limits.conversations, pageSize: PAGE_SIZE.conversations });
      site.conversations = got.items;
      site.requests += got.requests;
      site.truncated.conversations = got.truncated;
    },
    searches: async () => {
      let total: number | undefined;
      const got = await collectCursor(
        async (cursor, limit) => {
          const page = await api.searches(range, { cursor, limit }, call);
          total ??= page.totalSearches;
          return page;
        },
        { ...paging, maxItems: limits.searches, pageSize: PAGE_SIZE.searches },
      );
      site.searches = got.items;
      site.totalSearches = total;
      site.requests += got.requests;
      site.truncated.searches = got.truncated;
    },
    views: async () => {
      const got = await collectOffset((offset, limit) => api.views(range, { offset, limit }, call), { ...paging, maxItems: limits.views, pageSize: PAGE_SIZE.views });
      site.views = got.items;
      site.viewTotals = got.totals;
      site.requests += got.requests;
      site.truncated.views = got.truncated;
    },
  };
  const outcomes = await Promise.allSettled(SITE_KINDS.map((kind) => gate.run(kind, tasks[kind])));
  const errors = outcomes.flatMap((o, i) => (o.status === 'rejected' ? [[SITE_KINDS[i]!, o.reason as unknown] as const] : []));
  const fatal = errors.find(([, e]) => stopsAll(e));
  if (fatal !== undefined) throw fatal[1];
  if (errors.length === SITE_KINDS.length) throw errors[0]![1];
  for (const [kind, error] of errors) {
    site.failures[kind] = error instanceof Error ? error : new Error(String(error));
    options.log?.warn(`Reader analytics: the ${kind} of ${range.from}..${range.to} could not be read: ${site.failures[kind].message}`);
  }
  site.fetchedAt = (options.now ?? Date.now)();
  options.log?.info(
    `Reader analytics for ${range.from}..${range.to}: ${site.feedback.length} feedback entries, ${site.byPage.length} pages counted, ${site.conversations.length} conversations, ${site.searches.length} searches, ${site.views.length} pages with views, in ${site.requests} requests.`,
  );
  return site;
}
