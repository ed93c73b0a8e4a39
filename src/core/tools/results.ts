/**
 * The tools' results as plain text for a language model: the tool's own sentences first (what
 * was read, from which environment and project, what it means), then the server's, the logs' and
 * the readers' text in data blocks (quote.ts), never mixed into the tool's words. A reader's
 * contact address is never part of a result. Pure.
 */
import * as l10n from '@vscode/l10n';
import type { FileSignals } from '../analytics/signals';
import type { Conversation, FeedbackEntry } from '../analytics/analyticsTypes';
import { dayOf, sourceLabel, statusLabel } from '../analytics/analyticsLabels';
import { OPEN_STATUSES } from '../analytics/analyticsTypes';
import type { AgentJob, ExportJob } from '../api/apiTypes';
import type { Deployment } from '../deployments/deploymentTypes';
import { dataBlock, dataLines, inertLine, singleLine, type DataField } from './quote';

/** Where a result comes from: the environment and project the tool used. */
export interface Where {
  environment: string;
  projectId: string;
}

function from(where: Where): string {
  return l10n.t('(Docs Admin environment "{0}", project "{1}".)', where.environment, where.projectId);
}

function join(...parts: (string | undefined)[]): string {
  return parts.filter((p) => p !== undefined && p !== '').join('\n\n');
}

/** The job and its status in one sentence of the tool's own; an unknown status is quoted as data (below). */
function agentSentence(job: AgentJob): string {
  switch (job.status) {
    case 'active':
      return l10n.t('Agent job {0} is active: the agent is working on it.', job.id);
    case 'completed':
      return job.prLink === null ? l10n.t('Agent job {0} completed without changes (no pull request).', job.id) : l10n.t('Agent job {0} completed and opened a pull request (its link is below).', job.id);
    case 'failed':
      return l10n.t('Agent job {0} failed.', job.id);
    case 'archived':
      return l10n.t('Agent job {0} is archived.', job.id);
    case 'unknown':
      return l10n.t('Agent job {0}: its status is not one the API documents (the word the server sent is below).', job.id);
  }
}

export function agentJobText(job: AgentJob, where: Where): string {
  const fields: DataField[] = [
    ['status', job.rawStatus],
    ['repository', job.source.repository],
    ['branch', job.source.ref],
    ['model', job.model],
    ['created', job.createdAt],
    ['pull request', job.prLink],
    ['archived', job.archivedAt],
  ];
  return join(`${agentSentence(job)} ${from(where)}`, dataBlock(fields, l10n.t('The job as the server described it')));
}

export function exportJobText(job: ExportJob, where: Where): string {
  const progress = job.progress !== undefined && job.status !== 'completed' ? l10n.t(' {0}% done.', Math.round(job.progress)) : '';
  const pages = job.pageCount === undefined ? '' : l10n.t(' {0} pages.', job.pageCount);
  const fields: DataField[] = [
    ['status', job.rawStatus],
    ['domain', job.domain],
    ['created', job.createdAt],
    ['updated', job.updatedAt],
    ['error', job.error],
  ];
  return join(`${l10n.t('Export job {0}: {1}.', job.jobId, job.status)}${progress}${pages} ${from(where)}`, dataBlock(fields, l10n.t('The job as the server described it')));
}

function deploymentMeaning(d: Deployment): string {
  switch (d.status) {
    case 'queued':
      return l10n.t('It is queued: the logs start when it does.');
    case 'in_progress':
      return l10n.t('It is deploying: more log lines will come.');
    case 'success':
      return l10n.t('It succeeded.');
    case 'failure':
      return l10n.t('It failed: the summary and the last log lines below say why.');
    case 'unknown':
      return l10n.t('Its status is not one the API documents (the word the server sent is below).');
  }
}

export function deploymentText(d: Deployment, where: Where, logLines: number): string {
  const files = d.commit?.filesChanged;
  const fields: DataField[] = [
    ['status', d.rawStatus],
    ['summary', d.summary],
    ['commit', d.commit?.sha],
    ['ref', d.commit?.ref],
    ['commit message', d.commit?.message],
    ['files changed', files === undefined ? undefined : `${files.added.length} added, ${files.modified.length} modified, ${files.removed.length} removed`],
    ['author', d.author?.name],
    ['source', d.source],
    ['created', d.createdAt],
    ['ended', d.endedAt],
  ];
  const tail = logLines === 0 ? [] : d.logs.slice(-logLines);
  const logsIntro =
    d.logs.length === 0
      ? l10n.t('No log lines yet.')
      : tail.length === 0
        ? l10n.t('{0} log lines (none asked for).', d.logs.length)
        : tail.length < d.logs.length
          ? l10n.t('The last {0} of {1} log lines:', tail.length, d.logs.length)
          : l10n.t('All {0} log lines:', d.logs.length);
  return join(
    `${l10n.t('Deployment {0}: {1}', d.id, d.status)}. ${deploymentMeaning(d)} ${from(where)}`,
    dataBlock(fields, l10n.t('The deployment as the server described it')),
    logsIntro,
    dataLines(tail, l10n.t('The log lines')),
  );
}

function feedbackFields(f: FeedbackEntry): DataField[] {
  return [
    ['date', dayOf(f.createdAt)],
    ['kind', sourceLabel(f)],
    ['status', statusLabel(f)],
    ['vote', f.shape === 'contextual' && f.helpful !== undefined ? (f.helpful ? 'thumbs up' : 'thumbs down') : undefined],
    ['code block', f.shape === 'code' ? [f.filename, f.lang].filter((p) => p !== null && p !== '').join(', ') : undefined],
    ['comment', f.comment],
    ['code', f.shape === 'code' ? f.code : undefined],
  ];
}

function questionFields(c: Conversation, withPage: boolean): DataField[] {
  return [
    ['date', dayOf(c.timestamp)],
    ['category', c.queryCategory],
    ['page', withPage ? c.pageUrl : undefined],
    ['question', c.query],
  ];
}

/** The most comments and questions a signals result quotes (the rest are counted). */
export const MAX_QUOTED = 20;

/** A name in the tool's own sentence (a file, a path of the site): one line of visible characters. */
function named(text: string): string {
  return inertLine(singleLine(text));
}

/**
 * The URL paths readers' signals came from, each on one line, in a data block: a reader's path
 * is decoded (`%0A` is a line break), and a parameterised redirect (`/old/:slug`) maps any such
 * path onto the page, so a path is reader text.
 */
function pathsBlock(paths: readonly string[]): string {
  return dataLines([...paths].sort().map(singleLine), l10n.t('The URL paths the signals came from (readers\' paths, redirects included)'));
}

export function readerSignalsText(file: string, signals: FileSignals | undefined, days: number, where: Where, paths: readonly string[]): string {
  if (signals === undefined) {
    return l10n.t('No reader signals for {0} in the last {1} days: no votes, views, comments or unanswered questions were recorded for its URL path ({2}). {3}', named(file), days, paths.map(named).join(', ') || '?', from(where));
  }
  const open = [...signals.comments, ...signals.codeFeedback].filter((f) => OPEN_STATUSES.includes(f.rawStatus));
  const shown = open.slice(0, MAX_QUOTED);
  const questions = signals.unanswered.slice(0, MAX_QUOTED);
  const views = signals.views === undefined ? l10n.t('no views recorded') : l10n.t('{0} views ({1} by people, {2} by AI agents)', signals.views.total, signals.views.human, signals.views.ai);
  const summary = l10n.t(
    'Reader signals for {0} over the last {1} days, from {2} URL paths (quoted below): {3} thumbs up, {4} thumbs down; {5}; {6} open feedback comments ({7} comments in all, {8} on code blocks); {9} questions the docs assistant could not answer on this page. {10}',
    named(file),
    days,
    signals.paths.length,
    signals.thumbsUp,
    signals.thumbsDown,
    views,
    open.length,
    signals.comments.length,
    signals.codeFeedback.length,
    signals.unanswered.length,
    from(where),
  );
  const feedback = shown.map((f, i) => dataBlock(feedbackFields(f), l10n.t('Open feedback {0} of {1}, as the reader wrote it', i + 1, open.length)));
  const asked = questions.map((c, i) => dataBlock(questionFields(c, false), l10n.t('Unanswered question {0} of {1}, as the reader asked it', i + 1, signals.unanswered.length)));
  const more = [
    open.length > shown.length ? l10n.t('({0} more open feedback entries not quoted.)', open.length - shown.length) : undefined,
    signals.unanswered.length > questions.length ? l10n.t('({0} more unanswered questions not quoted.)', signals.unanswered.length - questions.length) : undefined,
  ];
  return join(summary, pathsBlock(signals.paths), ...feedback, ...asked, ...more);
}

export function questionsText(questions: readonly Conversation[], days: number, truncated: boolean, where: Where): string {
  if (questions.length === 0) return l10n.t('No unanswered questions in the last {0} days. {1}', days, from(where));
  const head = truncated
    ? l10n.t('The {0} newest questions of the last {1} days that the docs assistant could not answer (more are on the server). {2}', questions.length, days, from(where))
    : l10n.t('{0} questions of the last {1} days that the docs assistant could not answer, newest first. {2}', questions.length, days, from(where));
  return join(head, ...questions.map((c, i) => dataBlock(questionFields(c, true), l10n.t('Question {0}, as the reader asked it', i + 1))));
}

/**
 * A failed tool's text: the error's message (it may quote the server) in a data block, after a
 * sentence of the tool's own. The front end redacts the key from the message before.
 */
export function errorText(tool: string, message: string): string {
  return join(l10n.t('The Docs Admin tool {0} failed; its error says why and what to do.', tool), dataBlock([['error', message]], l10n.t('The error')));
}
