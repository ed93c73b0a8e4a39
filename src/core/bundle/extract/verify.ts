/**
 * "The archive checks out", for a bundle file on disk (Import's carried-in bundle): read through
 * to its end on the archive worker (checkThread.ts), as a download's is: a tar.gz's every gzip
 * member inflated (each member's CRC-32 and length checked) and its tar read to the
 * end-of-archive marker; a zip's directory read and every entry's CRC-32 checked. Anything else is
 * refused as not an archive, saying what it looks like (an HTML error page, say).
 */
import { stat } from 'node:fs/promises';
import { AbortedError } from '../../abort';
import type { L10nBundle } from '../../l10n';
import type { ArchiveKind } from './archivePaths';
import { checkError, CheckThread } from './checkThread';

export interface VerifyOptions {
  signal?: AbortSignal | undefined;
  /** Bytes read through so far, of `total`. */
  onProgress?: (checked: number, total: number) => void;
  /** The archive worker's script (the CLI gives its own file). */
  workerScript?: string | undefined;
  l10n?: L10nBundle | undefined;
}

/** The archive's kind; an `UnsafeArchiveError` (`notAnArchive`, `corrupt`, `unsupported`) that says what is wrong. */
export async function verifyArchive(path: string, options: VerifyOptions = {}): Promise<ArchiveKind> {
  if (options.signal?.aborted) throw new AbortedError();
  const { size } = await stat(path);
  const check = new CheckThread({ path, subject: 'file', workerScript: options.workerScript, l10n: options.l10n, onProgress: (bytes) => options.onProgress?.(bytes, size) });
  const stop = (): void => void check.close();
  options.signal?.addEventListener('abort', stop, { once: true });
  try {
    return await check.finish(size);
  } catch (error) {
    if (options.signal?.aborted) throw new AbortedError();
    throw checkError(error);
  } finally {
    options.signal?.removeEventListener('abort', stop);
    await check.close();
  }
}
