/**
 * The action's `report` operation: what readers did and said over the last `days` days, for a
 * scheduled workflow's job summary: the pages with the most thumbs down (with their open
 * comments and unanswered questions), the questions the docs assistant could not answer, and the
 * searches that found nothing useful. One set of requests for the whole site (core/analytics).
 * Every text from the site goes through `forMarkdown` (jobSummary.ts); no reader's contact is read
 * out of the data.
 */
import * as l10n from '@vscode/l10n';
import { AnalyticsApi } from '../core/analytics/analyticsApi';
import { periodRange } from '../core/analytics/period';
import { compareByNeed, signalsByPath, unhelpfulSearches } from '../core/analytics/signals';
import { loadSite } from '../core/analytics/site';
import { UsageError } from '../cli/exit';
import type { OperationContext } from './operationContext';

/** A search whose click-through rate is under this share found nothing useful (the editor's default). */
const LOW_CLICK_THROUGH = 0.2;

function whole(text: string, name: 'days' | 'rows', max: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(l10n.t('The {0} input takes a whole number from 1 to {1}, not "{2}".', name, max, text));
  return n;
}

export async function reportOperation(ctx: OperationContext): Promise<void> {
  const days = whole(ctx.input('days'), 'days', 90);
  const rows = whole(ctx.input('rows'), 'rows', 100);
  const range = periodRange(days, Date.now());
  ctx.line(l10n.t('Reader analytics from {0} to {1} (exclusive)…', range.from, range.to));
  const site = await loadSite(new AnalyticsApi(ctx.client), range, {
    log: ctx.log,
    paging: {
      signal: ctx.signal,
      maxRateLimitWaitMs: Math.min(ctx.timeoutMs, 10 * 60_000),
      onRateLimitWait: (ms) => ctx.line(l10n.t('The server is rate limiting requests (429): waiting {0} s.', Math.ceil(ms / 1000))),
      ...(ctx.sleep === undefined ? {} : { sleep: ctx.sleep }),
    },
  });
  const byPath = [...signalsByPath(site).values()];
  const pages = byPath.filter((s) => s.thumbsDown > 0 || s.openComments > 0 || s.unanswered.length > 0).sort((a, b) => compareByNeed(a, b) || a.path.localeCompare(b.path));
  const questions = site.conversations.filter((c) => c.resolutionStatus === 'unanswered');
  const searches = unhelpfulSearches(site.searches, LOW_CLICK_THROUGH);
  const notes = [
    ...Object.entries(site.failures).map(([kind, error]) => l10n.t('The {0} could not be read: {1}', kind, error.message)),
    ...(['feedback', 'conversations', 'searches', 'views'] as const).filter((k) => site.truncated[k] === true).map((k) => l10n.t('Only the first rows of the {0} were read.', k)),
  ];
  ctx.report.readers = {
    range,
    pages: pages.slice(0, rows).map((s) => ({ path: s.path, thumbsDown: s.thumbsDown, thumbsUp: s.thumbsUp, openComments: s.openComments, unanswered: s.unanswered.length, views: s.views?.total })),
    questions: questions.slice(0, rows),
    searches: searches.slice(0, rows),
    counts: { pages: pages.length, questions: questions.length, searches: searches.length },
    notes,
  };
  ctx.line(l10n.t('{0} pages to look at, {1} unanswered questions, {2} searches that found nothing useful ({3} requests).', pages.length, questions.length, searches.length, site.requests));
}
