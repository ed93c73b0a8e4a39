/** `docs-admin publish`: export, wait, bundle, values, rollout. */
import * as l10n from '@vscode/l10n';
import { resolve } from 'node:path';
import { rolloutEnvironment, runRolloutProcess } from '../core/helm/rolloutProcess';
import { publish, stepTitle } from '../core/helm/publishPipeline';
import { valuesFile } from '../core/helm/valuesFile';
import { parseExportDomain } from '../core/jobs/jobInput';
import { redactSecrets, redactUrl } from '../core/redact';
import type { Parsed } from './args';
import { option, positiveNumber, print, progressLine, type Context, type Io } from './context';
import { describeExport } from './describe';
import { EXIT, UsageError } from './exit';

/** Runs the rollout command in the person's shell (their own command line); its output goes to stderr (stdout is ours). */
function rolloutRunner(command: string, io: Io): (signal?: AbortSignal) => Promise<void> {
  const env = rolloutEnvironment(io.env);
  return (signal) => runRolloutProcess({ shell: command }, { env, line: (text) => io.err(`${text}\n`), signal });
}

/** What `publish` did, in one sentence. */
function publishedLine(domain: string, values: string, result: { jobId: string; pageCount?: number; valuesChanged: boolean; rolledOut: boolean }): string {
  const { jobId, pageCount: pages } = result;
  if (result.rolledOut) {
    if (result.valuesChanged) {
      return pages === undefined
        ? l10n.t('Published {0}: export {1}; {2} updated; rollout done.', domain, jobId, values)
        : l10n.t('Published {0}: export {1} ({3} pages); {2} updated; rollout done.', domain, jobId, values, pages);
    }
    return pages === undefined
      ? l10n.t('Published {0}: export {1}; {2} already up to date; rollout done.', domain, jobId, values)
      : l10n.t('Published {0}: export {1} ({3} pages); {2} already up to date; rollout done.', domain, jobId, values, pages);
  }
  if (result.valuesChanged) {
    return pages === undefined
      ? l10n.t('Published {0}: export {1}; {2} updated.', domain, jobId, values)
      : l10n.t('Published {0}: export {1} ({3} pages); {2} updated.', domain, jobId, values, pages);
  }
  return pages === undefined
    ? l10n.t('Published {0}: export {1}; {2} already up to date.', domain, jobId, values)
    : l10n.t('Published {0}: export {1} ({3} pages); {2} already up to date.', domain, jobId, values, pages);
}

export async function run(parsed: Parsed, ctx: Context): Promise<number> {
  const client = await ctx.api();
  const line = progressLine(ctx);
  const domain = parseExportDomain(parsed.args[0] ?? '');
  if (!domain.ok) throw new UsageError(domain.reason);
  const values = option(parsed, 'values');
  if (values === undefined) throw new UsageError(l10n.t('--values <file> is required: the Helm values file to update.'));
  const version = option(parsed, 'version');
  const rollout = option(parsed, 'rollout');
  const timeout = positiveNumber(parsed, 'timeout');
  const result = await publish({
    client,
    domain: domain.domain,
    values: valuesFile(resolve(values)),
    ...(version === undefined ? {} : { version }),
    ...(rollout === undefined ? {} : { rollout: rolloutRunner(rollout, ctx.io) }),
    signal: ctx.io.signal,
    log: ctx.log,
    allowHttpBundleUrl: { allowed: parsed.options['allow-http-bundle'] === true, hint: '--allow-http-bundle' },
    ...(timeout === undefined ? {} : { wait: { timeoutMs: timeout * 1000 } }),
    onStep: (step, detail) => {
      line.done();
      const title = stepTitle(step, l10n);
      ctx.io.err(`${detail === undefined ? l10n.t('{0}…', title) : l10n.t('{0} ({1})…', title, redactSecrets(detail))}\n`);
    },
    onProgress: (job) => line.show(describeExport(job).split('\n')[0] ?? ''),
  });
  line.done();
  // The signed link is in the values file; a CI log (read by many) gets it without its signature.
  print(ctx, { ...result, bundle: { ...result.bundle, bundleUrl: redactUrl(result.bundle.bundleUrl) } }, publishedLine(domain.domain, values, result));
  return EXIT.ok;
}
