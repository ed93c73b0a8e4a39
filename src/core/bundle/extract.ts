/**
 * Extracts a bundle (tar.gz or zip) into a folder, refusing anything that could write outside
 * it or fill the disk. Archives are streamed, never held in memory.
 *
 * Everything goes first into a fresh folder beside the target (`.<name>.partial-<random>`),
 * which is renamed into place only when the whole archive passed; on any refusal, damage or
 * cancellation it is removed and the target is left as it was. Entries are refused, never
 * repaired: `..` segments, rooted names, links of either kind, devices and FIFOs. Caps on the
 * entry count and on the expanded size hold against what headers declare and against the bytes
 * actually written, so a bomb whose headers lie stops at the cap. File modes and times are not
 * kept: a docs site needs neither. A name found twice is written twice: the last one wins.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, mkdir, open, opendir, rename, rm, rmdir } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';
import * as yauzl from 'yauzl';
import { AbortedError } from '../api/errors';
import { checkEntryPath, extensionOf, isPage, tarEntryKind, zipEntryKind, type EntryKind } from './archivePaths';

export type ArchiveKind = 'tar.gz' | 'zip';

export type UnsafeArchiveReason =
  | 'traversal'
  | 'absolute'
  | 'link'
  | 'device'
  | 'unsupported'
  | 'conflict'
  | 'tooManyEntries'
  | 'tooLarge'
  | 'notAnArchive'
  | 'corrupt';

const AFTER = ' Nothing was extracted. Regenerate the bundle, or ask the platform\'s support if it happens again.';

/** The bundle was refused; nothing of it was left on disk. */
export class UnsafeArchiveError extends Error {
  constructor(
    readonly reason: UnsafeArchiveReason,
    message: string,
    /** The offending entry's name, as the archive spells it. */
    readonly entry?: string,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'UnsafeArchiveError';
  }
}

/** The target folder cannot take the bundle as things stand. */
export class TargetFolderError extends Error {
  constructor(readonly reason: 'notEmpty' | 'notAFolder', readonly targetDir: string) {
    super(
      reason === 'notEmpty'
        ? `The folder ${targetDir} already holds files. Choose an empty folder, or agree to replace its contents.`
        : `${targetDir} exists and is not a folder. Choose another place to extract the bundle.`,
    );
    this.name = 'TargetFolderError';
  }
}

export interface ExtractProgress {
  entries: number;
  bytes: number;
}

export interface ExtractOptions {
  /** Setting `docsAdmin.extract.maxEntries`; 100,000 unless given. */
  maxEntries?: number | undefined;
  /** Setting `docsAdmin.extract.maxTotalMegabytes`, in bytes; 2 GiB unless given. */
  maxTotalBytes?: number | undefined;
  /** Replace a non-empty target (the user agreed); the old contents go only after success. */
  replace?: boolean | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: ExtractProgress) => void) | undefined;
}

export interface ExtractSummary {
  kind: ArchiveKind;
  /** Entries in the archive: files, folders and repeated names. */
  entries: number;
  /** Distinct files on disk. */
  files: number;
  /** Bytes written (a repeated name counts each time). */
  bytes: number;
  /** Distinct .html/.htm files. */
  pages: number;
  /** Distinct files by lower-cased extension with its dot ('.html'); '' for none. */
  types: Record<string, number>;
  /** Names that came more than once, in order of first repeat; the last copy was kept. */
  duplicates: string[];
}

export const DEFAULT_MAX_ENTRIES = 100_000;
export const DEFAULT_MAX_TOTAL_BYTES = 2 * 1024 ** 3;

/** The first `length` bytes of a file (fewer when it is shorter). */
export async function readHead(path: string, length: number): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(length), 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

function kindOf(head: Buffer): ArchiveKind | undefined {
  if (head[0] === 0x1f && head[1] === 0x8b) return 'tar.gz';
  if (head[0] === 0x50 && head[1] === 0x4b && ((head[2] === 3 && head[3] === 4) || (head[2] === 5 && head[3] === 6))) return 'zip';
  return undefined;
}

/** The archive's kind by its first bytes (gzip, zip, empty zip), or undefined. */
export async function detectArchiveKind(path: string): Promise<ArchiveKind | undefined> {
  return kindOf(await readHead(path, 4));
}

/** The refusal for a file that is no archive, saying what it looks like instead. */
export function notAnArchive(head: Buffer): UnsafeArchiveError {
  const text = head.toString('utf8').replace(/^\uFEFF/, '').trimStart();
  const why =
    head.length === 0
      ? 'The file is empty, not a tar.gz or zip archive.'
      : text.startsWith('<')
        ? 'The file is an HTML or XML page, not a tar.gz or zip archive: most likely an error page from the server or an expired link.'
        : 'The file is not a tar.gz or zip archive.';
  return new UnsafeArchiveError('notAnArchive', `${why} Download the bundle again; if it happens again, ask the platform's support.`);
}

function corrupt(error: unknown): UnsafeArchiveError {
  const detail = error instanceof Error ? error.message : String(error);
  return new UnsafeArchiveError('corrupt', `The bundle is damaged or incomplete (${detail}). Nothing was extracted. Download it again.`, undefined, error);
}

/** Refusals and cancellation as they are; disk errors (they name a syscall) too; the rest is damage. */
function classify(error: unknown): Error {
  if (error instanceof UnsafeArchiveError || error instanceof AbortedError) return error;
  if (error instanceof Error && 'syscall' in error) return error;
  return corrupt(error);
}

function isFsConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR';
}

/** The staging folder and the bookkeeping of one extraction. */
class Staging {
  entries = 0;
  bytes = 0;
  private declared = 0;
  private reported = 0;
  private readonly files = new Set<string>();
  private readonly dirs = new Set<string>();
  private readonly duplicates = new Set<string>();

  constructor(
    readonly root: string,
    readonly maxEntries: number,
    readonly maxTotalBytes: number,
    private readonly options: ExtractOptions,
  ) {}

  get aborted(): boolean {
    return this.options.signal?.aborted === true;
  }

  checkAborted(): void {
    if (this.aborted) throw new AbortedError();
  }

  tooLarge(): UnsafeArchiveError {
    const mb = Math.round(this.maxTotalBytes / 1024 ** 2);
    return new UnsafeArchiveError('tooLarge', `The bundle expands to more than ${mb} MB; nothing was extracted. If the site really is that large, raise the setting docsAdmin.extract.maxTotalMegabytes.`);
  }

  tooManyEntries(): UnsafeArchiveError {
    return new UnsafeArchiveError('tooManyEntries', `The bundle holds more than ${this.maxEntries} entries; nothing was extracted. If the site really has that many files, raise the setting docsAdmin.extract.maxEntries.`);
  }

  /** Checks one entry against every rule; gives its path below the root, or undefined for the root. */
  admit(name: string, kind: EntryKind, declaredSize: number, linkTarget?: string): { path: string; kind: 'file' | 'directory' } | undefined {
    this.checkAborted();
    if (++this.entries > this.maxEntries) throw this.tooManyEntries();
    if (kind === 'link') {
      throw new UnsafeArchiveError('link', `The bundle holds a link (${name}${linkTarget ? ` -> ${linkTarget}` : ''}); links are never extracted, as they can point outside the folder.${AFTER}`, name);
    }
    if (kind === 'device') throw new UnsafeArchiveError('device', `The bundle holds a device or FIFO (${name}), which a docs site never needs.${AFTER}`, name);
    if (kind === 'other') throw new UnsafeArchiveError('unsupported', `The bundle holds an entry of a kind that cannot be extracted (${name}).${AFTER}`, name);
    const checked = checkEntryPath(name);
    if (!checked.ok) {
      const what = checked.problem === 'traversal' ? 'an entry that points outside the folder' : 'an entry with an absolute path';
      throw new UnsafeArchiveError(checked.problem, `The bundle holds ${what} (${name}); it was not extracted.${AFTER}`, name);
    }
    this.declared += kind === 'file' ? declaredSize : 0;
    if (this.declared > this.maxTotalBytes) throw this.tooLarge();
    const path = checked.path;
    if (path === '') {
      if (kind === 'file') throw new UnsafeArchiveError('traversal', `The bundle holds a file named like the folder itself (${name}).${AFTER}`, name);
      return undefined;
    }
    const parts = path.split('/');
    for (let i = 1; i <= parts.length; i++) {
      const prefix = parts.slice(0, i).join('/');
      const clash = i < parts.length ? this.files.has(prefix) : kind === 'file' ? this.dirs.has(prefix) : this.files.has(prefix);
      if (clash) throw new UnsafeArchiveError('conflict', `The bundle holds both a file and a folder named ${prefix}.${AFTER}`, name);
      if (i < parts.length || kind === 'directory') this.dirs.add(prefix);
    }
    return { path, kind };
  }

  async directory(path: string, name: string): Promise<void> {
    await this.fs(name, () => mkdir(join(this.root, path), { recursive: true }));
  }

  /** Streams one file to disk, counting its bytes against the cap as they come. */
  async file(path: string, name: string, openSource: () => Promise<AsyncIterable<Buffer>>): Promise<void> {
    const target = join(this.root, path);
    await this.fs(name, async () => {
      await mkdir(dirname(target), { recursive: true });
      const handle = await open(target, 'w');
      try {
        for await (const chunk of await openSource()) {
          this.checkAborted();
          this.bytes += chunk.length;
          if (this.bytes > this.maxTotalBytes) throw this.tooLarge();
          await handle.write(chunk);
          if (this.bytes - this.reported >= 4 * 1024 ** 2) this.report();
        }
      } finally {
        await handle.close();
      }
    });
    if (this.files.has(path)) this.duplicates.add(path);
    this.files.add(path);
  }

  private async fs(name: string, work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (error) {
      // A case-insensitive disk can see a clash the names did not show.
      if (isFsConflict(error)) throw new UnsafeArchiveError('conflict', `The bundle holds names that clash on this disk (${name}).${AFTER}`, name, error);
      throw error;
    }
  }

  report(): void {
    this.reported = this.bytes;
    this.options.onProgress?.({ entries: this.entries, bytes: this.bytes });
  }

  summary(kind: ArchiveKind): ExtractSummary {
    const types: Record<string, number> = {};
    let pages = 0;
    for (const path of this.files) {
      const ext = extensionOf(path);
      types[ext] = (types[ext] ?? 0) + 1;
      if (isPage(path)) pages++;
    }
    return { kind, entries: this.entries, files: this.files.size, bytes: this.bytes, pages, types, duplicates: [...this.duplicates] };
  }
}

/** Room for headers, padding and PAX records in the decompressed tar stream, per entry. */
const TAR_OVERHEAD_PER_ENTRY = 8 * 1024;

function extractTar(archivePath: string, staging: Staging): Promise<void> {
  return new Promise<void>((done, reject) => {
    const source = createReadStream(archivePath);
    const gunzip = createGunzip();
    const parser = new Parser({ strict: true, zstd: false });
    let streamed = 0;
    let atEnd = false;
    let failed = false;
    let current: ReadEntry | undefined;
    let chain = Promise.resolve();
    const fail = (error: unknown): void => {
      if (failed) return;
      failed = true;
      source.destroy();
      gunzip.destroy();
      current?.destroy();
      // Let the file being written close before the caller removes the folder.
      void chain.finally(() => reject(classify(error)));
    };
    // Bounds the whole decompressed stream, whatever its headers say; drops the padding after the end.
    const budget = new Transform({
      transform(chunk: Buffer, _encoding, next) {
        streamed += chunk.length;
        if (staging.aborted) return next(new AbortedError());
        if (streamed > staging.maxTotalBytes + (staging.entries + 1) * TAR_OVERHEAD_PER_ENTRY + 2 * 1024 ** 2) return next(staging.tooLarge());
        next(null, atEnd ? undefined : chunk);
      },
    });
    parser.on('entry', (entry: ReadEntry) => {
      chain = chain
        .then(async () => {
          if (failed) return;
          current = entry;
          const admitted = staging.admit(entry.path, tarEntryKind(entry.type), entry.size, entry.linkpath);
          if (admitted?.kind === 'file') await staging.file(admitted.path, entry.path, () => Promise.resolve(entry));
          else {
            if (admitted) await staging.directory(admitted.path, entry.path);
            entry.resume();
          }
          current = undefined;
          staging.report();
        })
        .catch(fail);
    });
    parser.on('ignoredEntry', (entry: ReadEntry) => {
      staging.entries++;
      fail(new UnsafeArchiveError('unsupported', `The bundle holds an entry that cannot be extracted (${entry.path}, tar type ${entry.type}).${AFTER}`, entry.path));
    });
    parser.on('eof', () => {
      atEnd = true;
    });
    parser.on('error', (error: unknown) => fail(corrupt(error)));
    parser.on('end', () => void chain.then(() => (failed ? undefined : done())));
    source.on('error', fail);
    gunzip.on('error', (error) => fail(corrupt(error)));
    budget.on('error', fail);
    source.pipe(gunzip).pipe(budget).pipe(parser);
  });
}

async function extractZip(archivePath: string, staging: Staging): Promise<void> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(archivePath, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true });
  } catch (error) {
    throw classify(error);
  }
  try {
    if (zip.entryCount > staging.maxEntries) throw staging.tooManyEntries();
    for await (const entry of zip.eachEntry()) {
      // Our own reading of the name: backslashes kept, so that the checks see them.
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
      const admitted = staging.admit(name, zipEntryKind(name, entry.externalFileAttributes), entry.uncompressedSize);
      if (admitted?.kind === 'directory') await staging.directory(admitted.path, name);
      if (admitted?.kind !== 'file') continue;
      if (!entry.canDecodeFileData()) {
        const why = entry.isEncrypted() ? 'it is encrypted' : `compression method ${entry.compressionMethod}`;
        throw new UnsafeArchiveError('unsupported', `The bundle holds a file that cannot be read (${name}: ${why}).${AFTER}`, name);
      }
      // Opened only once the file is ready to take the bytes: yauzl's stream can fail before it is read.
      let stream: Readable | undefined;
      try {
        await staging.file(admitted.path, name, async () => (stream = await zip.openReadStreamPromise(entry)) as AsyncIterable<Buffer>);
      } finally {
        stream?.destroy();
      }
      staging.report();
    }
  } catch (error) {
    throw classify(error);
  } finally {
    zip.close();
  }
}

type FolderState = 'missing' | 'empty' | 'full';

async function folderState(dir: string): Promise<FolderState> {
  let isDirectory: boolean;
  try {
    isDirectory = (await lstat(dir)).isDirectory();
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return 'missing';
    throw error;
  }
  if (!isDirectory) throw new TargetFolderError('notAFolder', dir);
  const listing = await opendir(dir);
  try {
    return (await listing.read()) === null ? 'empty' : 'full';
  } finally {
    await listing.close();
  }
}

function sibling(target: string, tag: string): string {
  return join(dirname(target), `.${basename(target)}.${tag}-${randomBytes(6).toString('hex')}`);
}

/** Puts the staged folder at the target; an old one is moved aside first and removed last. */
async function commit(staged: string, target: string, replace: boolean): Promise<void> {
  const state = await folderState(target);
  if (state === 'full' && !replace) throw new TargetFolderError('notEmpty', target);
  if (state === 'empty') await rmdir(target);
  if (state !== 'full') return rename(staged, target);
  const old = sibling(target, 'old');
  await rename(target, old);
  try {
    await rename(staged, target);
  } catch (error) {
    await rename(old, target);
    throw error;
  }
  await rm(old, { recursive: true, force: true });
}

/** Removes the folders this extraction created above the target, if still empty. */
async function removeEmptyFolders(from: string, top: string): Promise<void> {
  for (let dir = from; ; dir = dirname(dir)) {
    try {
      await rmdir(dir);
    } catch {
      return;
    }
    if (dir === top || dirname(dir) === dir) return;
  }
}

/**
 * Extracts `archivePath` into `targetDir` (created if missing). A non-empty target is refused
 * with `TargetFolderError` unless `replace`. Refusals throw `UnsafeArchiveError`, cancellation
 * `AbortedError`; either way nothing is left behind and the target is untouched.
 */
export async function extractBundle(archivePath: string, targetDir: string, options: ExtractOptions = {}): Promise<ExtractSummary> {
  const target = resolve(targetDir);
  if (options.signal?.aborted) throw new AbortedError();
  const head = await readHead(archivePath, 512);
  const kind = kindOf(head);
  if (kind === undefined) throw notAnArchive(head);
  if ((await folderState(target)) === 'full' && options.replace !== true) throw new TargetFolderError('notEmpty', target);
  const created = await mkdir(dirname(target), { recursive: true });
  const root = sibling(target, 'partial');
  await mkdir(root);
  const staging = new Staging(root, options.maxEntries ?? DEFAULT_MAX_ENTRIES, options.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES, options);
  try {
    await (kind === 'zip' ? extractZip(archivePath, staging) : extractTar(archivePath, staging));
    staging.checkAborted();
    await commit(root, target, options.replace === true);
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    if (created !== undefined) await removeEmptyFolders(dirname(target), created);
    throw error;
  }
  staging.report();
  return staging.summary(kind);
}
