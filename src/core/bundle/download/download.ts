/**
 * A verified, resumable bundle download.
 *
 * Bytes stream to a temporary file beside the target and are renamed into place only when the
 * whole file came and checked out: never a partial file at the target, and an existing file is
 * replaced only when the caller says the user agreed. A dropped connection resumes with
 * `Range`; a link that expired meanwhile is regenerated and the download resumes; a server
 * that ignores `Range` restarts the file cleanly. A large bundle comes in several byte ranges
 * at once (`ranged.ts`), each resumed on its own, checked and renamed into place the same way.
 * No `Authorization` header ever goes to the link's host. Cancelling at any point removes the
 * temporary file.
 */
import * as l10n from '@vscode/l10n';
import { randomBytes } from 'node:crypto';
import { access, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { abortableSleep, AbortedError } from '../../abort';
import { english, sentences } from '../../l10n';
import { checkOpenableLink } from '../../links';
import type { Logger } from '../../log';
import { silentLogger } from '../../log';
import { downloadDiskError, ensureRoomForDownload } from '../diskSpace';
import { BundleDownloadError, ExpiredLinkError } from './errors';
import type { IssuedLink } from '../links/linkCache';
import { classifyFailure, failureMessage, type NetFailure } from '../../net/failure';
import { directNetwork, type Network } from '../../net/network';
import { contentRange, describe, refusalStep, type Step, type Why } from './answers';
import { fetchRanges, type RangeHost } from './ranged';
import { writeBody } from './bodyFile';
import type { StorageResponse } from './response';
import { discard, firstHeader, readSmall, StorageClient } from './storage';

import { DEFAULT_CONNECTIONS, PARALLEL_FROM_BYTES, type DownloadOptions, type DownloadResult } from './options';

export type { DownloadOptions, DownloadProgress, DownloadResult } from './options';
export { DEFAULT_CONNECTIONS, PARALLEL_FROM_BYTES } from './options';

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
  private renewing: Promise<IssuedLink> | undefined;
  private readonly result: DownloadResult;
  private speed = { at: 0, bytes: 0, rate: 0, reported: 0 };

  constructor(private readonly o: DownloadOptions) {
    this.log = o.log ?? silentLogger;
    this.now = o.now ?? Date.now;
    this.network = o.network ?? directNetwork();
    this.storage = this.storageClient(o.signal);
    this.temp = join(dirname(o.target), `.${basename(o.target)}.${randomBytes(4).toString('hex')}.part`);
    this.result = { path: o.target, bytes: 0, requests: 0, resumes: 0, restarts: 0, regenerations: 0 };
  }

  private storageClient(signal: AbortSignal | undefined): StorageClient {
    const { o } = this;
    return new StorageClient({ network: this.network, ...(signal === undefined ? {} : { signal }), connectTimeoutMs: o.connectTimeoutMs ?? 15_000, idleTimeoutMs: o.idleTimeoutMs ?? 30_000, log: this.log });
  }

  async run(): Promise<DownloadResult> {
    try {
      if (!this.o.replace && (await exists(this.o.target))) {
        throw new BundleDownloadError('exists', l10n.t('{0} already exists. Choose another name, or agree to replace it.', this.o.target));
      }
      await this.fetch();
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

  /**
   * A new link for a request that found `stale` expired: one for all the ranges that find it at
   * about the same time, and none when another range already got one.
   */
  private renew(stale: IssuedLink, why: Why): Promise<IssuedLink> {
    if (this.link !== undefined && this.link !== stale) return Promise.resolve(this.link);
    this.renewing ??= this.newLink(why).finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  }

  /** In ranges when the bundle is large and the store answers them; on one stream otherwise. */
  private async fetch(): Promise<void> {
    const connections = Math.max(1, Math.floor(this.o.connections ?? DEFAULT_CONNECTIONS));
    const size = (await this.currentLink()).bundle.sizeBytes;
    if (connections > 1 && size !== undefined && size > 0 && size >= (this.o.parallelFromBytes ?? PARALLEL_FROM_BYTES)) {
      const outcome = await fetchRanges(this.rangeHost(size, connections));
      if (outcome === 'done') {
        this.total = size;
        return;
      }
      this.log.info(`Bundle download: ${outcome(english)}; starting over on one connection.`);
      this.result.restarts++;
      this.received = 0;
      this.etag = undefined;
    }
    await this.fetchAll();
  }

  private rangeHost(total: number, connections: number): RangeHost {
    const { o } = this;
    return {
      temp: this.temp,
      dir: dirname(o.target),
      total,
      connections,
      counts: this.result,
      log: this.log,
      maxStalled: o.maxStalledAttempts ?? 5,
      sleep: o.sleep ?? abortableSleep,
      ensureRoom: o.ensureRoom ?? ensureRoomForDownload,
      ...(o.signal === undefined ? {} : { signal: o.signal }),
      storage: (signal) => this.storageClient(signal),
      link: () => this.currentLink(),
      renew: (stale, why) => this.renew(stale, why),
      timeLeft: (link) => o.timeLeft(link),
      failed: (error, url) => this.throwIfSettingsProblem(classifyFailure(error, this.network.routeFor(url) !== undefined), url, error),
      proxyAuth: (url) => this.throwIfSettingsProblem({ kind: 'proxyAuth' }, url, undefined),
      received: (bytes) => {
        this.total = total;
        this.received = bytes;
        this.report(bytes === total);
      },
    };
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
    let res: StorageResponse;
    try {
      res = await this.storage.get(verdict.url, headers);
    } catch (error) {
      this.abortIfAsked();
      if (error instanceof BundleDownloadError) throw error;
      this.throwIfSettingsProblem(classifyFailure(error, this.network.routeFor(verdict.url) !== undefined), verdict.url, error);
      return { done: false, next: 'retry', why: (l10n) => l10n.t('the request failed ({0})', describe(error)) };
    }
    const status = res.statusCode;
    if (status === 407) {
      discard(res);
      this.throwIfSettingsProblem({ kind: 'proxyAuth' }, verdict.url, undefined);
    }
    if (status === 200 || status === 206) return this.receive(res, link);
    const text = await readSmall(res);
    if (status === 416 && this.total !== undefined && this.received === this.total) return { done: true };
    if (status === 416) return { done: false, next: 'restart', why: (l10n) => l10n.t('the server refused the byte range') };
    return refusalStep(status, text, this.o.timeLeft(link));
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

  private async receive(res: StorageResponse, link: IssuedLink): Promise<Step> {
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
    await (this.o.ensureRoom ?? ensureRoomForDownload)(dirname(this.o.target), this.total === undefined ? undefined : this.total - start).catch((error: unknown) => { discard(res); throw error; });
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
