/**
 * The staging folder of one extraction: the entry rules (from archivePaths), plus the disk.
 *
 * It writes synchronously, and so belongs on the extraction's own worker thread
 * (extractWorker.ts), never on the extension host's: there a blocking call holds up nobody, and
 * it saves each of 20,000 small files the promise and thread-pool round trips of an
 * asynchronous write. Folders are made once; one file is open at a time, and each chunk goes to
 * it as it comes, so memory stays flat whatever the file's size.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import * as l10n from '@vscode/l10n';
import { EntryRules, refusedEntry, UnsafeArchiveError, type ArchiveKind } from './archivePaths';
import type { ExtractLimits, LimitNames } from './limits';
import { RatioCount } from './ratioGuard';
import { DiskWatch } from '../diskSpace';
import { AbortedError } from '../../abort';

export interface StagingHooks {
  /** Read before every entry and every chunk: the extraction stops soon after it turns true. */
  aborted(): boolean;
  /** After every entry and every chunk: the counts so far (throttle on the receiving side). */
  progress(entries: number, bytes: number): void;
  /** The disk as it fills (a real look at the disk unless given). */
  disk?: DiskWatch | undefined;
}

/** A file's share of a disk block and its metadata, counted against the free space when it is created. */
const PER_FILE = 4096;

/** What a finished extraction found, as `ExtractSummary` reports it. */
export interface StagedContents {
  kind: ArchiveKind;
  entries: number;
  bytes: number;
  files: number;
  pages: number;
  types: Record<string, number>;
  duplicates: string[];
}

/** One file being written: its chunks in order, then `close()`. */
export interface StagedFile {
  write(chunk: Buffer): void;
  close(): void;
}

/** A case-insensitive disk can see a clash the names did not show. */
function clashOrRethrow(error: unknown, name: string): never {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR') throw new UnsafeArchiveError('conflict', refusedEntry(l10n.t('The bundle holds names that clash on this disk ({0}).', name)), name, error);
  throw error;
}

export class Staging extends EntryRules {
  bytes = 0;
  /** Bytes inflated from the whole archive against compressed bytes consumed (the readers add to it). */
  readonly inflated: RatioCount;
  private readonly disk: DiskWatch;
  /** The file being written, closed by `release()` if the extraction stops halfway through it. */
  private openFd: number | undefined;
  /** Folders already made under the root: each is made once, not once per file. */
  private readonly made = new Set<string>();

  constructor(
    readonly root: string,
    limits: ExtractLimits,
    names: LimitNames | undefined,
    private readonly hooks: StagingHooks,
  ) {
    super(limits, names);
    this.inflated = new RatioCount(this.limits, this.names);
    this.disk = hooks.disk ?? new DiskWatch(root, dirname(root));
  }

  /**
   * `path` joined to the root, which it must stay inside once resolved (the rules already saw
   * to that: this is the second lock, on the path as the disk will take it).
   */
  private inside(path: string, name: string): string {
    const target = join(this.root, path);
    const below = relative(this.root, target);
    if (below === '' || below === '..' || below.startsWith(`..${sep}`) || isAbsolute(below)) {
      throw new UnsafeArchiveError('traversal', refusedEntry(l10n.t('The bundle holds an entry that points outside the folder ({0}); it was not extracted.', name)), name);
    }
    return target;
  }

  checkAborted(): void {
    if (this.hooks.aborted()) throw new AbortedError();
  }

  override admit(...args: Parameters<EntryRules['admit']>): ReturnType<EntryRules['admit']> {
    this.checkAborted();
    return super.admit(...args);
  }

  directory(path: string, name: string): void {
    const dir = this.inside(path, name);
    try {
      this.ensureDir(dir);
    } catch (error) {
      clashOrRethrow(error, name);
    }
    this.hooks.progress(this.entries, this.bytes);
  }

  private ensureDir(dir: string): void {
    if (this.made.has(dir)) return;
    mkdirSync(dir, { recursive: true });
    for (let at = dir; at.length >= this.root.length && !this.made.has(at); at = dirname(at)) this.made.add(at);
  }

  /**
   * Creates (or empties: a repeated name's last copy wins) the file at `path` below the root.
   * Every byte written counts against the cap as it comes, whatever the header declared, and
   * against the compression ratio: `compressed()` says how many compressed bytes this entry has
   * consumed so far.
   */
  file(path: string, name: string, compressed: () => number): StagedFile {
    const target = this.inside(path, name);
    const ratio = new RatioCount(this.limits, this.names, name);
    this.disk.take(PER_FILE);
    let fd: number;
    try {
      this.ensureDir(dirname(target));
      fd = openSync(target, 'w');
    } catch (error) {
      clashOrRethrow(error, name);
    }
    this.openFd = fd;
    return {
      write: (chunk) => {
        this.checkAborted();
        ratio.add(chunk.length, compressed());
        if (this.bytes + chunk.length > this.maxTotalBytes) throw this.tooLarge();
        this.disk.take(chunk.length);
        this.bytes += chunk.length;
        for (let done = 0; done < chunk.length; ) done += writeSync(fd, chunk, done, chunk.length - done);
        this.hooks.progress(this.entries, this.bytes);
      },
      close: () => {
        if (this.openFd !== fd) return;
        this.openFd = undefined;
        closeSync(fd);
        this.wrote(path);
        this.hooks.progress(this.entries, this.bytes);
      },
    };
  }

  /** Closes a file left open by a failure, so that the folder can be removed (Windows). */
  release(): void {
    if (this.openFd === undefined) return;
    const fd = this.openFd;
    this.openFd = undefined;
    try {
      closeSync(fd);
    } catch {
      // Already gone; the folder is removed next anyway.
    }
  }

  summary(kind: ArchiveKind): StagedContents {
    return { kind, entries: this.entries, bytes: this.bytes, ...this.contents() };
  }
}
