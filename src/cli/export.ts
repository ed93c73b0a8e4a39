/** `docs-admin export …`: start, follow, bundle, download and extract a static export. */
import * as l10n from '@vscode/l10n';
import { resolve } from 'node:path';
import type { ExportJob } from '../core/api/apiTypes';
// Each command loads its own heavy part when it runs: the extractor, the downloader (the caps are light).
import type { DownloadProgress } from '../core/bundle/download/download';
import { extractLimits, flagNames } from '../core/bundle/extract/limits';
import { BundleLinks } from '../core/bundle/links/linkCache';
import { formatBytes, formatDuration } from '../core/formatUnits';
import { parseExportDomain } from '../core/jobs/jobInput';
import { waitForExportJob } from '../core/jobs/wait';
import type { Parsed } from './args';
import { jobId, option, positiveNumber, print, progressLine, waitOptions, type Context } from './context';
import { describeExport } from './describe';
import { EXIT, JobFailedError, UsageError } from './exit';

/** export extract: needs no API, so no key or base URL either. */
async function extract(parsed: Parsed, ctx: Context): Promise<number> {
  const line = progressLine(ctx);
  const dir = option(parsed, 'dir');
  if (dir === undefined) throw new UsageError(l10n.t('--dir <dir> is required: the folder to extract into.'));
  // The same defaults as the extension's settings (limits.ts).
  const limits = extractLimits({
    maxEntries: positiveNumber(parsed, 'max-entries'),
    maxTotalMegabytes: positiveNumber(parsed, 'max-total-mb'),
    maxCompressionRatio: positiveNumber(parsed, 'max-compression-ratio'),
    ratioCheckAfterMegabytes: positiveNumber(parsed, 'ratio-check-after-mb'),
  });
  const { extractBundle, TargetFolderError } = await import('../core/bundle/extract/extract.js');
  const summary = await extractBundle(resolve(parsed.args[0] ?? ''), resolve(dir), {
    replace: parsed.options.force === true,
    ...limits,
    limitNames: flagNames(),
    signal: ctx.io.signal,
    workerScript: ctx.io.extractWorker,
    onProgress: (p) => line.show(l10n.t('{0} entries · {1}', p.entries, formatBytes(p.bytes))),
  }).catch((error: unknown) => {
    // How to agree to replace, on the command line: --force.
    if (error instanceof TargetFolderError && error.reason === 'notEmpty') throw new UsageError(l10n.t('The folder {0} already holds files: choose an empty folder for --dir, or pass --force to replace its contents.', error.targetDir));
    throw error;
  });
  line.done();
  print(ctx, summary, l10n.t('Extracted {0} files ({1} pages, {2}) into {3}.', summary.files, summary.pages, formatBytes(summary.bytes), resolve(dir)));
  return EXIT.ok;
}

export async function run(parsed: Parsed, ctx: Context): Promise<number> {
  if (parsed.spec.name === 'export extract') return extract(parsed, ctx);
  // Everything else needs the API (the key, base URL and project id are checked here).
  const client = await ctx.api();
  const line = progressLine(ctx);
  switch (parsed.spec.name) {
    case 'export start': {
      const domain = parseExportDomain(parsed.args[0] ?? '');
      if (!domain.ok) throw new UsageError(domain.reason);
      if (domain.note !== undefined) ctx.io.err(`${l10n.t('note: {0}', domain.note)}\n`);
      const version = option(parsed, 'version');
      const job = await client.startExport({ domain: domain.domain, ...(version === undefined ? {} : { version }) }, { signal: ctx.io.signal });
      print(ctx, job, job.jobId);
      return EXIT.ok;
    }
    case 'export status': {
      const job = await client.getExportJob(jobId(parsed, ctx), { signal: ctx.io.signal });
      print(ctx, job, describeExport(job));
      return EXIT.ok;
    }
    case 'export wait': {
      const job = await waitForExportJob(client, jobId(parsed, ctx), waitOptions<ExportJob>(parsed, ctx, (j) => line.show(describeExport(j).split('\n')[0] ?? '')));
      line.done();
      print(ctx, job, describeExport(job));
      if (job.status === 'failed') {
        throw new JobFailedError(job.error === undefined ? l10n.t('The export {0} failed.', job.jobId) : l10n.t('The export {0} failed: {1}.', job.jobId, job.error));
      }
      return EXIT.ok;
    }
    case 'export bundle': {
      const links = new BundleLinks((j, o) => client.generateBundle(j, o));
      // Never a link that has expired already: asked for again, then a clear error (exit 5).
      const issued = await links.issue(jobId(parsed, ctx), { signal: ctx.io.signal });
      const { bundle } = issued;
      const left = links.timeLeft(issued);
      const expiresAt = left === undefined ? undefined : new Date(Date.now() + left).toISOString();
      print(ctx, { ...bundle, ...(expiresAt === undefined ? {} : { expiresAt }), expiresInSeconds: left === undefined ? null : Math.floor(left / 1000) }, bundle.bundleUrl);
      if (!ctx.json) ctx.io.err(`${left === undefined ? l10n.t('The link does not say when it expires.') : l10n.t('The link expires at {0} (in {1}).', expiresAt ?? '', formatDuration(left))}\n`);
      return EXIT.ok;
    }
    case 'export download': {
      const out = option(parsed, 'out');
      if (out === undefined) throw new UsageError(l10n.t('--out <file> is required: where to save the bundle.'));
      const id = jobId(parsed, ctx);
      const links = new BundleLinks((j, o) => client.generateBundle(j, o));
      const show = (p: DownloadProgress) => {
        if (p.phase === 'check') {
          line.show(l10n.t('checking the archive: {0} of {1}', formatBytes(p.checked), formatBytes(p.received)));
          return;
        }
        const received = p.total === undefined ? formatBytes(p.received) : l10n.t('{0} of {1} ({2}%)', formatBytes(p.received), formatBytes(p.total), Math.floor((p.received / Math.max(1, p.total)) * 100));
        line.show(p.bytesPerSecond > 0 ? `${received} · ${l10n.t('{0}/s', formatBytes(p.bytesPerSecond))}` : received);
      };
      const connections = positiveNumber(parsed, 'connections');
      const [{ downloadBundle }, { BundleDownloadError }] = await Promise.all([import('../core/bundle/download/download.js'), import('../core/bundle/download/downloadErrors.js')]);
      const result = await downloadBundle({
        target: resolve(out),
        replace: parsed.options.force === true,
        ...(connections === undefined ? {} : { connections: Math.min(16, Math.floor(connections)) }),
        link: () => links.fresh(id, 60_000, { signal: ctx.io.signal }),
        regenerate: () => links.regenerate(id, { signal: ctx.io.signal }),
        timeLeft: (l) => links.timeLeft(l),
        // The archive check runs on the extraction's worker thread: this very file (src/cli/main.ts).
        workerScript: ctx.io.extractWorker,
        collectGarbage: ctx.io.collectGarbage,
        signal: ctx.io.signal,
        log: ctx.log,
        network: await ctx.network(),
        onProgress: show,
      }).catch((error: unknown) => {
        // How to agree to replace, on the command line: --force.
        if (error instanceof BundleDownloadError && error.reason === 'exists') throw new UsageError(l10n.t('{0} already exists: choose another --out, or pass --force to replace it.', resolve(out)));
        throw error;
      });
      line.done();
      print(ctx, result, l10n.t('Saved {0} ({1}; the archive checked to its end).', result.path, formatBytes(result.bytes)));
      return EXIT.ok;
    }
    default:
      throw new UsageError(l10n.t('"{0}" is not implemented.', parsed.spec.name));
  }
}
