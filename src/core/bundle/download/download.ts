/**
 * A verified, resumable bundle download. Bytes stream to a temporary file beside the target and
 * are renamed into place only when the whole file came and its content is proven: its size is
 * the one declared (`sizeBytes`, `Content-Length`, `Content-Range`), and the archive was read
 * through to its end (checkThread.ts: every gzip member's CRC-32 and length, the tar's
 * end-of-archive marker; a zip's directory and every entry's CRC-32) on the check's own thread,
 * fed the very blocks that reach the disk (lent, not copied: blocks.ts), as they reach it.
 * Without a declared size, a connection that closes is the end only if the archive checks out. Never a partial or unproven file at the target, and an existing file is
 * replaced only when the caller says the user agreed.
 *
 * On one connection (`singleStream.ts`), a dropped connection resumes with `Range`; a link that
 * expired meanwhile is regenerated and the download resumes; a server that ignores `Range`
 * restarts the file cleanly. A large bundle comes in several byte ranges at once (`ranged.ts`). No `Authorization` header ever goes to the
 * link's host. Cancelling at any point removes the temporary file.
 */
import * as l10n from '@vscode/l10n';
import { randomBytes } from 'node:crypto';
import { access, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { abortableSleep, AbortedError } from '../../abort';
import { english } from '../../l10n';
import type { Logger } from '../../log';
import { silentLogger } from '../../log';
import { downloadDiskError, ensureRoomForDownload } from '../diskSpace';
import type { ArchiveKind } from '../extract/archivePaths';
import { CheckFailure, checkError, CheckThread } from '../extract/checkThread';
import { BundleDownloadError } from './downloadErrors';
import type { IssuedLink } from '../links/linkCache';
import { LinkSupply } from './linkSupply';
import { directNetwork, type Network } from '../../net/network';
import { fetchRanges, type RangeHost } from './ranged';
import { BlockPool, Collections } from './blocks';
import { ProgressReport } from './downloadProgress';
import { StorageClient } from './objectStore';
import { SingleStream } from './singleStream';
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
  /** Bytes on disk (the ranges' or the one connection's). */
  private received = 0;
  private readonly links: LinkSupply;
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
        return this.verified(this.received);
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
    this.check.restart();
  }

  /** Every byte is on disk: the archive's kind once the check has read it through (it may still be catching up). */
  private async verified(received: number): Promise<ArchiveKind> {
    this.progress.enter('check');
    const lastByte = Date.now();
    const kind = await this.check.finish(received);
    this.log.debug(`Bundle download: every byte on disk; the archive check was through ${Date.now() - lastByte} ms later.`);
    this.progress.checkedAll();
    return kind;
  }

  /** What the ranges and the one connection both need: the file, the counts, the retry rules. */
  private shared() {
    const { o } = this;
    return {
      temp: this.temp,
      dir: dirname(o.target),
      counts: this.result,
      log: this.log,
      maxStalled: o.maxStalledAttempts ?? 5,
      sleep: o.sleep ?? abortableSleep,
      ensureRoom: o.ensureRoom ?? ensureRoomForDownload,
      signal: this.signal,
      network: this.network,
      timeLeft: (link: IssuedLink) => o.timeLeft(link),
      blocks: this.blocks,
    };
  }

  private rangeHost(total: number, connections: number): RangeHost {
    return {
      ...this.shared(),
      total,
      connections,
      storage: (signal) => this.storageClient(signal),
      link: () => this.links.current(),
      renew: (stale, why) => this.links.renew(stale, why),
      received: (bytes) => {
        [this.received, this.progress.total, this.progress.received] = [bytes, total, bytes];
        this.progress.tell(bytes === total);
      },
      whole: (bytes) => this.check.advance(bytes),
      lend: (at, block, length) => this.check.lend(at, block, length),
      took: (bytes) => this.collections.took(bytes),
    };
  }

  /** One connection, from the first byte (singleStream.ts). */
  private async fetchAll(): Promise<ArchiveKind> {
    const stream = new SingleStream({
      ...this.shared(),
      storage: this.storage,
      links: this.links,
      progress: this.progress,
      collections: this.collections,
      check: this.check,
      abortIfAsked: () => this.abortIfAsked(),
      verified: (received) => this.verified(received),
    });
    try {
      return await stream.fetch();
    } finally {
      this.received = stream.received;
    }
  }
}

function exists(path: string): Promise<boolean> {
  return access(path).then(() => true, () => false);
}
