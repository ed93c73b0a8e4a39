/**
 * A bundle on one connection, from its first byte or from where a dropped one stopped: a
 * dropped connection resumes with `Range` (and `If-Range`, so a bundle that changed restarts);
 * a link that expired meanwhile is regenerated; a server that ignores `Range` restarts the file
 * cleanly; a body that ends without a declared size is the end only if the archive checks out.
 * Each body's blocks go to the temporary file and, lent, to the archive check (bodyFile.ts).
 */
import * as l10n from '@vscode/l10n';
import { stat } from 'node:fs/promises';
import { english } from '../../l10n';
import type { Logger } from '../../log';
import type { Network } from '../../net/network';
import { downloadDiskError } from '../diskSpace';
import type { ArchiveKind } from '../extract/archivePaths';
import { CheckFailure, checkError, type CheckThread } from '../extract/checkThread';
import type { IssuedLink } from '../links/linkCache';
import { bodyHead, describe, refusalStep, type Step } from './answers';
import type { BlockPool, Collections } from './blocks';
import { writeBody, type BodyEvents } from './bodyFile';
import { requestBundle } from './bundleRequest';
import { BundleDownloadError } from './downloadErrors';
import type { ProgressReport } from './downloadProgress';
import type { LinkSupply } from './linkSupply';
import { discard, readSmall, type StorageClient } from './objectStore';
import type { StorageResponse } from './response';

/** What the one connection needs of the download it belongs to. */
export interface StreamHost {
  temp: string;
  /** The target's folder (for disk-space checks and disk errors). */
  dir: string;
  /** Counted into the download's result. */
  counts: { requests: number; resumes: number; restarts: number };
  log: Logger;
  maxStalled: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  ensureRoom: (dir: string, bytes: number | undefined) => Promise<void>;
  signal: AbortSignal;
  storage: StorageClient;
  network: Network;
  links: LinkSupply;
  timeLeft(link: IssuedLink): number | undefined;
  progress: ProgressReport;
  collections: Collections;
  blocks: BlockPool;
  check: CheckThread;
  /** Throws when the user cancelled or the check failed. */
  abortIfAsked(): void;
  /** Every byte is on disk: the archive's kind once the check has read `received` bytes through. */
  verified(received: number): Promise<ArchiveKind>;
}

export class SingleStream {
  /** Bytes on disk, from the file's first. */
  received = 0;
  private total: number | undefined;
  private etag: string | undefined;
  /** Without a declared size: the check found the archive cut short where the connection closed. */
  private cutShort: CheckFailure | undefined;

  constructor(private readonly host: StreamHost) {}

  /** Until the whole file is on disk and its archive read through, or an error no retry mends. */
  async fetch(): Promise<ArchiveKind> {
    const { host } = this;
    let stalled = 0;
    for (;;) {
      host.abortIfAsked();
      const before = this.received;
      const link = await host.links.current();
      const step = await this.attempt(link);
      if (step.done) return step.kind;
      host.log.info(`Bundle download: ${step.why(english)}; ${step.next === 'regenerate' ? 'getting a new link' : step.next} at byte ${step.next === 'restart' ? 0 : this.received}.`);
      if (step.next === 'regenerate') {
        await host.links.fresh(step.why);
        continue;
      }
      if (step.next === 'restart') {
        host.counts.restarts++;
        this.startOver();
      }
      stalled = this.received > before ? 0 : stalled + 1;
      if (stalled >= host.maxStalled) {
        throw new BundleDownloadError('network', l10n.t('The bundle download failed {0} times in a row without progress ({1}). Check your connection, then download again.', stalled, step.why(l10n)));
      }
      if (step.next === 'resume') host.counts.resumes++;
      await host.sleep(Math.min(5_000, 250 * 2 ** stalled), host.signal).catch((error: unknown) => {
        host.abortIfAsked();
        throw error;
      });
    }
  }

  /** The file starts over from its first byte, and so does the check. */
  private startOver(): void {
    this.received = 0;
    this.etag = undefined;
    this.cutShort = undefined;
    this.host.check.restart();
  }

  /** One GET of what is still missing. */
  private async attempt(link: IssuedLink): Promise<Step<ArchiveKind>> {
    const { host } = this;
    const res = await requestBundle({
      link,
      range: this.received > 0 ? `bytes=${this.received}-` : undefined,
      etag: this.etag,
      storage: host.storage,
      network: host.network,
      counts: host.counts,
      stopIfAsked: () => host.abortIfAsked(),
    });
    if ('done' in res) return res;
    const status = res.statusCode;
    if (status === 200 || status === 206) return this.receive(res, link);
    const text = await readSmall(res);
    // Nothing after the last byte: the file is all there is, and the archive was cut short in it.
    if (status === 416 && this.cutShort !== undefined) throw checkError(this.cutShort);
    if (status === 416 && this.total !== undefined && this.received === this.total) return { done: true, kind: await host.verified(this.received) };
    if (status === 416) return { done: false, next: 'restart', why: (l10n) => l10n.t('the server refused the byte range') };
    return refusalStep(status, text, host.timeLeft(link));
  }

  private async receive(res: StorageResponse, link: IssuedLink): Promise<Step<ArchiveKind>> {
    const { host } = this;
    const promised = link.bundle.sizeBytes;
    const head = bodyHead(res.statusCode, res.headers, this.received, this.etag, promised);
    if (!('start' in head)) {
      discard(res);
      if (head instanceof Error) throw head;
      return head;
    }
    const { start, total } = head;
    if (res.statusCode === 200 && this.received > 0) {
      host.log.info('The storage ignored the Range request and sent the whole bundle: starting over.');
      host.counts.restarts++;
      this.startOver();
    }
    this.etag = head.etag ?? this.etag;
    this.total = total ?? promised ?? this.total;
    host.progress.total = this.total;
    await host.ensureRoom(host.dir, this.total === undefined ? undefined : this.total - start).catch((error: unknown) => {
      discard(res);
      throw error;
    });
    host.progress.restartClock();
    const events: BodyEvents = {
      taken: (bytes) => {
        host.progress.received += bytes;
        host.progress.tell(false);
        host.collections.took(bytes);
      },
      lend: (at, block, length) => host.check.lend(at, block, length),
      written: (end) => host.check.advance(end),
    };
    const failure = await writeBody(res, host.temp, start, events, undefined, host.blocks);
    // The file holds exactly what reached the disk; count from it, not from the stream.
    this.received = await stat(host.temp).then((s) => s.size, () => 0);
    host.progress.received = this.received;
    host.abortIfAsked();
    if (failure !== undefined) {
      const disk = downloadDiskError(failure, host.dir);
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
    const { host } = this;
    try {
      return { done: true, kind: await host.verified(this.received) };
    } catch (error) {
      if (this.total !== undefined || !(error instanceof CheckFailure) || !error.truncated) throw error;
      this.cutShort = error;
      host.progress.enter('download');
      host.check.restart();
      host.check.advance(this.received);
      const received = this.received;
      return { done: false, next: 'resume', why: (l10n) => l10n.t('the connection closed after {0} bytes, before the end of the archive', received) };
    }
  }
}
