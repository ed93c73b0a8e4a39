/**
 * Pure checks on the names and kinds of archive entries, before anything touches the disk.
 *
 * A name is read the same way on every platform: `\` counts as a separator (as Windows and
 * many zip tools take it), `.` and empty segments are dropped. What is left must be a plain
 * relative path: no `..` segment anywhere, nothing rooted (`/x`, `\\server\x`, `C:\x`, `C:x`).
 * Names are refused, never repaired: node-tar strips such prefixes silently, we do not.
 */
import { extname } from 'node:path';

export type EntryKind = 'file' | 'directory' | 'link' | 'device' | 'other';

export type CheckedPath =
  /** The entry's path below the root, `/`-separated; '' for the root itself. */
  | { ok: true; path: string }
  | { ok: false; problem: 'traversal' | 'absolute' };

export function checkEntryPath(name: string): CheckedPath {
  const slashed = name.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[a-zA-Z]:/.test(slashed) || name.includes('\0')) return { ok: false, problem: 'absolute' };
  const segments = slashed.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) return { ok: false, problem: 'traversal' };
  return { ok: true, path: segments.join('/') };
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

const S_IFMT = 0o170000;

/**
 * What a zip entry amounts to. The Unix mode sits in the high 16 bits of the external
 * attributes (0xA1FF0000 is a symbolic link); zips made elsewhere leave it 0.
 */
export function zipEntryKind(name: string, externalFileAttributes: number): EntryKind {
  const type = (externalFileAttributes >>> 16) & S_IFMT;
  switch (type) {
    case 0o120000:
      return 'link';
    case 0o020000:
    case 0o060000:
    case 0o010000:
    case 0o140000:
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
