/**
 * A verified, resumable bundle download.
 *
 * Bytes stream to a temporary file beside the target and are renamed into place only when the
 * whole file came and checked out: never a partial file at the target, and an existing file is
 * replaced only when the caller says the user agreed. A dropped connection resumes with
 * `Range`; a link that expired meanwhile is regenerated and the download resumes; a server
 * that ignores `Range` restarts the file cleanly. No `Authorization` header ever goes to the
 * link's host. Cancelling at any point removes the temporary file.
 */
import * as l10n from '@vscode/l10n';
import { randomBytes } from 'node:crypto';
import { access, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type * as http from 'node:http';
import { abortableSleep, AbortedError } from '../../abort';
import { english, sentences, type Translator } from '../../l10n';
import { checkOpenableLink } from '../../links';
import type { Logger } from '../../log';
import { silentLogger } from '../../log';
import { redactSecrets } from '../../redact';
import { downloadDiskError, ensureRoomForDownload } from '../diskSpace';
import { BundleDownloadError, ExpiredLinkError } from './errors';
import type { IssuedLink } from '../links/linkCache';
import { classifyFailure, failureMessage, type NetFailure } from '../../net/failure';
import { directNetwork, type Network } from '../../net/network';
import { discard, firstHeader, readSmall, StorageClient, writeBody } from './storage';

export interface DownloadProgress {
  received: number;
  /** Undefined while the size is not known. */
  total: number | undefined;
  bytesPerSecond: number;
}

export interface DownloadOptions {
  target: string;
  /** The link to start with (may be expired: it is then regenerated first). */
  link: () => Promise<IssuedLink>;
  /** A new link, after the object store refused the current one as expired. */
  regenerate: () => Promise<IssuedLink>;
  /** Time left on a link, on this machine's clock; undefined when nothing says. */
  timeLeft: (link: IssuedLink) => number | undefined;
  /** Replace an existing file at the target (the user agreed). */
  replace?: boolean;
  signal?: AbortSignal;
  onProgress?: (progress: DownloadProgress) => void;
  /** Called on the complete temporary file before it is renamed into place; throws to refuse. */
  verify?: (path: string) => Promise<unknown>;
  /** Proxy and certificate settings (direct, Node's defaults otherwise). */
  network?: Network;
  log?: Logger;
  /** Failed attempts in a row, without a byte of progress, before giving up. */
  maxStalledAttempts?: number;
  maxRegenerations?: number;
  connectTimeoutMs?: number;
  /** A body that sends nothing for this long counts as a dropped connection. */
  idleTimeoutMs?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
}

export interface DownloadResult {
  path: string;
  bytes: number;
  /** Requests made, the first included. */
  requests: number;
  resumes: number;
  restarts: number;
  regenerations: number;
}

/**
 * Why a request did not finish the download, as words for the log (`english`) and for a message
 * (`l10n`): it goes into both.
 */
type Why = (l10n: Translator) => string;

/** What one request added, and what to do next. */
type Step = { done: true } | { done: false; next: 'resume' | 'restart' | 'regenerate' | 'retry'; why: Why };

const EXPIRED_TEXT = /expired|ExpiredToken|not valid in the specified time frame|AuthenticationFailed/i;

/** `bytes a-b/total` -> its parts. */
function contentRange(header: string | undefined): { start: number; end: number; total: number | undefined } | undefined {
  const m = header === undefined ? null : /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(header.trim());
  if (!m) return undefined;
  return { start: Number(m[1]), end: Number(m[2]), total: m[3] === '*' ? undefined : Number(m[3]) };
}

export async function downloadBundle(options: DownloadOptions): Promise<DownloadResult> {
  return new Download(options).run();
}

class Download {
  private readonly log: Logger;
  private readonly storage: StorageClient;
  private readonly network: Network;
  private readonly temp: string;
  private readonly now: () => number;
  private received = 0;
  private total: number | undefined;
  private etag: string | undefined;
  private link: IssuedLink | undefined;
  private readonly result: DownloadResult;
  private speed = { at: 0, bytes: 0, rate: 0, reported: 0 };

  constructor(private readonly o: DownloadOptions) {
    this.log = o.log ?? silentLogger;
    this.now = o.now ?? Date.now;
    this.network = o.network ?? directNetwork();
    this.storage = new StorageClient({
      network: this.network,
      ...(o.signal === undefined ? {} : { signal: o.signal }),
      connectTimeoutMs: o.connectTimeoutMs ?? 15_000,
      idleTimeoutMs: o.idleTimeoutMs ?? 30_000,
      log: this.log,
    });
    this.temp = join(dirname(o.target), `.${basename(o.target)}.${randomBytes(4).toString('hex')}.part`);
    this.result = { path: o.target, bytes: 0, requests: 0, resumes: 0, restarts: 0, regenerations: 0 };
  }

  async run(): Promise<DownloadResult> {
    try {
      if (!this.o.replace && (await exists(this.o.target))) {
        throw new BundleDownloadError('exists', l10n.t('{0} already exists. Choose another name, or agree to replace it.', this.o.target));
      }
      await this.fetchAll();
      await this.o.verify?.(this.temp);
      this.abortIfAsked();
      if (!this.o.replace && (await exists(this.o.target))) {
        throw new BundleDownloadError('exists', l10n.t('{0} appeared while the bundle was downloading; it was left as it is. Choose another name.', this.o.target));
      }
      await rename(this.temp, this.o.target).catch((error: unknown) => {
        throw downloadDiskError(error, dirname(this.o.target)) ?? error;
      });
      this.result.bytes = this.received;
      this.log.info(`Bundle saved to ${this.o.target} (${this.received} bytes, ${this.result.requests} request(s), ${this.result.resumes} resume(s), ${this.result.restarts} restart(s), ${this.result.regenerations} new link(s)).`);
      return this.result;
    } catch (error) {
      await rm(this.temp, { force: true }).catch(() => undefined);
      if (this.o.signal?.aborted) throw new AbortedError();
      throw error;
    } finally {
      this.storage.close();
    }
  }

  private abortIfAsked(): void {
    if (this.o.signal?.aborted) throw new AbortedError();
  }

  private async currentLink(): Promise<IssuedLink> {
    if (this.link === undefined) {
      const first = await this.o.link();
      const left = this.o.timeLeft(first);
      this.link = left !== undefined && left < 5_000 ? await this.newLink((l10n) => l10n.t('the link had expired before the download began')) : first;
    }
    return this.link;
  }

  private async newLink(why: Why): Promise<IssuedLink> {
    const limit = this.o.maxRegenerations ?? 3;
    if (this.result.regenerations >= limit) throw new ExpiredLinkError(why(l10n));
    this.result.regenerations++;
    this.log.info(`Generating a new bundle link: ${why(english)}.`);
    this.link = await this.o.regenerate();
    return this.link;
  }

  private async fetchAll(): Promise<void> {
    const maxStalled = this.o.maxStalledAttempts ?? 5;
    const sleep = this.o.sleep ?? abortableSleep;
    let stalled = 0;
    for (;;) {
      this.abortIfAsked();
      const before = this.received;
      const link = await this.currentLink();
      const step = await this.attempt(link);
      if (step.done) return;
      this.log.info(`Bundle download: ${step.why(english)}; ${step.next === 'regenerate' ? 'getting a new link' : step.next} at byte ${step.next === 'restart' ? 0 : this.received}.`);
      if (step.next === 'regenerate') {
        await this.newLink(step.why);
        continue;
      }
      if (step.next === 'restart') {
        this.result.restarts++;
        this.received = 0;
        this.etag = undefined;
      }
      stalled = this.received > before ? 0 : stalled + 1;
      if (stalled >= maxStalled) {
        throw new BundleDownloadError('network', l10n.t('The bundle download failed {0} times in a row without progress ({1}). Check your connection, then download again.', stalled, step.why(l10n)));
      }
      if (step.next === 'resume') this.result.resumes++;
      await sleep(Math.min(5_000, 250 * 2 ** stalled), this.o.signal);
    }
  }

  /** One GET of what is still missing. */
  private async attempt(link: IssuedLink): Promise<Step> {
    const verdict = checkOpenableLink(link.bundle.bundleUrl);
    if (!verdict.ok) throw new BundleDownloadError('link', l10n.t('The bundle link was not fetched: {0}.', verdict.reason));
    const headers: Record<string, string> = { 'user-agent': 'docs-admin', 'accept-encoding': 'identity' };
    if (this.received > 0) {
      headers.range = `bytes=${this.received}-`;
      if (this.etag !== undefined) headers['if-range'] = this.etag;
    }
    this.result.requests++;
    let res: http.IncomingMessage;
    try {
      res = await this.storage.get(verdict.url, headers);
    } catch (error) {
      this.abortIfAsked();
      if (error instanceof BundleDownloadError) throw error;
      this.throwIfSettingsProblem(classifyFailure(error, this.network.routeFor(verdict.url) !== undefined), verdict.url, error);
      return { done: false, next: 'retry', why: (l10n) => l10n.t('the request failed ({0})', describe(error)) };
    }
    const status = res.statusCode ?? 0;
    if (status === 407) {
      discard(res);
      this.throwIfSettingsProblem({ kind: 'proxyAuth' }, verdict.url, undefined);
    }
    if (status === 200 || status === 206) return this.receive(res, link);
    const text = await readSmall(res);
    if (status === 416 && this.total !== undefined && this.received === this.total) return { done: true };
    if (status === 416) return { done: false, next: 'restart', why: (l10n) => l10n.t('the server refused the byte range') };
    const storeCode = /<Code>([^<]+)<\/Code>/.exec(text)?.[1];
    const storeMessage = /<Message>([^<]+)<\/Message>/.exec(text)?.[1];
    const left = this.o.timeLeft(link);
    if ((status === 403 || status === 400) && (EXPIRED_TEXT.test(text) || (left !== undefined && left <= 0))) {
      return { done: false, next: 'regenerate', why: (l10n) => l10n.t('the link expired ({0})', storeCode ?? status) };
    }
    if (status >= 500 || status === 429) return { done: false, next: 'retry', why: (l10n) => l10n.t('the storage answered {0}', status) };
    const detail = [storeCode, storeMessage].filter(Boolean).join(': ') || l10n.t('status {0}', status);
    const hint =
      status === 404
        ? l10n.t('The bundle is no longer stored; start a new export.')
        : status === 403
          ? l10n.t('Generate a new link and try again; if it persists, the link may have been changed in transit (a proxy?).')
          : l10n.t('Try again later.');
    throw new BundleDownloadError('http', sentences(l10n.t('The storage refused the bundle download ({0}).', detail), hint), { status });
  }

  /**
   * A certificate that is not trusted, a proxy that wants credentials, refuses the tunnel or
   * cannot be reached: the settings most likely need a change, so no retries; says which.
   */
  private throwIfSettingsProblem(failure: NetFailure | undefined, url: URL, cause: unknown): void {
    if (failure === undefined) return;
    const { network } = this;
    const message = failureMessage(failure, { host: url.host, proxy: network.routeFor(url), hints: network.hints, noProxyHint: network.noProxyHint });
    throw new BundleDownloadError('network', sentences(l10n.t('The bundle download failed.'), message), { ...(failure.kind === 'proxyAuth' ? { status: 407 } : {}), cause });
  }

  private async receive(res: http.IncomingMessage, link: IssuedLink): Promise<Step> {
    let start = 0;
    let total: number | undefined;
    if (res.statusCode === 206) {
      const range = contentRange(firstHeader(res.headers['content-range']));
      if (range === undefined || range.start !== this.received) {
        discard(res);
        return { done: false, next: 'restart', why: (l10n) => l10n.t('the server sent a different byte range than asked') };
      }
      start = range.start;
      total = range.total;
    } else {
      if (this.received > 0) this.log.info('The storage ignored the Range request and sent the whole bundle: starting over.');
      if (this.received > 0) this.result.restarts++;
      this.received = 0;
      const length = Number(firstHeader(res.headers['content-length']));
      total = Number.isFinite(length) && firstHeader(res.headers['content-length']) !== undefined ? length : undefined;
    }
    const etag = firstHeader(res.headers.etag);
    if (start > 0 && this.etag !== undefined && etag !== undefined && etag !== this.etag) {
      discard(res);
      return { done: false, next: 'restart', why: (l10n) => l10n.t('the bundle changed on the server since the download began') };
    }
    this.etag = etag ?? this.etag;
    const promised = link.bundle.sizeBytes;
    if (total !== undefined && promised !== undefined && total !== promised) {
      discard(res);
      throw new BundleDownloadError('size', l10n.t("The storage is sending {0} bytes, but the API said the bundle has {1}. The bundle may be incomplete or not the one asked for; generate it again, and if it persists contact the platform's support.", total, promised));
    }
    this.total = total ?? promised ?? this.total;
    await ensureRoomForDownload(dirname(this.o.target), this.total === undefined ? undefined : this.total - start).catch((error: unknown) => { discard(res); throw error; });
    this.speed = { at: this.now(), bytes: this.received, rate: this.speed.rate, reported: 0 };
    const failure = await writeBody(res, this.temp, start, (bytes) => this.progress(bytes));
    // The file holds exactly what reached the disk; count from it, not from the stream.
    this.received = await stat(this.temp).then((s) => s.size, () => 0);
    this.abortIfAsked();
    if (failure !== undefined) {
      const disk = downloadDiskError(failure, dirname(this.o.target));
      if (disk !== undefined) throw disk;
    }
    if (this.total !== undefined && this.received > this.total) {
      throw new BundleDownloadError('size', l10n.t('The storage sent {0} bytes, more than the {1} promised. The bundle was not saved; generate it again.', this.received, this.total));
    }
    if (this.total !== undefined && this.received < this.total) {
      const [received, total] = [this.received, this.total];
      return {
        done: false,
        next: 'resume',
        why: (l10n) =>
          failure === undefined
            ? l10n.t('the connection ended after {0} of {1} bytes', received, total)
            : l10n.t('the connection dropped after {0} of {1} bytes ({2})', received, total, describe(failure)),
      };
    }
    if (failure !== undefined) {
      const received = this.received;
      return { done: false, next: 'resume', why: (l10n) => l10n.t('the connection dropped after {0} bytes ({1})', received, describe(failure)) };
    }
    this.report(true);
    return { done: true };
  }

  private progress(bytes: number): void {
    this.received += bytes;
    this.report(false);
  }

  private report(force: boolean): void {
    const now = this.now();
    const elapsed = now - this.speed.at;
    if (elapsed >= 1_000) {
      const rate = ((this.received - this.speed.bytes) * 1000) / elapsed;
      this.speed = { at: now, bytes: this.received, rate: this.speed.rate === 0 ? rate : 0.5 * this.speed.rate + 0.5 * rate, reported: this.speed.reported };
    }
    if (!force && now - this.speed.reported < 100) return;
    this.speed.reported = now;
    this.o.onProgress?.({ received: this.received, total: this.total, bytesPerSecond: Math.round(this.speed.rate) });
  }
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return redactSecrets(typeof code === 'string' ? `${code}: ${message}` : message);
}
