/**
 * What every command runs with: the output, the environment and the cancel signal (`Io`); the API
 * client and the network, made on first use from the flags and the environment (`Context`); and
 * the small parts the commands share (options, a progress line, printing).
 */
import * as l10n from '@vscode/l10n';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
// Types only, and loaded when first used: the HTTP client (undici) and the network settings cost
// tens of milliseconds to load, which `--version`, `--help` and `export extract` need not pay.
import type { AdminApiClient } from '../core/api/client';
import type { TransportOptions } from '../core/api/transport';
import { adminKeyForms, parseJobId } from '../core/jobs/jobInput';
import { checkBaseUrl } from '../core/links';
import type { Logger } from '../core/log';
import type { Network, NetworkHints } from '../core/net/network';
import { forTerminal } from '../core/untrusted';
import { checkCredentials, type Parsed } from './args';
import { UsageError } from './exit';

export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Whether stderr is a terminal (progress lines are drawn only then). */
  isTTY: boolean;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  /** How the API client's HTTP behaves (the defaults when absent; tests shorten the waits). */
  http?: Pick<TransportOptions, 'requestTimeoutMs' | 'bodyTimeoutMs' | 'connectTimeoutMs' | 'sleep' | 'dispatcher'>;
  /** Reads standard input to its end (`--prompt-file -`). */
  stdin?: () => Promise<string>;
  /** The script of the extraction's worker thread, when not the extractor's own file beside it. */
  extractWorker?: string;
  /** The script of the site check's parse workers (the CLI's own file; worker.ts beside the core otherwise). */
  siteWorker?: string;
  /** Standard output without the terminal guard, for lines the caller has made safe itself (GitHub workflow commands). */
  rawOut?: (text: string) => void;
  /** A minor garbage collection of this process (main.ts exposes V8's), for a download's dead buffers. */
  collectGarbage?: () => void;
  /** Called once, just before the first API client is made (main.ts: the HTTP parser's WebAssembly, compiled by its baseline only). */
  beforeApi?: () => void;
}


export interface Context {
  io: Io;
  json: boolean;
  log: Logger;
  /** The admin key as sent (adminKeyForms: "Bearer " and invisible characters taken off). */
  key: string;
  /** Every form of the key to keep secret: the key sent and DOCS_ADMIN_API_KEY as given. */
  secrets: string[];
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
  const [{ loadCaFiles }, { Network, NetworkConfigError }] = await Promise.all([import('../core/net/caFiles.js'), import('../core/net/network.js')]);
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


export function option(parsed: Parsed, name: string): string | undefined {
  const value = parsed.options[name];
  return typeof value === 'string' ? value : undefined;
}


export function positiveNumber(parsed: Parsed, name: string): number | undefined {
  const text = option(parsed, name);
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(l10n.t('--{0} takes a positive number, not "{1}".', name, text));
  return n;
}


/** The context; the API client is made (and the key, base URL and project id checked) on first use. */
export function connect(parsed: Parsed, io: Io, log: Logger): Context {
  const raw = io.env.DOCS_ADMIN_API_KEY ?? '';
  const { key, secrets } = adminKeyForms(raw);
  let client: AdminApiClient | undefined;
  let network: Promise<Network> | undefined;
  const getNetwork = () => (network ??= cliNetwork(parsed, io, log));
  return {
    io,
    json: parsed.options.json === true,
    log,
    key,
    secrets,
    network: getNetwork,
    async api() {
      if (client !== undefined) return client;
      const base = option(parsed, 'base-url') ?? io.env.DOCS_ADMIN_BASE_URL ?? '';
      const projectId = (option(parsed, 'project-id') ?? io.env.DOCS_ADMIN_PROJECT_ID ?? '').trim();
      if (base === '') throw new UsageError(l10n.t('the base URL is not set: pass --base-url or set DOCS_ADMIN_BASE_URL.'));
      const checked = checkBaseUrl(base);
      if (!checked.ok) throw new UsageError(checked.reason);
      const cleanKey = checkCredentials(raw, projectId);
      if (/^(agent|deploy$|preview|automation|analytics)/.test(parsed.spec.name) && projectId === '') throw new UsageError(l10n.t('the project id is not set: pass --project-id or set DOCS_ADMIN_PROJECT_ID.'));
      const { AdminApiClient } = await import('../core/api/client.js');
      io.beforeApi?.();
      client = new AdminApiClient({ baseUrl: checked.baseUrl, projectId, getKey: () => cleanKey, log, userAgent: 'docs-admin-cli', ...io.http, network: await getNetwork() });
      return client;
    },
    close: () => client?.close() ?? Promise.resolve(),
  };
}


/** What starts a progress line's redraw: the one escape sequence the CLI writes itself. */
const REDRAW = '\r\x1b[2K';

/**
 * The CLI's only way out (`run` wraps its Io with this before anything is written). What it
 * prints quotes servers, archives and the rollout's output (a job's error, an entry name, a
 * repository), so every write goes through `forTerminal`: no escape sequence reaches the
 * terminal, and no line becomes a CI workflow command (`::set-output`, `::add-mask::`). A
 * progress line's redraw prefix is the one sequence kept.
 */
export function terminalSafe(io: Io): Io {
  const safe = (write: (text: string) => void) => (text: string) =>
    text.startsWith(REDRAW) ? write(REDRAW + forTerminal(text.slice(REDRAW.length))) : write(forTerminal(text));
  return { ...io, out: safe((text) => io.out(text)), err: safe((text) => io.err(text)), rawOut: (text) => io.out(text) };
}

export function print(ctx: Context, value: unknown, human: string): void {
  ctx.io.out(ctx.json ? `${JSON.stringify(value, null, 2)}\n` : human.endsWith('\n') ? human : `${human}\n`);
}


/** A progress line on stderr, redrawn in place, only when stderr is a terminal. */
export function progressLine(ctx: Context): { show(text: string): void; done(): void } {
  let shown = false;
  return {
    show(text) {
      if (!ctx.io.isTTY) return;
      ctx.io.err(`${REDRAW}${text}`);
      shown = true;
    },
    done() {
      if (shown) ctx.io.err('\n');
      shown = false;
    },
  };
}


export function jobId(parsed: Parsed, ctx: Pick<Context, 'secrets'>): string {
  const r = parseJobId(parsed.args[0] ?? '', ctx.secrets);
  if (!r.ok) throw new UsageError(r.reason);
  return r.id;
}


export function waitOptions<T>(parsed: Parsed, ctx: Context, onUpdate: (job: T) => void) {
  const timeout = positiveNumber(parsed, 'timeout');
  return { signal: ctx.io.signal, onUpdate, ...(timeout === undefined ? {} : { timeoutMs: timeout * 1000 }) };
}
