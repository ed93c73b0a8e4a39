/**
 * What an archive and its entries may be, decided before anything touches the disk (no I/O here).
 *
 * A name is read the same way on every platform: `\` counts as a separator (as Windows and
 * many zip tools take it), `.` and empty segments are dropped. What is left must be a plain
 * relative path: no `..` segment anywhere, nothing rooted (`/x`, `\\server\x`, `C:\x`, `C:x`).
 * Names are refused, never repaired: node-tar strips such prefixes silently, we do not.
 * Links of either kind are refused wherever they point, and so are devices and FIFOs. A name
 * Windows keeps for a device (`CON`, `NUL`, `COM1`, `LPT1`..., with or without an extension or
 * a stream, trailing dots and spaces) is refused in any segment, on every platform: on Windows,
 * writing `nul.html` or `nul:x` writes to the device, and a bundle must open the same everywhere.
 * So is any other name Windows does not keep as written: a `:` (an NTFS data stream,
 * `index.html:hidden`, written into `index.html` unseen) and a trailing dot or space (dropped,
 * so `index.html.` would land on `index.html`).
 */
import * as l10n from '@vscode/l10n';
import { extname } from 'node:path';
import { sentences } from '../../l10n';
import { DEFAULT_LIMITS, settingNames, type ExtractLimits, type LimitNames } from './limits';

export type UnsafeArchiveReason =
  | 'traversal'
  | 'absolute'
  | 'link'
  | 'device'
  | 'unsupported'
  | 'conflict'
  | 'tooManyEntries'
  | 'tooLarge'
  | 'compressionRatio'
  | 'reservedName'
  | 'notAnArchive'
  | 'corrupt';

/** A refusal of an entry: the sentence that says which and why, then what to do. */
export function refusedEntry(what: string): string {
  return sentences(what, l10n.t("Nothing was extracted. Regenerate the bundle, or ask the platform's support if it happens again."));
}

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

export type ArchiveKind = 'tar.gz' | 'zip';

/** The kind by the first bytes: gzip (1f 8b), zip (50 4b 03 04, or 50 4b 05 06 when empty). */
export function archiveKindOf(head: Buffer): ArchiveKind | undefined {
  if (head[0] === 0x1f && head[1] === 0x8b) return 'tar.gz';
  if (head[0] === 0x50 && head[1] === 0x4b && ((head[2] === 3 && head[3] === 4) || (head[2] === 5 && head[3] === 6))) return 'zip';
  return undefined;
}

/** The refusal for a file that is no archive, saying what it looks like instead. */
export function notAnArchive(head: Buffer): UnsafeArchiveError {
  const text = head.toString('utf8').replace(/^\uFEFF/, '').trimStart();
  const why =
    head.length === 0
      ? l10n.t('The file is empty, not a tar.gz or zip archive.')
      : text.startsWith('<')
        ? l10n.t('The file is an HTML or XML page, not a tar.gz or zip archive: most likely an error page from the server or an expired link.')
        : l10n.t('The file is not a tar.gz or zip archive.');
  return new UnsafeArchiveError('notAnArchive', sentences(why, l10n.t("Download the bundle again; if it happens again, ask the platform's support.")));
}

export function corruptArchive(error: unknown): UnsafeArchiveError {
  const detail = error instanceof Error ? error.message : String(error);
  return new UnsafeArchiveError('corrupt', l10n.t('The bundle is damaged or incomplete ({0}). Nothing was extracted. Download it again.', detail), undefined, error);
}

export type EntryKind = 'file' | 'directory' | 'link' | 'device' | 'other';

export type CheckedPath =
  /** The entry's path below the root, `/`-separated; '' for the root itself. */
  | { ok: true; path: string }
  | { ok: false; problem: 'traversal' | 'absolute' }
  | { ok: false; problem: 'reservedName'; segment: string; why: WindowsNameProblem };

/** Why Windows would not keep a name as written: a device, a data stream, or a trailing dot or space. */
export type WindowsNameProblem = 'device' | 'stream' | 'trailing';

/**
 * A device name on Windows, whatever follows it: `CON`, `con.html`, `Nul.tar.gz`, `COM1 `,
 * `lpt9...`, `NUL .txt`, `CONIN$`, `nul:x`, `CON:$DATA`. (Windows reads the part before the
 * first dot or colon, spaces and dots at its end dropped; `COM¹`, `COM²`, `COM³` count too.)
 */
export function isWindowsReservedName(segment: string): boolean {
  const stem = segment.split(/[.:]/)[0]?.replace(/[ .]+$/, '') ?? '';
  return /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3]|conin\$|conout\$)$/i.test(stem);
}

/** Why Windows would not keep this segment as written, if it would not. */
function windowsNameProblem(segment: string): WindowsNameProblem | undefined {
  if (isWindowsReservedName(segment)) return 'device';
  if (segment.includes(':')) return 'stream';
  if (/[ .]$/.test(segment)) return 'trailing';
  return undefined;
}

export function checkEntryPath(name: string): CheckedPath {
  const slashed = name.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[a-zA-Z]:/.test(slashed) || name.includes('\0')) return { ok: false, problem: 'absolute' };
  const segments = slashed.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) return { ok: false, problem: 'traversal' };
  for (const segment of segments) {
    const why = windowsNameProblem(segment);
    if (why !== undefined) return { ok: false, problem: 'reservedName', segment, why };
  }
  return { ok: true, path: segments.join('/') };
}

function windowsNameRefusal(name: string, segment: string, why: WindowsNameProblem): string {
  switch (why) {
    case 'device':
      return l10n.t('The bundle holds an entry named like a Windows device ({0}: {1}), which cannot be a file on Windows; it was not extracted.', name, segment);
    case 'stream':
      return l10n.t('The bundle holds an entry with a colon in its name ({0}: {1}), which Windows takes for a hidden data stream of another file; it was not extracted.', name, segment);
    case 'trailing':
      return l10n.t('The bundle holds an entry whose name ends with a dot or a space ({0}: "{1}"), which Windows drops, so it would land on another file; it was not extracted.', name, segment);
  }
}

/** What a tar entry type (node-tar's names) amounts to. */
export function tarEntryKind(type: string): EntryKind {
  switch (type) {
    case 'File':
    case 'OldFile':
    case 'ContiguousFile':
      return 'file';
    case 'Directory':
    case 'GNUDumpDir':
      return 'directory';
    case 'Link':
    case 'SymbolicLink':
      return 'link';
    case 'CharacterDevice':
    case 'BlockDevice':
    case 'FIFO':
      return 'device';
    default:
      return 'other';
  }
}

/**
 * What a zip entry amounts to. The Unix mode sits in the high 16 bits of the external
 * attributes (0xA1FF0000 is a symbolic link); zips made elsewhere leave it 0.
 */
export function zipEntryKind(name: string, externalFileAttributes: number): EntryKind {
  switch ((externalFileAttributes >>> 16) & 0o170000) {
    case 0o120000:
      return 'link';
    case 0o020000: // character device
    case 0o060000: // block device
    case 0o010000: // FIFO
    case 0o140000: // socket
      return 'device';
    case 0o040000:
      return 'directory';
    case 0:
    case 0o100000:
      return name.endsWith('/') || name.endsWith('\\') ? 'directory' : 'file';
    default:
      return 'other';
  }
}

/** A file's extension, lower-cased with its dot ('.html'), or '' when it has none. */
export function extensionOf(path: string): string {
  return extname(path).toLowerCase();
}

export function isPage(path: string): boolean {
  const ext = extensionOf(path);
  return ext === '.html' || ext === '.htm';
}

/**
 * The rules over a whole archive, entry by entry: the kind, the name, the caps on entries and
 * on declared size, a name that is a file in one entry and a folder in another. Keeps what was
 * written, to tell repeated names and to sum up.
 */
export class EntryRules {
  entries = 0;
  private declared = 0;
  private readonly files = new Set<string>();
  private readonly dirs = new Set<string>();
  private readonly duplicates = new Set<string>();

  readonly maxEntries: number;
  readonly maxTotalBytes: number;

  constructor(
    readonly limits: ExtractLimits = DEFAULT_LIMITS,
    /** How messages name the limits: the settings unless given (the CLI gives its flags). */
    readonly names: LimitNames = settingNames(),
  ) {
    this.maxEntries = limits.maxEntries;
    this.maxTotalBytes = limits.maxTotalBytes;
  }

  tooLarge(): UnsafeArchiveError {
    const mb = Math.round(this.maxTotalBytes / 1024 ** 2);
    return new UnsafeArchiveError('tooLarge', l10n.t('The bundle expands to more than {0} MB; nothing was extracted. If the site really is that large, raise {1}.', mb, this.names.maxTotalMegabytes));
  }

  tooManyEntries(): UnsafeArchiveError {
    return new UnsafeArchiveError('tooManyEntries', l10n.t('The bundle holds more than {0} entries; nothing was extracted. If the site really has that many files, raise {1}.', this.maxEntries, this.names.maxEntries));
  }

  /** Checks one entry against every rule; gives its path below the root, or undefined for the root. */
  admit(name: string, kind: EntryKind, declaredSize: number, linkTarget?: string): { path: string; kind: 'file' | 'directory' } | undefined {
    if (++this.entries > this.maxEntries) throw this.tooManyEntries();
    if (kind === 'link') {
      const what = linkTarget
        ? l10n.t('The bundle holds a link ({0} -> {1}); links are never extracted, as they can point outside the folder.', name, linkTarget)
        : l10n.t('The bundle holds a link ({0}); links are never extracted, as they can point outside the folder.', name);
      throw new UnsafeArchiveError('link', refusedEntry(what), name);
    }
    if (kind === 'device') throw new UnsafeArchiveError('device', refusedEntry(l10n.t('The bundle holds a device or FIFO ({0}), which a docs site never needs.', name)), name);
    if (kind === 'other') throw new UnsafeArchiveError('unsupported', refusedEntry(l10n.t('The bundle holds an entry of a kind that cannot be extracted ({0}).', name)), name);
    const checked = checkEntryPath(name);
    if (!checked.ok) {
      const what =
        checked.problem === 'reservedName'
          ? windowsNameRefusal(name, checked.segment, checked.why)
          : checked.problem === 'traversal'
            ? l10n.t('The bundle holds an entry that points outside the folder ({0}); it was not extracted.', name)
            : l10n.t('The bundle holds an entry with an absolute path ({0}); it was not extracted.', name);
      throw new UnsafeArchiveError(checked.problem, refusedEntry(what), name);
    }
    this.declared += kind === 'file' ? declaredSize : 0;
    if (this.declared > this.maxTotalBytes) throw this.tooLarge();
    const path = checked.path;
    if (path === '') {
      if (kind === 'file') throw new UnsafeArchiveError('traversal', refusedEntry(l10n.t('The bundle holds a file named like the folder itself ({0}).', name)), name);
      return undefined;
    }
    const parts = path.split('/');
    for (let i = 1; i <= parts.length; i++) {
      const prefix = parts.slice(0, i).join('/');
      const last = i === parts.length;
      if ((last && kind === 'file') ? this.dirs.has(prefix) : this.files.has(prefix)) {
        throw new UnsafeArchiveError('conflict', refusedEntry(l10n.t('The bundle holds both a file and a folder named {0}.', prefix)), name);
      }
      if (!last || kind === 'directory') this.dirs.add(prefix);
    }
    return { path, kind };
  }

  /** Notes a file written (again, if the name came before: the last one wins). */
  wrote(path: string): void {
    if (this.files.has(path)) this.duplicates.add(path);
    this.files.add(path);
  }

  contents(): { files: number; pages: number; types: Record<string, number>; duplicates: string[] } {
    const types: Record<string, number> = {};
    let pages = 0;
    for (const path of this.files) {
      const ext = extensionOf(path);
      types[ext] = (types[ext] ?? 0) + 1;
      if (isPage(path)) pages++;
    }
    return { files: this.files.size, pages, types, duplicates: [...this.duplicates] };
  }
}
