/**
 * `docs-admin check`: the site health check of a docs folder, for CI. Reads the folder (no key,
 * no network), parses its pages on both cores (facts kept in a cache keyed by content, so a run
 * where nothing changed parses nothing), and prints the problems as text, JSON, SARIF or GitHub
 * annotations. Exit 0 when no problem is at error level, 1 when one is, 2 on bad usage (an
 * unknown format, a folder without docs.json).
 */
import * as l10n from '@vscode/l10n';
import { availableParallelism } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { version } from '../../package.json';
import { checkSite } from '../core/site/checks';
import { defaultCacheFile, FactsCache } from '../core/site/cache';
import { FORMATS, formatGithub, formatJson, formatSarif, formatText, summarize, type Format } from '../core/site/format';
import { loadLibraries } from '../core/site/libraries';
import { loadSite } from '../core/site/load';
import type { Severity } from '../core/site/siteTypes';
import type { Parsed } from './args';
import { option, type Context } from './context';
import { EXIT, UsageError } from './exit';

const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info', 'hint'];

function formatOption(parsed: Parsed): Format {
  const value = option(parsed, 'format') ?? 'text';
  const format = FORMATS.find((f) => f === value);
  if (format === undefined) throw new UsageError(l10n.t('--format takes text, json, sarif or github, not "{0}".', value));
  return format;
}

function minSeverity(parsed: Parsed): Severity {
  const value = option(parsed, 'min-severity') ?? 'warning';
  const severity = SEVERITIES.find((s) => s === value);
  if (severity === undefined) throw new UsageError(l10n.t('--min-severity takes error, warning, info or hint, not "{0}".', value));
  return severity;
}

function cacheOf(parsed: Parsed, root: string, env: NodeJS.ProcessEnv): FactsCache {
  if (parsed.options['no-cache'] === true) {
    if (option(parsed, 'cache') !== undefined) throw new UsageError(l10n.t('--cache and --no-cache go one without the other.'));
    return FactsCache.open(undefined);
  }
  const file = option(parsed, 'cache');
  return FactsCache.open(file === undefined ? defaultCacheFile(root, env) : resolve(file));
}

export async function run(parsed: Parsed, ctx: Context): Promise<number> {
  const format = formatOption(parsed);
  const least = SEVERITIES.indexOf(minSeverity(parsed));
  const rootOption = option(parsed, 'root') ?? '.';
  const root = resolve(rootOption);
  const cache = cacheOf(parsed, root, ctx.io.env);
  const threads = Math.max(1, Math.min(2, availableParallelism()));
  const { model, stats } = await loadSite(root, {
    threads,
    mainThread: await loadLibraries(),
    workerScript: ctx.io.siteWorker ?? join(__dirname, '../core/site/worker.js'),
    cache,
    signal: ctx.io.signal,
  });
  try {
    cache.save();
  } catch (error) {
    // Only a cache: the check stands without it.
    ctx.log.warn(`The check's cache could not be written: ${error instanceof Error ? error.message : String(error)}`);
  }
  ctx.log.debug(`check: ${stats.files} files, ${stats.parsed} parsed, ${stats.fromCache} from the cache`);
  const all = checkSite(model);
  const shown = all.filter((p) => SEVERITIES.indexOf(p.severity) <= least);
  const summary = summarize(all, stats.files);
  switch (format) {
    case 'text':
      ctx.io.out(formatText(shown, summary));
      break;
    case 'json':
      ctx.io.out(formatJson(shown, summary));
      break;
    case 'sarif':
      ctx.io.out(formatSarif(shown, version));
      break;
    case 'github': {
      // Annotations name files from the repository's root: the folder as given, relative to where the check runs.
      const prefix = isAbsolute(rootOption) ? relative(process.cwd(), root) : rootOption;
      (ctx.io.rawOut ?? ctx.io.out)(formatGithub(shown, summary, prefix));
      break;
    }
  }
  return summary.errors > 0 ? EXIT.jobFailed : EXIT.ok;
}
