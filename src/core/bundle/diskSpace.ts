/**
 * Room on the disk for a bundle, checked before anything is written and, for an extraction,
 * again as it writes; a full disk met while writing turned into a message that says what to do.
 *
 * Up front: a download knows its size (`sizeBytes`, `Content-Length`), a zip declares every
 * entry's expanded size in its central directory, and a tar.gz carries its expanded size in the
 * gzip trailer (ISIZE: modulo 4 GiB, and only the last member's, so it is used as a hint, never
 * trusted to let anything through, and not at all for an archive of 4 GiB or more, or when it
 * is smaller than the archive itself, as when a 4 GiB bomb's wraps round to a few bytes). An
 * extraction then keeps up as it writes (`DiskWatch`): it stops while a small reserve is still
 * free, so the disk is never filled, whatever the archive said. A download that lies ends in
 * ENOSPC, which the callers turn into the same kind of message and clean up after (no temporary
 * file, no staging folder, the target untouched).
 */
import * as l10n from '@vscode/l10n';
import { statfsSync } from 'node:fs';
import { open, statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ArchiveKind } from './extract/archivePaths';
import { BundleDownloadError } from './download/downloadErrors';
import { formatBytes } from '../formatUnits';

/** The disk cannot take the bundle; nothing of it was left there. */
export class DiskSpaceError extends Error {
  constructor(
    message: string,
    readonly dir: string,
    readonly needed: number | undefined,
    readonly free: number | undefined,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'DiskSpaceError';
  }
}

/** Bytes an unprivileged writer may still use on the disk holding `path` (or its nearest existing parent); undefined when the system does not say. */
export async function freeBytes(path: string): Promise<number | undefined> {
  for (let at = path; ; at = dirname(at)) {
    try {
      const s = await statfs(at);
      return s.bavail * s.bsize;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'ENOENT' || dirname(at) === at) return undefined;
    }
  }
}

const SPACE_CODES = new Set(['ENOSPC', 'EDQUOT']);

/**
 * A download of `bytes` more into `dir`: refused before writing when the disk says it has less.
 * `undefined` (size unknown) passes: the write itself is then the check.
 */
export async function ensureRoomForDownload(dir: string, bytes: number | undefined): Promise<void> {
  if (bytes === undefined || bytes <= 0) return;
  const free = await freeBytes(dir);
  if (free === undefined || free >= bytes) return;
  throw new BundleDownloadError('disk', l10n.t('The bundle is {0}, but only {1} is free in {2}. Free some space or choose another folder, then download again. Nothing was saved.', formatBytes(bytes), formatBytes(free), dir));
}

/** The expanded size an archive declares, or undefined when it does not say (or says something implausible). */
export async function declaredExpandedSize(archivePath: string, kind: ArchiveKind): Promise<number | undefined> {
  return kind === 'zip' ? zipDeclaredSize(archivePath) : gzipTrailerSize(archivePath);
}

/**
 * ISIZE, the gzip trailer's expanded size, except where it can mean anything: for an archive of
 * 4 GiB or more (ISIZE counts modulo 4 GiB), when it is smaller than the archive (a tar.gz
 * expands; a 4 GiB bomb's ISIZE wraps round to its few bytes past 4 GiB), when deflate could not
 * reach it (1032:1 at most, as a cut-short file's last bytes would say).
 */
async function gzipTrailerSize(path: string): Promise<number | undefined> {
  const file = await open(path, 'r');
  try {
    const { size: length } = await file.stat();
    if (length < 18 || length >= 2 ** 32) return undefined;
    const { buffer } = await file.read(Buffer.alloc(4), 0, 4, length - 4);
    const isize = buffer.readUInt32LE(0);
    return isize >= length && isize <= length * 1032 ? isize : undefined;
  } finally {
    await file.close();
  }
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
/** A central directory larger than this is not read up front (the write itself is then the check). */
const MAX_CENTRAL_DIRECTORY = 64 * 1024 * 1024;

/**
 * The sum of the expanded sizes the central directory declares, read in one go. (yauzl reads it
 * entry by entry, about 70 µs each: 1.4 s for 20,000 entries, as long again as the extraction's
 * own pass; one field per record is all this needs.) Undefined for ZIP64 and anything unusual:
 * the extractor decides about those.
 */
async function zipDeclaredSize(path: string): Promise<number | undefined> {
  const file = await open(path, 'r');
  try {
    const { size: length } = await file.stat();
    const tail = Math.min(length, 22 + 65_535);
    const { buffer: end } = await file.read(Buffer.alloc(tail), 0, tail, length - tail);
    let at = -1;
    for (let i = tail - 22; i >= 0; i--) {
      if (end.readUInt32LE(i) === EOCD) {
        at = i;
        break;
      }
    }
    if (at < 0) return undefined;
    const entries = end.readUInt16LE(at + 10);
    const cdSize = end.readUInt32LE(at + 12);
    const cdOffset = end.readUInt32LE(at + 16);
    if (entries === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff || cdSize > MAX_CENTRAL_DIRECTORY || cdOffset + cdSize > length) return undefined;
    const { buffer: cd } = await file.read(Buffer.alloc(cdSize), 0, cdSize, cdOffset);
    let total = 0;
    for (let p = 0, n = 0; n < entries; n++) {
      if (p + 46 > cd.length || cd.readUInt32LE(p) !== CENTRAL) return undefined;
      const expanded = cd.readUInt32LE(p + 24);
      if (expanded === 0xffffffff) return undefined;
      total += expanded;
      p += 46 + cd.readUInt16LE(p + 28) + cd.readUInt16LE(p + 30) + cd.readUInt16LE(p + 32);
    }
    return total;
  } finally {
    await file.close();
  }
}

/**
 * An extraction into `dir`: refused before anything is written when the archive declares more
 * than the disk has free. Where it does not say, the write itself is the check.
 */
export async function ensureRoomForExtraction(archivePath: string, kind: ArchiveKind, dir: string): Promise<void> {
  const free = await freeBytes(dir);
  if (free === undefined) return;
  const declared = await declaredExpandedSize(archivePath, kind);
  if (declared === undefined || declared <= free) return;
  throw new DiskSpaceError(
    l10n.t('The bundle expands to about {0}, but only {1} is free in {2}. Free some space or extract it somewhere else. Nothing was extracted.', formatBytes(declared), formatBytes(free), dir),
    dir,
    declared,
    free,
  );
}

/** What an extraction leaves free on a disk of `total` bytes: 2 % of it, at most 64 MiB. */
export function diskReserve(total: number): number {
  return Math.min(64 * 1024 ** 2, Math.floor(total * 0.02));
}

/** Free and total bytes of the disk holding `dir`, now; undefined when the system does not say. */
export type DiskStat = (dir: string) => { free: number; total: number } | undefined;

const statNow: DiskStat = (dir) => {
  try {
    const s = statfsSync(dir);
    return { free: s.bavail * s.bsize, total: s.blocks * s.bsize };
  } catch {
    return undefined;
  }
};

/** At most this many bytes are written between two looks at the disk. */
const LOOK_EVERY = 16 * 1024 ** 2;

/**
 * The disk as an extraction writes (on its worker thread, so synchronously): before each write
 * `take(bytes)`; it looks at the free space every 16 MiB, and more often as the free space
 * nears the reserve, and refuses the write that would go into it. Other programs write too: a
 * disk filled by them still ends in ENOSPC (`extractionDiskError`).
 */
export class DiskWatch {
  private budget = 0;

  constructor(
    /** Where the files go (the staging folder). */
    private readonly root: string,
    /** The folder the message names (the target's parent). */
    private readonly dir: string,
    private readonly stat: DiskStat = statNow,
  ) {}

  take(bytes: number): void {
    if (bytes <= this.budget) {
      this.budget -= bytes;
      return;
    }
    const disk = this.stat(this.root);
    if (disk === undefined) {
      this.budget = Infinity;
      return;
    }
    const reserve = diskReserve(disk.total);
    const room = disk.free - reserve;
    if (bytes > room) {
      throw new DiskSpaceError(
        l10n.t('The extraction stopped before the disk was full: only {0} was still free in {1}, and {2} is kept free. Free some space or extract it somewhere else. Nothing was extracted, and the folder was left as it was.', formatBytes(Math.max(0, disk.free)), this.dir, formatBytes(reserve)),
        this.dir,
        undefined,
        disk.free,
      );
    }
    this.budget = Math.min(LOOK_EVERY, Math.floor((room - bytes) / 2));
  }
}

/** A full disk (or quota) met while extracting, said so; anything else is returned as it is. */
export function extractionDiskError(error: unknown, dir: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !SPACE_CODES.has(code)) return error;
  const message =
    code === 'EDQUOT'
      ? l10n.t('The disk quota ran out in {0} while the bundle was being extracted. Free some space or extract it somewhere else. Nothing was extracted, and the folder was left as it was.', dir)
      : l10n.t('The disk ran out of space in {0} while the bundle was being extracted. Free some space or extract it somewhere else. Nothing was extracted, and the folder was left as it was.', dir);
  return new DiskSpaceError(message, dir, undefined, undefined, error);
}

/** A full disk, a quota, a read-only disk or a refused write met while downloading, said so; undefined for anything else. */
export function downloadDiskError(error: unknown, where: string): BundleDownloadError | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  const text = (): string | undefined => {
    switch (code) {
      case 'ENOSPC':
        return l10n.t('There is not enough free disk space for the bundle in {0}. Free some space or choose another folder, then download again.', where);
      case 'EDQUOT':
        return l10n.t('The disk quota is used up in {0}. Free some space or choose another folder, then download again.', where);
      case 'EACCES':
        return l10n.t('The bundle cannot be written in {0} (permission denied). Choose another folder.', where);
      case 'EPERM':
        return l10n.t('The bundle cannot be written in {0} (operation not permitted). Choose another folder.', where);
      case 'EROFS':
        return l10n.t('{0} is on a read-only disk. Choose another folder.', where);
      default:
        return undefined;
    }
  };
  const message = text();
  return message === undefined ? undefined : new BundleDownloadError('disk', message, { cause: error });
}
