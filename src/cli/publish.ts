/** `docs-admin publish`: export, wait, bundle, values, rollout. */
import * as l10n from '@vscode/l10n';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { RolloutError } from '../core/deploy/errors';
import { publish, stepTitle } from '../core/deploy/publish';
import { valuesFile } from '../core/deploy/valuesFile';
import { parseExportDomain } from '../core/jobs/input';
import { redactSecrets, redactUrl } from '../core/redact';
import type { Parsed } from './args';
import { option, positiveNumber, print, progressLine, type Context, type Io } from './context';
import { describeExport } from './describe';
import { EXIT, UsageError } from './exit';

/** Text written in chunks, passed on a whole line at a time (the rest at `end`). */
function wholeLines(write: (text: string) => void): { write(text: string): void; end(): void } {
  let pending = '';
  return {
    write(text) {
      pending += text;
      const cut = pending.lastIndexOf('\n');
      if (cut < 0) return;
      write(pending.slice(0, cut + 1));
      pending = pending.slice(cut + 1);
    },
    end() {
      if (pending !== '') write(pending);
      pending = '';
    },
  };
}

/** Runs the rollout command in a shell; its output goes to stderr (stdout is ours). */
function rolloutRunner(command: string, io: Io): (signal?: AbortSignal) => Promise<void> {
  return (signal) =>
    new Promise((done, fail) => {
      const env = { ...io.env };
      delete env.DOCS_ADMIN_API_KEY;
      const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'], env, ...(signal === undefined ? {} : { signal }) });
      // Whole lines, so a CI runner's `::command::` split across two chunks is still seen and defused.
      const out = wholeLines((line) => io.err(line));
      const err = wholeLines((line) => io.err(line));
      child.stdout.on('data', (chunk: Buffer) => out.write(chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => err.write(chunk.toString()));
      child.on('error', (error) => fail(new RolloutError(l10n.t('The rollout command could not run: {0}.', error.message))));
      child.on('close', (code, sig) => {
        out.end();
        err.end();
        if (code === 0) return done();
        fail(
          new RolloutError(
            sig === null ? l10n.t('The rollout command failed (exit code {0}).', String(code)) : l10n.t('The rollout command failed (signal {0}).', sig),
            code ?? undefined,
          ),
        );
      });
    });
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
