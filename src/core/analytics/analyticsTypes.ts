/**
 * What the core knows of the platform's reader analytics (`shared/spec/platform-api.md`, the
 * vendor's "Analytics Export API" 1.0.0), after validation at the boundary. Tolerant reader:
 * an unknown source or status is kept as `unknown` with the server's word, extra fields are
 * dropped. Paths are as the server sent them (a URL path or a whole URL): `urlPath.ts`
 * normalises them, `mapping.ts` finds their files.
 */
import type { ReaderContact } from './contact';

export const FEEDBACK_SOURCES = ['code_snippet', 'contextual', 'agent', 'thumbs_only'] as const;
export type FeedbackSource = (typeof FEEDBACK_SOURCES)[number];

export const FEEDBACK_STATUSES = ['pending', 'in_progress', 'resolved', 'dismissed'] as const;
export type FeedbackStatus = (typeof FEEDBACK_STATUSES)[number];

/** A review status that still asks for the author's attention. */
export const OPEN_STATUSES: readonly string[] = ['pending', 'in_progress'];

interface FeedbackBase {
  id: string;
  /** The page's path or URL, as sent. */
  path: string;
  comment: string | null;
  /** ISO 8601, when the server gave one. */
  createdAt: string | null;
  source: FeedbackSource | 'unknown';
  rawSource: string;
  status: FeedbackStatus | 'unknown';
  rawStatus: string;
}

/** Page-level feedback (`contextual`): thumbs up or down, and the reader's contact when left. */
export interface ContextualFeedback extends FeedbackBase {
  shape: 'contextual';
  /** Thumbs up (`true`) or down (`false`); undefined when the server did not say. */
  helpful: boolean | undefined;
  /** Personal data: see contact.ts. */
  contact: ReaderContact | undefined;
}

/** Feedback on a code block (`code_snippet`), with the block. */
export interface CodeFeedback extends FeedbackBase {
  shape: 'code';
  code: string;
  filename: string | null;
  lang: string | null;
}

/** `agent` and `thumbs_only` entries: the base fields only. */
export interface PlainFeedback extends FeedbackBase {
  shape: 'plain';
}

export type FeedbackEntry = ContextualFeedback | CodeFeedback | PlainFeedback;

/** `feedback/by-page`: counts per page (thumbs count contextual feedback only, as the vendor says). */
export interface PageFeedbackCounts {
  path: string;
  thumbsUp: number;
  thumbsDown: number;
  code: number;
  total: number;
}

export interface Conversation {
  id: string;
  timestamp: string;
  query: string;
  response: string;
  responseType: 'answer' | 'clarifying_question' | 'unknown';
  sources: { title: string; url: string }[];
  resolutionStatus: 'answered' | 'unanswered' | 'unknown';
  queryCategory: string | null;
  /** The whole URL of the page where the conversation started, when known. */
  pageUrl: string | null;
}

export interface SearchRow {
  searchQuery: string;
  hits: number;
  /** Click-through rate, 0 to 1. */
  ctr: number;
  topClickedPage: string | null;
  lastSearchedAt: string;
}

/** A page's views or visitors, humans and AI agents apart (crawlers are in neither). */
export interface TrafficRow {
  path: string;
  human: number;
  ai: number;
  total: number;
}

export interface TrafficTotals {
  human: number;
  ai: number;
  total: number;
}

export interface CallerStats {
  web: number;
  api: number;
  other: number;
  total: number;
}

/** A date range as the API takes it: `dateTo` is exclusive. Both `YYYY-MM-DD` or ISO 8601. */
export interface DateRange {
  from: string;
  to: string;
}

/** One page of a cursor-paginated list. */
export interface CursorPage<T> {
  items: T[];
  nextCursor: string | null;
  /** Undefined when the answer does not say (searches). */
  hasMore: boolean | undefined;
}

/** One page of an offset-paginated list. */
export interface OffsetPage<T> {
  items: T[];
  totals: TrafficTotals;
  hasMore: boolean;
}
