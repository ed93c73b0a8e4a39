/**
 * A page's signals in one line: for the CodeLens ("$(thumbsdown) 5 · $(thumbsup) 12 · 3 open
 * comments · 2 unanswered questions · 1.2k views (38 % AI)") and, shorter, for a row of the
 * Readers view. Only counts and our own words: no reader text ever reaches either. Undefined when
 * there is nothing to say (a page without data shows nothing).
 */
import * as vscode from 'vscode';
import { formatCount, formatShare } from '../../core/analytics/analyticsLabels';
import { hasSignals, type Signals } from '../../core/analytics/signals';

export function signalsLine(s: Signals, style: 'lens' | 'row'): string | undefined {
  if (!hasSignals(s)) return undefined;
  const parts: string[] = [];
  const lens = style === 'lens';
  if (s.thumbsDown > 0 || s.thumbsUp > 0) {
    parts.push(lens ? `$(thumbsdown) ${s.thumbsDown}` : vscode.l10n.t('{0} down', s.thumbsDown));
    parts.push(lens ? `$(thumbsup) ${s.thumbsUp}` : vscode.l10n.t('{0} up', s.thumbsUp));
  }
  if (s.openComments > 0) parts.push(s.openComments === 1 ? vscode.l10n.t('1 open comment') : vscode.l10n.t('{0} open comments', s.openComments));
  const code = s.codeFeedback.filter((f) => f.status === 'pending' || f.status === 'in_progress').length;
  if (code > 0) parts.push(code === 1 ? vscode.l10n.t('1 on a code block') : vscode.l10n.t('{0} on code blocks', code));
  if (s.unanswered.length > 0) parts.push(s.unanswered.length === 1 ? vscode.l10n.t('1 unanswered question') : vscode.l10n.t('{0} unanswered questions', s.unanswered.length));
  const views = s.views;
  if (views !== undefined && views.total > 0) {
    const count = views.total === 1 ? vscode.l10n.t('1 view') : vscode.l10n.t('{0} views', formatCount(views.total));
    parts.push(views.ai > 0 ? vscode.l10n.t('{0} ({1} AI)', count, formatShare(views.ai / views.total)) : count);
  }
  if (parts.length === 0) return style === 'row' && s.comments.length > 0 ? (s.comments.length === 1 ? vscode.l10n.t('1 comment') : vscode.l10n.t('{0} comments', s.comments.length)) : undefined;
  return parts.join(' · ');
}
