/**
 * The action's `check` operation: the site health check of the docs folder in the workspace (the
 * `root` input), with the same core as `docs-admin check`: no key, no network. Each problem at
 * warning level or above becomes an annotation on its line (workflow commands, every value made
 * safe by core/site/format.ts), the job summary lists them, and the step fails (exit 1) when one
 * is at error level.
 */
import * as l10n from '@vscode/l10n';
import { availableParallelism } from 'node:os';
import { relative, resolve } from 'node:path';
import { checkSite } from '../core/site/checks';
import { formatGithub, summarize, type Summary } from '../core/site/format';
import { loadLibraries } from '../core/site/libraries';
import { loadSite } from '../core/site/load';
import type { Problem } from '../core/site/siteTypes';
import { JobFailedError } from '../cli/exit';

export interface SiteReport {
  root: string;
  summary: Summary;
  /** The problems at warning level and above. */
  problems: Problem[];
}

export interface CheckContext {
  root: string;
  workspace: string;
  /** A line of the log, as is (the caller has made it safe). */
  raw(text: string): void;
  line(text: string): void;
  workerScript: string;
  signal: AbortSignal;
  report(site: SiteReport): void;
}

export async function checkOperation(ctx: CheckContext): Promise<void> {
  const root = resolve(ctx.workspace, ctx.root === '' ? '.' : ctx.root);
  ctx.line(l10n.t('Checking the docs site in {0}…', ctx.root === '' ? '.' : ctx.root));
  const { model, stats } = await loadSite(root, {
    threads: Math.max(1, Math.min(2, availableParallelism())),
    mainThread: await loadLibraries(),
    workerScript: ctx.workerScript,
    signal: ctx.signal,
  });
  const all = checkSite(model);
  const shown = all.filter((p) => p.severity === 'error' || p.severity === 'warning');
  const summary = summarize(all, stats.files);
  const prefix = relative(ctx.workspace, root);
  for (const text of formatGithub(shown, summary, prefix).trimEnd().split('\n')) ctx.raw(text);
  ctx.report({ root: prefix === '' ? '.' : prefix, summary, problems: shown });
  if (summary.errors > 0) throw new JobFailedError(l10n.t('The site check found {0} errors: see the annotations.', summary.errors));
}
