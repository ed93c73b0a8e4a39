/**
 * Extracts a bundle (tar.gz or zip) into a folder, refusing anything that could write outside
 * it or fill the disk. Archives are streamed, never held in memory, on a worker thread of their
 * own (extractThread.ts), so that the extension host's thread stays free.
 *
 * Everything goes first into a fresh folder beside the target (`.<name>.partial-<random>`),
 * which is renamed into place only when the whole archive passed; on any refusal, damage or
 * cancellation it is removed and the target is left as it was. Entries are refused, never
 * repaired: `..` segments, rooted names, Windows device names, links of either kind, devices
 * and FIFOs. Caps on the entry count and on the expanded size hold against what headers declare
 * and against the bytes actually written, so a bomb whose headers lie stops at the cap; a
 * compression ratio past the limit stops it after 64 MiB, whatever the caps (limits.ts); the
 * free space is watched as the files are written. File modes and times are not kept: a docs
 * site needs neither. A name found twice is written twice: the last one wins.
 */
import * as l10n from '@vscode/l10n';
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, open, opendir, rename, rm, rmdir } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { L10nBundle } from '../../l10n';
import { archiveKindOf, notAnArchive, type ArchiveKind } from './archivePaths';
import { DEFAULT_LIMITS, type LimitNames } from './limits';
import { extractOnThread } from './extractThread';
import { ensureRoomForExtraction, extractionDiskError } from '../diskSpace';
import { AbortedError } from '../../abort';


/** The target folder cannot take the bundle as things stand. */
export class TargetFolderError extends Error {
  constructor(readonly reason: 'notEmpty' | 'notAFolder', readonly targetDir: string) {
    super(
      reason === 'notEmpty'
        ? l10n.t('The folder {0} already holds files. Choose an empty folder, or agree to replace its contents.', targetDir)
        : l10n.t('{0} exists and is not a folder. Choose another place to extract the bundle.', targetDir),
    );
    this.name = 'TargetFolderError';
  }
}

export interface ExtractProgress {
  entries: number;
  bytes: number;
}

export interface ExtractOptions {
  /** Setting `docsAdmin.extract.maxEntries`; the default of limits.ts unless given (as are the others). */
  maxEntries?: number | undefined;
  /** Setting `docsAdmin.extract.maxTotalMegabytes`, in bytes. */
  maxTotalBytes?: number | undefined;
  /** Setting `docsAdmin.extract.maxCompressionRatio`: bytes out per compressed byte in. */
  maxRatio?: number | undefined;
  /** Setting `docsAdmin.extract.ratioCheckAfterMegabytes`, in bytes: output allowed before the ratio counts. */
  ratioAfterBytes?: number | undefined;
  /** How messages name the limits (the CLI names its flags); the settings unless given. */
  limitNames?: LimitNames | undefined;
  /** Replace a non-empty target (the user agreed); the old contents go only after success. */
  replace?: boolean | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: ExtractProgress) => void) | undefined;
  /** The worker thread's script; `extractWorker.js` beside this module unless given (tests give others). */
  workerScript?: string | undefined;
  /**
   * The translated strings of the display language (`vscode.l10n.bundle`), for the messages the
   * worker thread builds (it has a module state of its own); English when undefined.
   */
  l10n?: L10nBundle | undefined;
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

/** Built beside this module: dist/extractWorker.js next to dist/extension.js, out/src/core/bundle/extract/ in tests. */
const WORKER_SCRIPT = join(__dirname, 'extractWorker.js');

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
  let summary: ExtractSummary;
  try {
    summary = await extractOnThread(
      options.workerScript ?? WORKER_SCRIPT,
      {
        kind,
        archivePath,
        root,
        limits: {
          maxEntries: options.maxEntries ?? DEFAULT_LIMITS.maxEntries,
          maxTotalBytes: options.maxTotalBytes ?? DEFAULT_LIMITS.maxTotalBytes,
          maxRatio: options.maxRatio ?? DEFAULT_LIMITS.maxRatio,
          ratioAfterBytes: options.ratioAfterBytes ?? DEFAULT_LIMITS.ratioAfterBytes,
        },
        names: options.limitNames,
        l10n: options.l10n,
      },
      { signal: options.signal, onProgress: (entries, bytes) => options.onProgress?.({ entries, bytes }) },
    );
    if (options.signal?.aborted) throw new AbortedError();
    await commit(root, target, options.replace === true);
  } catch (error) {
    // The worker has ended by now: nothing more can land in the folder.
    await rm(root, { recursive: true, force: true, maxRetries: 3 });
    if (created !== undefined) await removeEmptyFolders(dirname(target), created);
    throw extractionDiskError(error, dirname(target));
  }
  options.onProgress?.({ entries: summary.entries, bytes: summary.bytes });
  return summary;
}
