/**
 * The analytics routes (`GET /v1/analytics/{projectId}/…`) over the admin API client: the same
 * key, base URL and origin binding as every other call. Each method asks for one page and
 * returns it validated (analyticsSchemas.ts); paging.ts walks the pages.
 */
import type { AdminApiClient } from '../api/client';
import type { CallOptions } from '../api/apiTypes';
import {
  parseCallerStats,
  parseConversationsPage,
  parseFeedbackByPage,
  parseFeedbackPage,
  parseSearchesPage,
  parseViewsPage,
  parseVisitorsPage,
} from './analyticsSchemas';
import type { DateRange, FeedbackSource } from './analyticsTypes';

/** The largest page each route gives (the vendor's `limit` maximum). */
export const PAGE_SIZE = { feedback: 100, byPage: 100, conversations: 1000, searches: 100, views: 250, visitors: 250 } as const;

export interface FeedbackFilter {
  source?: FeedbackSource;
  /** Statuses to keep (sent comma-separated). */
  status?: readonly string[];
}

export class AnalyticsApi {
  constructor(private readonly client: Pick<AdminApiClient, 'getAnalytics'>) {}

  private async get<T>(resource: string, query: Record<string, string | number | undefined>, parse: (value: unknown, status: number) => T, options: CallOptions): Promise<T> {
    const answer = await this.client.getAnalytics(resource, query, options);
    return parse(answer.value, answer.status);
  }

  feedback(range: DateRange, page: { cursor?: string | undefined; limit: number }, filter: FeedbackFilter = {}, options: CallOptions = {}) {
    const query = { dateFrom: range.from, dateTo: range.to, limit: page.limit, cursor: page.cursor, source: filter.source, status: filter.status?.join(',') };
    return this.get('feedback', query, parseFeedbackPage, options);
  }

  feedbackByPage(range: DateRange, limit: number, filter: FeedbackFilter = {}, options: CallOptions = {}) {
    return this.get('feedback/by-page', { dateFrom: range.from, dateTo: range.to, limit, source: filter.source, status: filter.status?.join(',') }, parseFeedbackByPage, options);
  }

  conversations(range: DateRange, page: { cursor?: string | undefined; limit: number }, options: CallOptions = {}) {
    return this.get('assistant', { dateFrom: range.from, dateTo: range.to, limit: page.limit, cursor: page.cursor }, parseConversationsPage, options);
  }

  searches(range: DateRange, page: { cursor?: string | undefined; limit: number }, options: CallOptions = {}) {
    return this.get('searches', { dateFrom: range.from, dateTo: range.to, limit: page.limit, cursor: page.cursor }, parseSearchesPage, options);
  }

  views(range: DateRange, page: { offset: number; limit: number }, options: CallOptions = {}) {
    return this.get('views', { dateFrom: range.from, dateTo: range.to, limit: page.limit, offset: page.offset }, parseViewsPage, options);
  }

  visitors(range: DateRange, page: { offset: number; limit: number }, options: CallOptions = {}) {
    return this.get('visitors', { dateFrom: range.from, dateTo: range.to, limit: page.limit, offset: page.offset }, parseVisitorsPage, options);
  }

  callerStats(range: DateRange, options: CallOptions = {}) {
    return this.get('assistant/caller-stats', { dateFrom: range.from, dateTo: range.to }, parseCallerStats, options);
  }
}
