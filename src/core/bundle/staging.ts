/**
 * The staging folder of one extraction: the entry rules (from archivePaths), plus the disk.
 * Folders are made once; a small file (the most of a docs site) is gathered and written in one
 * call, with up to WRITES_IN_FLIGHT such writes under way while the archive is read on; a large
 * file streams in blocks. Memory stays bounded either way.
 */
import { writeFile as writeFileCallback } from 'node:fs';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AbortedError } from '../api/errors';
import { EntryRules, REFUSED, UnsafeArchiveError, type ArchiveKind } from './archivePaths';
import type { ExtractOptions, ExtractSummary } from './extract';

/** One small file in one call (the callback API: much less overhead per file than fs/promises). */
function writeWhole(path: string, content: Buffer): Promise<void> {
  return new Promise((resolve, reject) => writeFileCallback(path, content, (error) => (error === null ? resolve() : reject(error))));
}

/** Bytes of one file gathered before a write: small files go in one call. */
const FILE_BLOCK = 256 * 1024;
const WRITES_IN_FLIGHT = 64;

/** The staging folder of one extraction: the rules, plus the disk. */
export class Staging extends EntryRules {
  bytes = 0;
  private reported = 0;

  constructor(
    readonly root: string,
    maxEntries: number,
    maxTotalBytes: number,
    private readonly options: ExtractOptions,
  ) {
    super(maxEntries, maxTotalBytes);
  }

  get aborted(): boolean {
    return this.options.signal?.aborted === true;
  }

  checkAborted(): void {
    if (this.aborted) throw new AbortedError();
  }

  override admit(...args: Parameters<EntryRules['admit']>): ReturnType<EntryRules['admit']> {
    this.checkAborted();
    return super.admit(...args);
  }

  async directory(path: string, name: string): Promise<void> {
    await this.fs(name, () => this.ensureDir(join(this.root, path)));
  }

  /** Small files being written, at most WRITES_IN_FLIGHT: the disk works while the archive is read. */
  private readonly writes = new Map<string, Promise<void>>();
  private writeError: Error | undefined;

  /** Queues a small file's write; a second copy of a name waits for the first (the last wins). */
  private async writeLater(target: string, name: string, content: Buffer): Promise<void> {
    if (this.writeError !== undefined) throw this.writeError;
    while (this.writes.size >= WRITES_IN_FLIGHT) await Promise.race(this.writes.values());
    const before = this.writes.get(target) ?? Promise.resolve();
    const write: Promise<void> = before
      .then(() => this.fs(name, () => writeWhole(target, content)))
      .catch((error: unknown) => {
        this.writeError ??= error instanceof Error ? error : new Error(String(error));
      })
      .finally(() => {
        if (this.writes.get(target) === write) this.writes.delete(target);
      });
    this.writes.set(target, write);
  }

  /** Waits for every queued write; throws the first one's error. */
  async drain(): Promise<void> {
    while (this.writes.size > 0) await Promise.all(this.writes.values());
    if (this.writeError !== undefined) throw this.writeError;
  }

  /** Folders already made under the root: each is made once, not once per file. */
  private readonly made = new Set<string>();

  private async ensureDir(dir: string): Promise<void> {
    if (this.made.has(dir)) return;
    await mkdir(dir, { recursive: true });
    for (let at = dir; at.length >= this.root.length && !this.made.has(at); at = dirname(at)) this.made.add(at);
  }

  /**
   * Streams one file to disk, counting its bytes against the cap as they come. A small file
   * (the most of a docs site) is gathered and written in one call; a large one streams in
   * blocks, so memory stays bounded either way.
   */
  async file(path: string, name: string, openSource: () => Promise<AsyncIterable<Buffer>>): Promise<void> {
    const target = join(this.root, path);
    await this.fs(name, async () => {
      await this.ensureDir(dirname(target));
      let pending: Buffer[] = [];
      let size = 0;
      let handle: FileHandle | undefined;
      try {
        for await (const chunk of await openSource()) {
          this.checkAborted();
          this.bytes += chunk.length;
          if (this.bytes > this.maxTotalBytes) throw this.tooLarge();
          pending.push(chunk);
          size += chunk.length;
          if (size >= FILE_BLOCK) {
            handle ??= await open(target, 'w');
            await handle.write(Buffer.concat(pending, size));
            pending = [];
            size = 0;
          }
          if (this.bytes - this.reported >= 4 * 1024 ** 2) this.report();
        }
        const rest = pending.length === 1 ? (pending[0] ?? Buffer.alloc(0)) : Buffer.concat(pending, size);
        if (handle === undefined) await this.writeLater(target, name, rest);
        else if (rest.length > 0) await handle.write(rest);
      } finally {
        await handle?.close();
      }
    });
    this.wrote(path);
  }

  private async fs(name: string, work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (error) {
      // A case-insensitive disk can see a clash the names did not show.
      const code = (error as { code?: unknown } | null)?.code;
      if (code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR') throw new UnsafeArchiveError('conflict', `The bundle holds names that clash on this disk (${name}).${REFUSED}`, name, error);
      throw error;
    }
  }

  report(): void {
    this.reported = this.bytes;
    this.options.onProgress?.({ entries: this.entries, bytes: this.bytes });
  }

  summary(kind: ArchiveKind): ExtractSummary {
    return { kind, entries: this.entries, bytes: this.bytes, ...this.contents() };
  }
}
