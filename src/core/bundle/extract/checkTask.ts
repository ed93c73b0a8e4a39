/**
 * The archive worker's check (started by checkThread.ts): it follows a file as it is written,
 * from its start as far as the other side says the bytes are on disk, and reads the archive
 * through: a tar.gz as the bytes come (tarGzCheck.ts), a zip once the file is complete
 * (zipCheck.ts: its directory is at its end). Anything else is refused from its first bytes.
 * One message at the end: the archive's kind, or why it failed (and whether its bytes only
 * stopped early).
 *
 * The bytes come from the blocks the download lends (each given back as soon as gunzip has
 * taken it), and from the file for what was not lent (the ranges after the first, a file on
 * disk): read in two 1 MiB buffers in turn, one read while gunzip takes the other.
 */
import * as l10n from '@vscode/l10n';
import { open, type FileHandle } from 'node:fs/promises';
import { sentences } from '../../l10n';
import { archiveKindOf, notAnArchive, UnsafeArchiveError, type ArchiveKind } from './archivePaths';
import type { CheckCommand, CheckJob, CheckMessage, CheckSubject } from './checkThread';
import { sendable } from './extractThread';
import { TarGzCheck, TarGzFault } from './tarGzCheck';
import { ZipFault } from './zipFault';

const READ = 1024 * 1024;
/** How much is checked between two calls of `collect` (see `FileCheck`). */
const COLLECT_EVERY = 2 * 1024 * 1024;
/** At most one progress message per this many milliseconds. */
const PROGRESS_EVERY_MS = 100;

/** The message a failed check gives, by whose bytes they were. */
function damaged(detail: string, subject: CheckSubject): UnsafeArchiveError {
  return new UnsafeArchiveError(
    'corrupt',
    subject === 'download'
      ? sentences(l10n.t('The downloaded bundle is damaged or incomplete ({0}): its bytes are not the archive the export made.', detail), l10n.t('Nothing was saved. Download it again; if it happens again, the stored bundle itself is damaged: start a new export.'))
      : sentences(l10n.t('The bundle file is damaged or incomplete ({0}).', detail), l10n.t('Copy it again from where it was made, or download it again.')),
  );
}

function unsupported(detail: string): UnsafeArchiveError {
  return new UnsafeArchiveError('unsupported', l10n.t('The bundle holds a file that cannot be read ({0}).', detail));
}

/** A lent block: the file's bytes from `at` (the view), and how it goes back. */
interface Lent {
  at: number;
  view: Buffer;
  block: ArrayBuffer;
  id: number;
}

export class FileCheck {
  private generation: number;
  /** Where the next read starts; how far the file is known to be whole; where it ends, once known. */
  private pos = 0;
  private known = 0;
  private end: number | undefined;
  private kind: ArchiveKind | undefined;
  private tar: TarGzCheck | undefined;
  private over = false;
  private busy = false;
  private file: FileHandle | undefined;
  private readonly buffers = [Buffer.allocUnsafe(READ), Buffer.allocUnsafe(READ)];
  private turn = 0;
  private reported = 0;
  private sinceCollect = 0;
  /** Lent blocks not yet read, in the file's order. */
  private lent: Lent[] = [];

  /**
   * `collect`, when given, is called every 2 MiB checked: a minor garbage collection (the CLI's),
   * so that the buffers zlib allocates for each inflated chunk are freed as they die rather than
   * when V8 counts 64 MB of them (DownloadOptions.collectGarbage). `send` moves the buffers in
   * `transfer` with the message.
   */
  constructor(
    private readonly job: CheckJob,
    private readonly send: (message: CheckMessage, transfer?: ArrayBuffer[]) => void,
    private readonly collect?: () => void,
  ) {
    this.generation = job.generation;
  }

  heard(command: CheckCommand): void {
    if (command.type === 'stop') {
      this.over = true;
      this.tar?.destroy();
      this.giveBackAll();
      if (!this.busy) this.closeFile();
      return;
    }
    if (command.type === 'restart') {
      this.tar?.destroy();
      this.giveBackAll();
      Object.assign(this, { generation: command.generation, pos: 0, known: 0, end: undefined, kind: undefined, tar: undefined, over: false });
    } else if (command.type === 'bytes') {
      const lent = { at: command.at, view: Buffer.from(command.block, 0, command.length), block: command.block, id: command.id };
      // Not needed (the check is over, or has read past them): back at once.
      if (this.over || this.aborted() || command.at + command.length <= this.pos) return this.giveBack(lent);
      this.lent.push(lent);
      this.known = Math.max(this.known, command.at + command.length);
    } else {
      this.known = Math.max(this.known, command.bytes);
      if (command.type === 'finish') this.end = command.bytes;
    }
    void this.pump();
  }

  private aborted(): boolean {
    return Atomics.load(this.job.abort, 0) !== 0;
  }

  /** Reads on while there is something to read; leaves when it must wait for the other side. */
  private async pump(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    const generation = this.generation;
    const current = () => generation === this.generation && !this.over && !this.aborted();
    let pending: Promise<void> = Promise.resolve();
    try {
      this.file ??= await open(this.job.path, 'r');
      while (current()) {
        if (this.kind === undefined && !(await this.sniff())) break;
        if (this.kind === 'zip') {
          // Its directory is at its end: the whole file is read then.
          this.giveBackAll();
          if (this.end === undefined) break;
          // The zip reader is loaded for a zip only.
          const { checkZip } = await import('./zipCheck.js');
          await checkZip(this.job.path, () => !current());
          if (current()) this.done('zip');
          break;
        }
        const tar = (this.tar ??= new TarGzCheck());
        if (this.pos < this.known) {
          const next = this.nextLent();
          if (next !== undefined && next.at <= this.pos) {
            // A lent block at the front: gunzip takes it where it is, and it goes back once taken.
            this.lent.shift();
            await pending;
            if (!current()) {
              this.giveBack(next);
              break;
            }
            const written = tar.write(next.view.subarray(this.pos - next.at));
            pending = written;
            void written.then(
              () => this.giveBack(next),
              () => this.giveBack(next),
            );
            this.advanced(next.at + next.view.length - this.pos);
            continue;
          }
          // Not lent: from the file, up to the next lent block.
          const until = Math.min(this.known, next?.at ?? this.known, this.pos + READ);
          const buffer = this.buffers[this.turn++ % 2] ?? Buffer.allocUnsafe(READ);
          const { bytesRead } = await this.file.read(buffer, 0, until - this.pos, this.pos);
          if (!current()) break;
          if (bytesRead === 0) throw new Error(l10n.t('the file is shorter than the {0} bytes written to it', this.known));
          await pending;
          pending = tar.write(buffer.subarray(0, bytesRead));
          this.advanced(bytesRead);
          continue;
        }
        await pending;
        if (!current()) break;
        // More may have become known while gunzip took the last chunk.
        if (this.pos < this.known) continue;
        if (this.end === undefined || this.pos < this.end) break;
        await tar.end();
        if (current()) this.done('tar.gz');
        break;
      }
    } catch (error) {
      if (generation === this.generation && !this.over) this.fail(error);
    } finally {
      // A write still under way settles on its own; its failure is the check's (seen at `end`).
      pending.catch(() => undefined);
      this.busy = false;
      // Stopped (a cancel, a failed download): on this thread nobody ends a worker to close the file.
      if (this.aborted() || this.over) this.closeFile();
    }
    // A command that came while this one was leaving.
    if (!this.over && generation !== this.generation) void this.pump();
  }

  /** `bytes` more handed to gunzip: progress, and now and then a collection. */
  private advanced(bytes: number): void {
    this.pos += bytes;
    this.sinceCollect += bytes;
    if (this.collect !== undefined && this.sinceCollect >= COLLECT_EVERY) {
      this.sinceCollect = 0;
      this.collect();
    }
    this.progress();
  }

  /** The first lent block that is not all behind the check (those are given back). */
  private nextLent(): Lent | undefined {
    for (;;) {
      const first = this.lent[0];
      if (first === undefined || first.at + first.view.length > this.pos) return first;
      this.lent.shift();
      this.giveBack(first);
    }
  }

  private giveBack(lent: Lent): void {
    this.send({ type: 'returned', id: lent.id, block: lent.block }, [lent.block]);
  }

  private giveBackAll(): void {
    const lent = this.lent;
    this.lent = [];
    for (const one of lent) this.giveBack(one);
  }

  /** Decides the kind from the first 512 bytes (or all, when fewer); false while they are not on disk yet. */
  private async sniff(): Promise<boolean> {
    if (this.known < 512 && this.end === undefined) return false;
    const head = Buffer.alloc(Math.min(512, this.known));
    const { bytesRead } = await (this.file as FileHandle).read(head, 0, head.length, 0);
    const kind = archiveKindOf(head.subarray(0, bytesRead));
    if (kind === undefined) throw notAnArchive(head.subarray(0, bytesRead));
    this.kind = kind;
    return true;
  }

  private closeFile(): void {
    void this.file?.close().catch(() => undefined);
    this.file = undefined;
  }

  private progress(): void {
    const now = performance.now();
    if (now - this.reported < PROGRESS_EVERY_MS) return;
    this.reported = now;
    this.send({ type: 'progress', bytes: this.pos, generation: this.generation });
  }

  private done(kind: ArchiveKind): void {
    this.over = true;
    this.giveBackAll();
    this.closeFile();
    this.send({ type: 'checked', kind, bytes: this.end ?? this.pos, generation: this.generation });
  }

  private fail(error: unknown): void {
    this.over = true;
    this.tar?.destroy();
    this.giveBackAll();
    this.closeFile();
    const { subject } = this.job;
    const truncated = (error instanceof TarGzFault || error instanceof ZipFault) && error.truncated;
    const told =
      error instanceof TarGzFault || (error instanceof ZipFault && !error.unsupported)
        ? damaged(error.detail, subject)
        : error instanceof ZipFault
          ? unsupported(error.detail)
          : error instanceof Error
            ? error
            : new Error(String(error));
    this.send({ type: 'failed', error: sendable(told), truncated, generation: this.generation });
  }
}
