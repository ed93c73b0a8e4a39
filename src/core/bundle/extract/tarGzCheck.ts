/**
 * A tar.gz read through to its end, as its bytes come, without writing anything: every gzip
 * member inflated to its end, so that each member's trailer (CRC-32 of the content, and its
 * length) is checked by zlib, and the tar stream parsed by node-tar up to its end-of-archive
 * marker (two zero blocks), every header's checksum checked. What follows that marker is padding
 * and is not parsed. Runs on the archive worker (checkTask.ts).
 */
import * as l10n from '@vscode/l10n';
import { createGunzip, type Gunzip } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';

/** Why a tar.gz did not check out. `truncated`: its bytes stop before the end (more may come). */
export class TarGzFault extends Error {
  constructor(
    readonly detail: string,
    readonly truncated: boolean,
  ) {
    super(detail);
    this.name = 'TarGzFault';
  }
}

/** Inflated bytes per chunk handed to the parser: one thread-pool round trip each. */
const CHUNK = 1024 * 1024;

export class TarGzCheck {
  private readonly gunzip: Gunzip;
  private readonly parser = new Parser({ strict: true, zstd: false });
  private atEnd = false;
  private fault: TarGzFault | undefined;
  /** Writes not yet taken: a failure settles them (zlib may never call back the one it failed on). */
  private readonly waiting = new Set<(fault: TarGzFault) => void>();
  private readonly finished: Promise<void>;

  constructor() {
    this.gunzip = createGunzip({ chunkSize: CHUNK });
    const { gunzip, parser } = this;
    parser.on('entry', (entry: ReadEntry) => entry.resume());
    parser.on('eof', () => (this.atEnd = true));
    parser.on('error', (error: unknown) => this.fail(new TarGzFault(message(error), false)));
    gunzip.on('data', (chunk: Buffer) => {
      if (this.fault === undefined && !this.atEnd) parser.write(chunk);
    });
    gunzip.on('error', (error: NodeJS.ErrnoException) => this.fail(new TarGzFault(message(error), error.code === 'Z_BUF_ERROR')));
    this.finished = new Promise<void>((resolve, reject) => {
      gunzip.once('end', () => {
        if (this.fault !== undefined) return reject(this.fault);
        if (!this.atEnd) return reject(new TarGzFault(l10n.t('the tar archive inside ends before its end-of-archive marker'), false));
        resolve();
      });
      gunzip.once('close', () => {
        if (this.fault !== undefined) reject(this.fault);
      });
    });
    // Settled through `end()`; never an unhandled rejection before.
    this.finished.catch(() => undefined);
  }

  /** Why it failed, as soon as it did (undefined while all is well). */
  get failure(): TarGzFault | undefined {
    return this.fault;
  }

  /** The next bytes, in order; resolves once gunzip has taken them (the buffer may then be reused). */
  write(chunk: Buffer): Promise<void> {
    if (this.fault !== undefined) return Promise.reject(this.fault);
    return new Promise((resolve, reject) => {
      this.waiting.add(reject);
      this.gunzip.write(chunk, (error) => {
        this.waiting.delete(reject);
        if (error === null || error === undefined) resolve();
        else reject(this.fault ?? new TarGzFault(message(error), false));
      });
    });
  }

  /** No more bytes: resolves when the archive checked out to its end, rejects with a `TarGzFault`. */
  end(): Promise<void> {
    if (this.fault !== undefined) return Promise.reject(this.fault);
    this.gunzip.end();
    return this.finished;
  }

  destroy(): void {
    this.gunzip.destroy();
  }

  private fail(fault: TarGzFault): void {
    this.fault ??= fault;
    this.gunzip.destroy();
    for (const reject of this.waiting) reject(this.fault);
    this.waiting.clear();
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
