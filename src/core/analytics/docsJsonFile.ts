/**
 * A `docs.json` read from disk, as the docs-root scan and the MCP reader-signals tool read it:
 * by its real path (a symbolic link is followed), only when that is inside the folder it must be
 * in, only a regular file (a FIFO or a device such as `/dev/zero` behind the name would make a
 * read that never ends), and at most `MAX_DOCS_JSON_BYTES`. The file is opened without waiting
 * (`O_NONBLOCK`: a FIFO opens at once) and checked on the open handle, so a name swapped between a
 * check and the read changes nothing. Says why it was refused, never what the file holds.
 */
import * as l10n from '@vscode/l10n';
import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { isAbsolute, relative } from 'node:path';

/** Larger than any site's configuration (the platform's own are a few KB). */
export const MAX_DOCS_JSON_BYTES = 4 * 1024 * 1024;

export type DocsJsonRead = { ok: true; text: string } | { ok: false; missing: boolean; reason: string };

function inside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Reads `path` (named `shown` in a reason). `within`: the folder its real path must be inside
 * (a real path, too). `missing` says there is no such file at all (not a refusal).
 */
export async function readDocsJsonFile(path: string, shown: string, within?: string): Promise<DocsJsonRead> {
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    return { ok: false, missing: true, reason: l10n.t('{0} was not found', shown) };
  }
  if (within !== undefined && !inside(within, real)) return { ok: false, missing: false, reason: l10n.t('{0} links to a file outside {1}: it was not read', shown, within) };
  let handle;
  try {
    handle = await open(real, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    return { ok: false, missing: false, reason: l10n.t('{0} could not be opened ({1})', shown, (error as NodeJS.ErrnoException).code ?? 'error') };
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { ok: false, missing: false, reason: l10n.t('{0} is not a regular file (a pipe, a device or a folder): it was not read', shown) };
    if (stat.size > MAX_DOCS_JSON_BYTES) return { ok: false, missing: false, reason: l10n.t('{0} is larger than {1} MiB: it was not read', shown, MAX_DOCS_JSON_BYTES / 1024 / 1024) };
    // Read at most one byte past the cap: a file that grows while it is read is refused too.
    const buffer = Buffer.alloc(Math.min(MAX_DOCS_JSON_BYTES + 1, stat.size + 1));
    let filled = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
      if (filled === buffer.length) break;
    }
    if (filled > MAX_DOCS_JSON_BYTES) return { ok: false, missing: false, reason: l10n.t('{0} is larger than {1} MiB: it was not read', shown, MAX_DOCS_JSON_BYTES / 1024 / 1024) };
    return { ok: true, text: buffer.subarray(0, filled).toString('utf8') };
  } finally {
    await handle.close();
  }
}
