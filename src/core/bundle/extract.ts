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
import { archiveKindOf, corruptArchive, notAnArchive, REFUSED, tarEntryKind, UnsafeArchiveError, zipEntryKind, type ArchiveKind } from './archivePaths';
import { ensureRoomForExtraction, extractionDiskError } from './diskSpace';
import { Staging } from './staging';

export { notAnArchive, UnsafeArchiveError, type ArchiveKind, type UnsafeArchiveReason } from './archivePaths';

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

/** The archive's kind by its first bytes (gzip, zip, empty zip), or undefined. */
export async function detectArchiveKind(path: string): Promise<ArchiveKind | undefined> {
  return archiveKindOf(await readHead(path, 4));
}

/** Refusals and cancellation as they are; disk errors (they name a syscall) too; the rest is damage. */
function classify(error: unknown): Error {
  if (error instanceof UnsafeArchiveError || error instanceof AbortedError) return error;
  if (error instanceof Error && 'syscall' in error) return error;
  return corruptArchive(error);
}

/**
 * `promise`, or a rejection as soon as `signal` aborts. Leaves no listener behind: racing a
 * promise that stays pending would keep every chunk ever raced alive.
 */
function unlessHalted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new Error('The extraction was stopped.'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    void promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Room for headers, padding and PAX records in the decompressed tar stream, per entry. */
const TAR_OVERHEAD_PER_ENTRY = 8 * 1024;

function extractTar(archivePath: string, staging: Staging): Promise<void> {
  return new Promise<void>((done, reject) => {
    const source = createReadStream(archivePath, { highWaterMark: 256 * 1024 });
    const gunzip = createGunzip({ chunkSize: 256 * 1024 });
    const parser = new Parser({ strict: true, zstd: false });
    let streamed = 0;
    let atEnd = false;
    let failed = false;
    let chain = Promise.resolve();
    const halt = new AbortController();
    const fail = (error: unknown): void => {
      if (failed) return;
      failed = true;
      halt.abort(error);
      source.destroy();
      gunzip.destroy();
      budget.destroy();
      // Let the file being written close before the caller removes the folder.
      void chain.finally(() => reject(classify(error)));
    };
    /** The entry's bytes, until the extraction fails (the parser is no longer fed then). */
    async function* body(entry: ReadEntry): AsyncGenerator<Buffer> {
      const chunks = entry[Symbol.asyncIterator]();
      for (;;) {
        const next = await unlessHalted(chunks.next(), halt.signal);
        if (next.done === true) return;
        yield next.value;
      }
    }
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
          const admitted = staging.admit(entry.path, tarEntryKind(entry.type), entry.size, entry.linkpath);
          if (admitted?.kind === 'file') await staging.file(admitted.path, entry.path, () => Promise.resolve(body(entry)));
          else {
            if (admitted) await staging.directory(admitted.path, entry.path);
            entry.resume();
          }
          staging.report();
        })
        .catch(fail);
    });
    parser.on('ignoredEntry', (entry: ReadEntry) => {
      staging.entries++;
      fail(new UnsafeArchiveError('unsupported', `The bundle holds an entry that cannot be extracted (${entry.path}, tar type ${entry.type}).${REFUSED}`, entry.path));
    });
    parser.on('eof', () => {
      atEnd = true;
    });
    parser.on('error', (error: unknown) => fail(corruptArchive(error)));
    parser.on('end', () => void chain.then(() => (failed ? undefined : done())));
    source.on('error', fail);
    gunzip.on('error', (error) => fail(corruptArchive(error)));
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
        throw new UnsafeArchiveError('unsupported', `The bundle holds a file that cannot be read (${name}: ${why}).${REFUSED}`, name);
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
  const kind = archiveKindOf(head);
  if (kind === undefined) throw notAnArchive(head);
  if ((await folderState(target)) === 'full' && options.replace !== true) throw new TargetFolderError('notEmpty', target);
  await ensureRoomForExtraction(archivePath, kind, dirname(target));
  const created = await mkdir(dirname(target), { recursive: true });
  const root = sibling(target, 'partial');
  await mkdir(root);
  const staging = new Staging(root, options.maxEntries ?? DEFAULT_MAX_ENTRIES, options.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES, options);
  try {
    await (kind === 'zip' ? extractZip(archivePath, staging) : extractTar(archivePath, staging));
    await staging.drain();
    staging.checkAborted();
    await commit(root, target, options.replace === true);
  } catch (error) {
    // No queued write may land after the folder is gone.
    await staging.drain().catch(() => undefined);
    await rm(root, { recursive: true, force: true });
    if (created !== undefined) await removeEmptyFolders(dirname(target), created);
    throw extractionDiskError(error, dirname(target));
  }
  staging.report();
  return staging.summary(kind);
}
