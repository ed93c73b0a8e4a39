/**
 * A verified, resumable bundle download. Bytes stream to a temporary file beside the target and
 * are renamed into place only when the whole file came and its content is proven: its size is
 * the one declared (`sizeBytes`, `Content-Length`, `Content-Range`), and the archive was read
 * through to its end (checkThread.ts: every gzip member's CRC-32 and length, the tar's
 * end-of-archive marker; a zip's directory and every entry's CRC-32) on the check's own thread,
 * fed the very blocks that reach the disk (lent, not copied: blocks.ts), as they reach it. Without a declared size, a connection that closes is the end only if the
 * archive checks out. Never a partial or unproven file at the target, and an existing file is
 * replaced only when the caller says the user agreed.
 *
 * A dropped connection resumes with `Range`; a link that expired meanwhile is regenerated and
 * the download resumes; a server that ignores `Range` restarts the file cleanly. A large bundle
 * comes in several byte ranges at once (`ranged.ts`). No `Authorization` header ever goes to the
 * link's host. Cancelling at any point removes the temporary file.
 */
import * as l10n from '@vscode/l10n';
import { randomBytes } from 'node:crypto';
import { access, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { abortableSleep, AbortedError } from '../../abort';
import { english } from '../../l10n';
import { checkOpenableLink } from '../../links';
import type { Logger } from '../../log';
import { silentLogger } from '../../log';
import { downloadDiskError, ensureRoomForDownload } from '../diskSpace';
import type { ArchiveKind } from '../extract/archivePaths';
import { CheckFailure, checkError, CheckThread } from '../extract/checkThread';
import type { IssuedLink } from '../links/linkCache';
import { BundleDownloadError } from './errors';
import { LinkSupply } from './linkSupply';
import { classifyFailure } from '../../net/failure';
import { directNetwork, type Network } from '../../net/network';
import { bodyHead, describe, refusalStep, throwIfSettingsProblem, type Step } from './answers';
import { fetchRanges, type RangeHost } from './ranged';
import { writeBody, type BodyEvents } from './bodyFile';
import { BlockPool, Collections } from './blocks';
import { ProgressReport } from './progress';
import type { StorageResponse } from './response';
import { discard, readSmall, StorageClient } from './storage';
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
  /** Aborted by the user's signal, or by the archive check failing before the last byte. */
  private readonly stop = new AbortController();
  private readonly signal: AbortSignal;
  private readonly check: CheckThread;
  /** The download's 1 MiB blocks, shared by its connections and lent to the check (blocks.ts). */
  private readonly blocks: BlockPool;
  private readonly collections: Collections;
  private readonly progress: ProgressReport;
  private received = 0;
  private total: number | undefined;
  private etag: string | undefined;
  private readonly links: LinkSupply;
  /** Without a declared size: the check found the archive cut short where the connection closed. */
  private cutShort: CheckFailure | undefined;
  private readonly result: Omit<DownloadResult, 'kind'>;

  constructor(private readonly o: DownloadOptions) {
    this.log = o.log ?? silentLogger;
    this.network = o.network ?? directNetwork();
    this.signal = o.signal === undefined ? this.stop.signal : AbortSignal.any([o.signal, this.stop.signal]);
    this.storage = this.storageClient(this.signal);
    this.temp = join(dirname(o.target), `.${basename(o.target)}.${randomBytes(4).toString('hex')}.part`);
    this.result = { path: o.target, bytes: 0, requests: 0, resumes: 0, restarts: 0, regenerations: 0 };
    this.progress = new ProgressReport(o.now ?? Date.now, o.onProgress);
    this.collections = new Collections(o.collectGarbage);
    this.blocks = BlockPool.forDownload(Math.max(1, Math.floor(o.connections ?? DEFAULT_CONNECTIONS)));
    this.links = new LinkSupply({ link: o.link, regenerate: o.regenerate, timeLeft: o.timeLeft, maxRegenerations: o.maxRegenerations ?? 3, log: this.log, counts: this.result });
    this.check = new CheckThread({
      path: this.temp,
      subject: 'download',
      workerScript: o.workerScript,
      l10n: o.l10n,
      collectGarbage: o.collectGarbage !== undefined,
      blocks: this.blocks,
      onProgress: (bytes) => {
        this.progress.checked = bytes;
        this.progress.tell(false);
      },
      // A damaged archive ends the download at once: its other bytes cannot mend it.
      onFailure: (failure) => {
        if (!failure.truncated) this.stop.abort(failure);
      },
    });
  }

  private storageClient(signal: AbortSignal): StorageClient {
    const { o } = this;
    return new StorageClient({ network: this.network, signal, connectTimeoutMs: o.connectTimeoutMs ?? 15_000, headTimeoutMs: o.headTimeoutMs ?? 30_000, idleTimeoutMs: o.idleTimeoutMs ?? 30_000, log: this.log });
  }

  async run(): Promise<DownloadResult> {
    try {
      // Its thread starts while the link is fetched and the connection made.
      this.check.prepare();
      if (!this.o.replace && (await exists(this.o.target))) {
        throw new BundleDownloadError('exists', l10n.t('{0} already exists. Choose another name, or agree to replace it.', this.o.target));
      }
      const kind = await this.fetch();
      this.abortIfAsked();
      if (!this.o.replace && (await exists(this.o.target))) {
        throw new BundleDownloadError('exists', l10n.t('{0} appeared while the bundle was downloading; it was left as it is. Choose another name.', this.o.target));
      }
      await rename(this.temp, this.o.target).catch((error: unknown) => {
        throw downloadDiskError(error, dirname(this.o.target)) ?? error;
      });
      this.result.bytes = this.received;
      this.log.info(`Bundle saved to ${this.o.target} (${this.received} bytes, its ${kind} read through to its end; ${this.result.requests} request(s), ${this.result.resumes} resume(s), ${this.result.restarts} restart(s), ${this.result.regenerations} new link(s)).`);
      return { ...this.result, kind };
    } catch (error) {
      // The check stops first: nothing reads the file once it is removed.
      await this.check.close();
      await rm(this.temp, { force: true }).catch(() => undefined);
      if (this.o.signal?.aborted) throw new AbortedError();
      if (this.stop.signal.aborted) throw checkError(this.stop.signal.reason);
      throw error instanceof CheckFailure ? checkError(error) : error;
    } finally {
      await this.check.close();
      this.storage.close();
    }
  }

  private abortIfAsked(): void {
    if (this.o.signal?.aborted) throw new AbortedError();
    if (this.stop.signal.aborted) throw checkError(this.stop.signal.reason);
  }

  /** In ranges when the bundle is large and the store answers them; on one stream otherwise. Ends with the archive read through. */
  private async fetch(): Promise<ArchiveKind> {
    const connections = Math.max(1, Math.floor(this.o.connections ?? DEFAULT_CONNECTIONS));
    const size = (await this.links.current()).bundle.sizeBytes;
    if (connections > 1 && size !== undefined && size > 0 && size >= (this.o.parallelFromBytes ?? PARALLEL_FROM_BYTES)) {
      const outcome = await fetchRanges(this.rangeHost(size, connections));
      if (outcome === 'done') {
        this.total = size;
        return this.verified();
      }
      this.log.info(`Bundle download: ${outcome(english)}; starting over on one connection.`);
      this.result.restarts++;
      this.startOver();
    }
    return this.fetchAll();
  }

  /** The file starts over from its first byte, and so does the check. */
  private startOver(): void {
    this.received = 0;
    this.etag = undefined;
    this.cutShort = undefined;
    this.check.restart();
  }

  /** Every byte is on disk: the archive's kind once the check has read it through (it may still be catching up). */
  private async verified(): Promise<ArchiveKind> {
    this.progress.enter('check');
    const lastByte = Date.now();
    const kind = await this.check.finish(this.received);
    this.log.debug(`Bundle download: every byte on disk; the archive check was through ${Date.now() - lastByte} ms later.`);
    this.progress.checkedAll();
    return kind;
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
      signal: this.signal,
      storage: (signal) => this.storageClient(signal),
      link: () => this.links.current(),
      renew: (stale, why) => this.links.renew(stale, why),
      timeLeft: (link) => o.timeLeft(link),
      network: this.network,
      received: (bytes) => {
        [this.total, this.received, this.progress.total, this.progress.received] = [total, bytes, total, bytes];
        this.progress.tell(bytes === total);
      },
      whole: (bytes) => this.check.advance(bytes),
      lend: (at, block, length) => this.check.lend(at, block, length),
      blocks: this.blocks,
      took: (bytes) => this.collections.took(bytes),
    };
  }

  private async fetchAll(): Promise<ArchiveKind> {
    const maxStalled = this.o.maxStalledAttempts ?? 5;
    const sleep = this.o.sleep ?? abortableSleep;
    let stalled = 0;
    for (;;) {
      this.abortIfAsked();
      const before = this.received;
      const link = await this.links.current();
      const step = await this.attempt(link);
      if (step.done) return step.kind;
      this.log.info(`Bundle download: ${step.why(english)}; ${step.next === 'regenerate' ? 'getting a new link' : step.next} at byte ${step.next === 'restart' ? 0 : this.received}.`);
      if (step.next === 'regenerate') {
        await this.links.fresh(step.why);
        continue;
      }
      if (step.next === 'restart') {
        this.result.restarts++;
        this.startOver();
      }
      stalled = this.received > before ? 0 : stalled + 1;
      if (stalled >= maxStalled) {
        throw new BundleDownloadError('network', l10n.t('The bundle download failed {0} times in a row without progress ({1}). Check your connection, then download again.', stalled, step.why(l10n)));
      }
      if (step.next === 'resume') this.result.resumes++;
      await sleep(Math.min(5_000, 250 * 2 ** stalled), this.signal).catch((error: unknown) => {
        this.abortIfAsked();
        throw error;
      });
    }
  }

  /** One GET of what is still missing. */
  private async attempt(link: IssuedLink): Promise<Step<ArchiveKind>> {
    // Fetched, not opened: loopback http: stays allowed here, the storage client's own address rules apply (storage.ts).
    const verdict = checkOpenableLink(link.bundle.bundleUrl, { loopbackHttp: true });
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
      throwIfSettingsProblem(this.network, classifyFailure(error, this.network.routeFor(verdict.url) !== undefined), verdict.url, error);
      return { done: false, next: 'retry', why: (l10n) => l10n.t('the request failed ({0})', describe(error)) };
    }
    const status = res.statusCode;
    if (status === 407) {
      discard(res);
      throwIfSettingsProblem(this.network, { kind: 'proxyAuth' }, verdict.url, undefined);
    }
    if (status === 200 || status === 206) return this.receive(res, link);
    const text = await readSmall(res);
    // Nothing after the last byte: the file is all there is, and the archive was cut short in it.
    if (status === 416 && this.cutShort !== undefined) throw checkError(this.cutShort);
    if (status === 416 && this.total !== undefined && this.received === this.total) return { done: true, kind: await this.verified() };
    if (status === 416) return { done: false, next: 'restart', why: (l10n) => l10n.t('the server refused the byte range') };
    return refusalStep(status, text, this.o.timeLeft(link));
  }

  private async receive(res: StorageResponse, link: IssuedLink): Promise<Step<ArchiveKind>> {
    const promised = link.bundle.sizeBytes;
    const head = bodyHead(res.statusCode, res.headers, this.received, this.etag, promised);
    if (!('start' in head)) {
      discard(res);
      if (head instanceof Error) throw head;
      return head;
    }
    const { start, total } = head;
    if (res.statusCode === 200 && this.received > 0) {
      this.log.info('The storage ignored the Range request and sent the whole bundle: starting over.');
      this.result.restarts++;
      this.startOver();
    }
    this.etag = head.etag ?? this.etag;
    this.total = total ?? promised ?? this.total;
    this.progress.total = this.total;
    await (this.o.ensureRoom ?? ensureRoomForDownload)(dirname(this.o.target), this.total === undefined ? undefined : this.total - start).catch((error: unknown) => {
      discard(res);
      throw error;
    });
    this.progress.restartClock();
    const events: BodyEvents = {
      taken: (bytes) => {
        this.progress.received += bytes;
        this.progress.tell(false);
        this.collections.took(bytes);
      },
      lend: (at, block, length) => this.check.lend(at, block, length),
      written: (end) => this.check.advance(end),
    };
    const failure = await writeBody(res, this.temp, start, events, undefined, this.blocks);
    // The file holds exactly what reached the disk; count from it, not from the stream.
    this.received = await stat(this.temp).then((s) => s.size, () => 0);
    this.progress.received = this.received;
    this.abortIfAsked();
    if (failure !== undefined) {
      const disk = downloadDiskError(failure, dirname(this.o.target));
      if (disk !== undefined) throw disk;
    }
    if (this.total !== undefined && this.received > this.total) {
      throw new BundleDownloadError('size', l10n.t('The storage sent {0} bytes, more than the {1} promised. The bundle was not saved; generate it again.', this.received, this.total));
    }
    const received = this.received;
    if (this.total !== undefined && received < this.total) {
      const total = this.total;
      return {
        done: false,
        next: 'resume',
        why: (l10n) => (failure === undefined ? l10n.t('the connection ended after {0} of {1} bytes', received, total) : l10n.t('the connection dropped after {0} of {1} bytes ({2})', received, total, describe(failure))),
      };
    }
    if (failure !== undefined) return { done: false, next: 'resume', why: (l10n) => l10n.t('the connection dropped after {0} bytes ({1})', received, describe(failure)) };
    return this.endOfBody();
  }

  /**
   * The body ended whole by its framing. With a declared size it is every byte: the check says
   * the rest. Without one, the close is the end only if the archive checks out; cut short, the
   * rest is asked for (a store with nothing more answers 416, and the archive is damaged).
   */
  private async endOfBody(): Promise<Step<ArchiveKind>> {
    try {
      return { done: true, kind: await this.verified() };
    } catch (error) {
      if (this.total !== undefined || !(error instanceof CheckFailure) || !error.truncated) throw error;
      this.cutShort = error;
      this.progress.enter('download');
      this.check.restart();
      this.check.advance(this.received);
      const received = this.received;
      return { done: false, next: 'resume', why: (l10n) => l10n.t('the connection closed after {0} bytes, before the end of the archive', received) };
    }
  }
}

function exists(path: string): Promise<boolean> {
  return access(path).then(() => true, () => false);
}
