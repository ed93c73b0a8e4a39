/**
 * Where Download Bundle's save dialog starts: the folder the last download went to, while it is
 * still there; else the person's Downloads folder, else their home. Never the workspace: a bundle
 * saved there lands in the repository, where git shows it as a new file. And the file types the
 * dialog offers: a dialog appends the first type to a name whose last extension is none of them
 * (VS Code's simple file dialog, the one a web or remote window uses, compares the part after the
 * last dot), so `tar.gz` there would make `name.tar.gz.tar.gz`; `gz` matches it, `tgz` is what a
 * bare name gets. Pure (the disk is asked through `isFolder`).
 */
import { join } from 'node:path';

export const BUNDLE_FILE_TYPES: readonly string[] = ['tgz', 'gz', 'zip'];

export function downloadFolder(options: { last: string | undefined; home: string; isFolder: (path: string) => boolean }): string {
  if (options.last !== undefined && options.last !== '' && options.isFolder(options.last)) return options.last;
  const downloads = join(options.home, 'Downloads');
  return options.isFolder(downloads) ? downloads : options.home;
}

/** The name a save dialog would end with once it added its type: the name itself when one of `types` is its last extension. */
export function nameAfterFilter(name: string, types: readonly string[]): string {
  const dot = name.lastIndexOf('.');
  const last = dot < 0 ? '' : name.slice(dot + 1);
  return types.includes('*') || types.includes(last) ? name : `${name}.${types[0] ?? ''}`;
}
