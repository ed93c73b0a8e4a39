/**
 * A deployment's logs as text: the read-only document the editor shows (a header with the
 * deployment's fields, then the lines as they come), and the last lines the CLI and the Action
 * print on a failure. Log lines are server text: control and invisible characters are shown as
 * escapes, so a line never rewrites what is around it.
 */
import * as l10n from '@vscode/l10n';
import { deploymentDuration, deploymentLabel, deploymentStatusWord, runTime, type DeploymentJob } from './present';

/** Control and invisible formatting characters, but the tab. */
const INVISIBLE = /(?![\t ])[\s\p{Cc}\p{Cf}\u2028\u2029]/gu;

/** A log line as one line of plain text. */
export function logLine(line: string): string {
  return line.replace(INVISIBLE, (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`);
}

/** The last `count` lines (for a failure's message). */
export function lastLines(lines: readonly string[], count = 20): string[] {
  return lines.slice(-count).map(logLine);
}

/** The document's header: what was deployed, its status, commit, author and timings. */
function header(job: DeploymentJob, now: number): string[] {
  const s = job.snapshot;
  const lines = [`${deploymentLabel(job)} · ${s === undefined ? l10n.t('not read yet') : deploymentStatusWord(s.status, s.rawStatus)}`, l10n.t('Status id: {0}', job.id)];
  if (job.target?.kind === 'preview' && job.target.previewUrl !== undefined) lines.push(l10n.t('Preview URL: {0}', job.target.previewUrl));
  if (s === undefined) return lines;
  const commit = s.commit;
  if (commit !== undefined) lines.push(l10n.t('Commit: {0}', [commit.sha?.slice(0, 12), commit.ref === undefined ? undefined : `(${commit.ref})`, (commit.message ?? '').split(/\r?\n/)[0]].filter((p) => p !== undefined && p !== '').join(' ')));
  const duration = deploymentDuration(s, now);
  const who = [s.author?.name, s.source, s.createdAt, duration === undefined ? undefined : runTime(duration)].filter((p) => p !== undefined && p !== '');
  if (who.length > 0) lines.push(who.join(' · '));
  if (s.summary !== undefined && s.summary !== '') lines.push(l10n.t('Summary: {0}', s.summary));
  return lines.map(logLine);
}

/** A line that starts with an error (`Error: …`, `fatal: …`), or holds one (`… error: …`, `npm ERR! …`). */
const STARTS_FAILING = /^\s*(?:error|fatal)\b/i;
const HOLDS_FAILING = /\b(?:error|fatal):\s|\bERR!/i;

/**
 * Which line of a failed run's logs says why: the last that reads as an error (`Error: …`), so
 * one that only sums up (`Build failed: 1 error in 1 page`) does not hide it; else the last line
 * that is not blank. Undefined for no lines.
 */
export function failureLineIndex(lines: readonly string[]): number | undefined {
  for (const rule of [STARTS_FAILING, HOLDS_FAILING]) for (let i = lines.length - 1; i >= 0; i--) if (rule.test(lines[i] ?? '')) return i;
  for (let i = lines.length - 1; i >= 0; i--) if ((lines[i] ?? '').trim() !== '') return i;
  return undefined;
}

/** The document line (0-based) a failed deployment's logs open on (`logDocument`'s layout); undefined when it did not fail or has no lines. */
export function failureDocumentLine(job: DeploymentJob, lines: readonly string[] | undefined, now: number): number | undefined {
  if (job.snapshot?.status !== 'failure' || lines === undefined) return undefined;
  const index = failureLineIndex(lines);
  return index === undefined ? undefined : header(job, now).length + 1 + index;
}

/**
 * The whole document: the header, a rule, the lines so far, and a last line that says whether
 * more will come. `lines` undefined: not read in this window yet.
 */
export function logDocument(job: DeploymentJob, lines: readonly string[] | undefined, now: number): string {
  const s = job.snapshot;
  const running = s === undefined || s.status === 'queued' || s.status === 'in_progress';
  const body = lines === undefined ? [l10n.t('(reading the logs…)')] : lines.map(logLine);
  const tail = running ? [s?.status === 'queued' ? l10n.t('(queued: the logs start when the deployment does)') : l10n.t('(deploying: more lines as they come)')] : lines !== undefined && lines.length === 0 ? [l10n.t('(no log lines)')] : [];
  return [...header(job, now), '─'.repeat(60), ...body, ...tail, ''].join('\n');
}
