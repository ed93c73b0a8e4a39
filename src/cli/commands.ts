/** What each CLI command does, over the same core as the extension. */
import * as l10n from '@vscode/l10n';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AdminApiClient } from '../core/api/client';
import type { TransportOptions } from '../core/api/transport';
import type { AgentJob, ExportJob } from '../core/api/types';
import { downloadBundle, type DownloadProgress } from '../core/bundle/download';
import { extractBundle } from '../core/bundle/extract';
import { BundleLinks } from '../core/bundle/linkCache';
import { verifyArchive } from '../core/bundle/verify';
import { publish, stepTitle } from '../core/deploy/publish';
import { valuesFile } from '../core/deploy/valuesFile';
import { parseExportDomain, parseJobId } from '../core/jobs/input';
import { formatDuration } from '../core/jobs/present';
import { waitForAgentJob, waitForExportJob } from '../core/jobs/wait';
import { checkBaseUrl } from '../core/links';
import type { Logger } from '../core/log';
import { loadCaFiles } from '../core/net/caFiles';
import { Network, NetworkConfigError, type NetworkHints } from '../core/net/network';
import { redactSecrets, redactUrl } from '../core/redact';
import { checkCredentials, type Parsed } from './args';
import { EXIT, JobFailedError, UsageError } from './exit';
import { RolloutError } from '../core/deploy/errors';
import { formatBytes } from '../core/bundle/shelfRows';

export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Whether stderr is a terminal (progress lines are drawn only then). */
  isTTY: boolean;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  /** How the API client's HTTP behaves (the defaults when absent; tests shorten the waits). */
  http?: Pick<TransportOptions, 'requestTimeoutMs' | 'connectTimeoutMs' | 'sleep' | 'dispatcher'>;
  /** The script of the extraction's worker thread, when not the extractor's own file beside it. */
  extractWorker?: string;
}

interface Context {
  io: Io;
  json: boolean;
  log: Logger;
  key: string;
  api(): Promise<AdminApiClient>;
  /** The proxy and CA settings, from the environment and --ca-file. */
  network(): Promise<Network>;
  close(): Promise<void>;
}

/** How messages name the settings, on the command line. */
function cliHints(): NetworkHints {
  return {
    proxy: 'HTTPS_PROXY / HTTP_PROXY',
    noProxy: 'NO_PROXY',
    proxyCredentials: l10n.t('the user name and password in the proxy URL (HTTPS_PROXY=http://<user>:<password>@proxy:port)'),
    ca: l10n.t('--ca-file (or DOCS_ADMIN_CA_FILE)'),
  };
}

async function cliNetwork(parsed: Parsed, io: Io, log: Logger): Promise<Network> {
  const flag = option(parsed, 'ca-file');
  const file = flag ?? (io.env.DOCS_ADMIN_CA_FILE?.trim() || undefined);
  const where = flag === undefined ? 'DOCS_ADMIN_CA_FILE' : '--ca-file';
  const ca = file === undefined ? { certificates: [], problems: [] } : await loadCaFiles([resolve(file)], where);
  // In CI a missing CA file is an error, not a warning: the run would fail later, less clearly.
  if (ca.problems.length > 0) throw new UsageError(ca.problems.join(' '));
  try {
    const network = new Network({ extraCa: ca.certificates, hints: cliHints() }, { env: io.env, readFile: (path) => readFileSync(path, 'utf8') });
    log.debug(`Network: ${network.describe()}.`);
    return network;
  } catch (error) {
    throw error instanceof NetworkConfigError ? new UsageError(error.message) : error;
  }
}

function option(parsed: Parsed, name: string): string | undefined {
  const value = parsed.options[name];
  return typeof value === 'string' ? value : undefined;
}

function positiveNumber(parsed: Parsed, name: string): number | undefined {
  const text = option(parsed, name);
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(l10n.t('--{0} takes a positive number, not "{1}".', name, text));
  return n;
}

/** The context; the API client is made (and the key, base URL and project id checked) on first use. */
export function connect(parsed: Parsed, io: Io, log: Logger): Context {
  const key = (io.env.DOCS_ADMIN_API_KEY ?? '').trim();
  let client: AdminApiClient | undefined;
  let network: Promise<Network> | undefined;
  const getNetwork = () => (network ??= cliNetwork(parsed, io, log));
  return {
    io,
    json: parsed.options.json === true,
    log,
    key,
    network: getNetwork,
    async api() {
      if (client !== undefined) return client;
      const base = option(parsed, 'base-url') ?? io.env.DOCS_ADMIN_BASE_URL ?? '';
      const projectId = (option(parsed, 'project-id') ?? io.env.DOCS_ADMIN_PROJECT_ID ?? '').trim();
      if (base === '') throw new UsageError(l10n.t('the base URL is not set: pass --base-url or set DOCS_ADMIN_BASE_URL.'));
      const checked = checkBaseUrl(base);
      if (!checked.ok) throw new UsageError(checked.reason);
      const cleanKey = checkCredentials(key, projectId);
      if (parsed.spec.name.startsWith('agent') && projectId === '') throw new UsageError(l10n.t('the project id is not set: pass --project-id or set DOCS_ADMIN_PROJECT_ID.'));
      client = new AdminApiClient({ baseUrl: checked.baseUrl, projectId, getKey: () => cleanKey, log, userAgent: 'docs-admin-cli', ...io.http, network: await getNetwork() });
      return client;
    },
    close: () => client?.close() ?? Promise.resolve(),
  };
}

function print(ctx: Context, value: unknown, human: string): void {
  ctx.io.out(ctx.json ? `${JSON.stringify(value, null, 2)}\n` : human.endsWith('\n') ? human : `${human}\n`);
}

/** `unknown status "x"` for a status the API does not list; the API's own word (a value scripts match) otherwise. */
function statusOf(job: AgentJob | ExportJob): string {
  return job.status === 'unknown' ? l10n.t('unknown status "{0}"', job.rawStatus) : job.status;
}

function describeAgent(job: AgentJob): string {
  const ref = job.source.ref === null ? '' : ` @ ${job.source.ref}`;
  const status = job.status === 'completed' && job.prLink === null ? l10n.t('completed, no changes') : statusOf(job);
  const fields: [string, string | null][] = [
    [l10n.t({ message: 'repository', comment: ['A field of an agent job, in a table.'] }), `${job.source.repository}${ref}`],
    [l10n.t({ message: 'model', comment: ['A field of an agent job, in a table.'] }), job.model],
    [l10n.t({ message: 'created', comment: ['A field of an agent job, in a table.'] }), job.createdAt],
    [l10n.t({ message: 'pull request', comment: ['A field of an agent job, in a table.'] }), job.prLink],
    [l10n.t({ message: 'archived', comment: ['A field of an agent job, in a table.'] }), job.archivedAt],
  ];
  const width = Math.max(...fields.map(([name]) => name.length)) + 2;
  return [`${job.id}  ${status}`, ...fields.filter(([, value]) => value !== null).map(([name, value]) => `  ${name.padEnd(width)}${value ?? ''}`)].join('\n');
}

function describeExport(job: ExportJob): string {
  const parts = [statusOf(job)];
  if (job.progress !== undefined && job.status !== 'completed') parts.push(`${Math.round(job.progress)}%`);
  if (job.pageCount !== undefined) parts.push(l10n.t('{0} pages', job.pageCount));
  if (job.domain !== undefined) parts.push(job.domain);
  const error = job.error === undefined ? '' : `\n  ${l10n.t({ message: 'error', comment: ['The field of a failed export job that holds its error, in a table.'] })}  ${job.error}`;
  return `${job.jobId}  ${parts.join(' · ')}${error}`;
}

/** A progress line on stderr, redrawn in place, only when stderr is a terminal. */
function progressLine(ctx: Context): { show(text: string): void; done(): void } {
  let shown = false;
  return {
    show(text) {
      if (!ctx.io.isTTY) return;
      ctx.io.err(`\r\x1b[2K${text}`);
      shown = true;
    },
    done() {
      if (shown) ctx.io.err('\n');
      shown = false;
    },
  };
}

function jobId(parsed: Parsed, key: string): string {
  const r = parseJobId(parsed.args[0] ?? '', [key]);
  if (!r.ok) throw new UsageError(r.reason);
  return r.id;
}

function waitOptions<T>(parsed: Parsed, ctx: Context, onUpdate: (job: T) => void) {
  const timeout = positiveNumber(parsed, 'timeout');
  return { signal: ctx.io.signal, onUpdate, ...(timeout === undefined ? {} : { timeoutMs: timeout * 1000 }) };
}

/** Runs the rollout command in a shell; its output goes to stderr (stdout is ours). */
function rolloutRunner(command: string, io: Io): (signal?: AbortSignal) => Promise<void> {
  return (signal) =>
    new Promise((done, fail) => {
      const env = { ...io.env };
      delete env.DOCS_ADMIN_API_KEY;
      const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'], env, ...(signal === undefined ? {} : { signal }) });
      child.stdout.on('data', (chunk: Buffer) => io.err(chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => io.err(chunk.toString()));
      child.on('error', (error) => fail(new RolloutError(l10n.t('The rollout command could not run: {0}.', error.message))));
      child.on('close', (code, sig) => {
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

/** export extract: needs no API, so no key or base URL either. */
async function extract(parsed: Parsed, ctx: Context, line: ReturnType<typeof progressLine>): Promise<number> {
  const dir = option(parsed, 'dir');
  if (dir === undefined) throw new UsageError(l10n.t('--dir <dir> is required: the folder to extract into.'));
  const maxEntries = positiveNumber(parsed, 'max-entries');
  const maxMb = positiveNumber(parsed, 'max-total-mb');
  const summary = await extractBundle(resolve(parsed.args[0] ?? ''), resolve(dir), {
    replace: parsed.options.force === true,
    maxEntries: maxEntries ?? 100_000,
    maxTotalBytes: (maxMb ?? 4096) * 1024 * 1024,
    signal: ctx.io.signal,
    workerScript: ctx.io.extractWorker,
    onProgress: (p) => line.show(l10n.t('{0} entries · {1}', p.entries, formatBytes(p.bytes))),
  });
  line.done();
  print(ctx, summary, l10n.t('Extracted {0} files ({1} pages, {2}) into {3}.', summary.files, summary.pages, formatBytes(summary.bytes), resolve(dir)));
  return EXIT.ok;
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

export async function runCommand(parsed: Parsed, ctx: Context): Promise<number> {
  const line = progressLine(ctx);
  if (parsed.spec.name === 'export extract') return extract(parsed, ctx, line);
  // Everything else needs the API (the key, base URL and project id are checked here).
  const client = await ctx.api();
  switch (parsed.spec.name) {
    case 'agent get': {
      const job = await client.getAgentJob(jobId(parsed, ctx.key), { signal: ctx.io.signal });
      print(ctx, job, describeAgent(job));
      return EXIT.ok;
    }
    case 'agent wait': {
      const job = await waitForAgentJob(client, jobId(parsed, ctx.key), waitOptions<AgentJob>(parsed, ctx, (j) => line.show(`${j.id}: ${j.rawStatus}`)));
      line.done();
      print(ctx, job, describeAgent(job));
      if (job.status === 'failed') throw new JobFailedError(l10n.t('The agent job {0} failed.', job.id));
      return EXIT.ok;
    }
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
      const job = await client.getExportJob(jobId(parsed, ctx.key), { signal: ctx.io.signal });
      print(ctx, job, describeExport(job));
      return EXIT.ok;
    }
    case 'export wait': {
      const job = await waitForExportJob(client, jobId(parsed, ctx.key), waitOptions<ExportJob>(parsed, ctx, (j) => line.show(describeExport(j).split('\n')[0] ?? '')));
      line.done();
      print(ctx, job, describeExport(job));
      if (job.status === 'failed') {
        throw new JobFailedError(job.error === undefined ? l10n.t('The export {0} failed.', job.jobId) : l10n.t('The export {0} failed: {1}.', job.jobId, job.error));
      }
      return EXIT.ok;
    }
    case 'export bundle': {
      const links = new BundleLinks((j, o) => client.generateBundle(j, o));
      const issued = await links.regenerate(jobId(parsed, ctx.key), { signal: ctx.io.signal });
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
      const id = jobId(parsed, ctx.key);
      const links = new BundleLinks((j, o) => client.generateBundle(j, o));
      const show = (p: DownloadProgress) => {
        const received = p.total === undefined ? formatBytes(p.received) : l10n.t('{0} of {1} ({2}%)', formatBytes(p.received), formatBytes(p.total), Math.floor((p.received / Math.max(1, p.total)) * 100));
        line.show(p.bytesPerSecond > 0 ? `${received} · ${l10n.t('{0}/s', formatBytes(p.bytesPerSecond))}` : received);
      };
      const result = await downloadBundle({
        target: resolve(out),
        replace: parsed.options.force === true,
        link: () => links.fresh(id, 60_000, { signal: ctx.io.signal }),
        regenerate: () => links.regenerate(id, { signal: ctx.io.signal }),
        timeLeft: (l) => links.timeLeft(l),
        verify: verifyArchive,
        signal: ctx.io.signal,
        log: ctx.log,
        network: await ctx.network(),
        onProgress: show,
      });
      line.done();
      print(ctx, result, l10n.t('Saved {0} ({1}).', result.path, formatBytes(result.bytes)));
      return EXIT.ok;
    }
    case 'publish': {
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
    default:
      throw new UsageError(l10n.t('"{0}" is not implemented.', parsed.spec.name));
  }
}
