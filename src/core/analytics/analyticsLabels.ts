/**
 * Reader analytics as a person reads them, in the display language: counts (`1.2k`), shares
 * (`38 %`), a feedback entry's status and source, an age. Shared by the editor, the CLI and the
 * Action. Pure.
 */
import * as l10n from '@vscode/l10n';
import { formatDuration } from '../formatUnits';
import type { FeedbackEntry } from './analyticsTypes';

/** `950`, `1.2k`, `34k`, `1.5M`. */
export function formatCount(n: number): string {
  const abs = Math.abs(n);
  if (abs < 1000) return String(Math.round(n));
  if (abs < 10_000) return l10n.t({ message: '{0}k', args: [(n / 1000).toFixed(1).replace(/\.0$/, '')], comment: ['A count in thousands, short: 1.2k.'] });
  if (abs < 1_000_000) return l10n.t({ message: '{0}k', args: [Math.round(n / 1000)], comment: ['A count in thousands, short: 1.2k.'] });
  return l10n.t({ message: '{0}M', args: [(n / 1_000_000).toFixed(1).replace(/\.0$/, '')], comment: ['A count in millions, short: 1.5M.'] });
}

/** A share (0 to 1) as a whole percentage: `38 %`. */
export function formatShare(share: number): string {
  return l10n.t({ message: '{0} %', args: [Math.round(share * 100)], comment: ['A percentage.'] });
}

export function statusLabel(entry: Pick<FeedbackEntry, 'status' | 'rawStatus'>): string {
  switch (entry.status) {
    case 'pending':
      return l10n.t({ message: 'pending', comment: ['The review status of a reader\'s feedback.'] });
    case 'in_progress':
      return l10n.t({ message: 'in progress', comment: ['The review status of a reader\'s feedback.'] });
    case 'resolved':
      return l10n.t({ message: 'resolved', comment: ['The review status of a reader\'s feedback.'] });
    case 'dismissed':
      return l10n.t({ message: 'dismissed', comment: ['The review status of a reader\'s feedback.'] });
    case 'unknown':
      return l10n.t('status "{0}"', entry.rawStatus);
  }
}

export function sourceLabel(entry: Pick<FeedbackEntry, 'source' | 'rawSource'>): string {
  switch (entry.source) {
    case 'contextual':
      return l10n.t({ message: 'page feedback', comment: ['Where a reader\'s feedback came from: the page\'s own feedback form.'] });
    case 'code_snippet':
      return l10n.t({ message: 'code block', comment: ['Where a reader\'s feedback came from: a code block.'] });
    case 'agent':
      return l10n.t({ message: 'AI agent', comment: ['Where feedback came from: a third-party AI agent.'] });
    case 'thumbs_only':
      return l10n.t({ message: 'thumbs only', comment: ['Where a reader\'s feedback came from: a thumbs up or down, no words.'] });
    case 'unknown':
      return l10n.t('source "{0}"', entry.rawSource);
  }
}

/** `3d ago`, from an ISO date; undefined when there is none or it does not parse. */
export function ageLabel(iso: string | null, now: number): string | undefined {
  const at = iso === null ? NaN : Date.parse(iso);
  if (Number.isNaN(at)) return undefined;
  return l10n.t({ message: '{0} ago', args: [formatDuration(Math.max(0, now - at))], comment: ['How long ago something happened: "3d ago".'] });
}

/** `2026-11-20`, from an ISO date; the text as sent when it does not parse. */
export function dayOf(iso: string | null): string | undefined {
  if (iso === null || iso.trim() === '') return undefined;
  const at = Date.parse(iso);
  return Number.isNaN(at) ? iso : new Date(at).toISOString().slice(0, 10);
}
