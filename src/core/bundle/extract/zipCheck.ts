/**
 * A zip read through: yauzl reads the central directory (and fails on one that is cut short or
 * damaged), then every entry's data, inflated, and its CRC-32 (`zlib.crc32`) compared with the
 * one the directory records; yauzl checks each entry's sizes. The only way to know a zip's bytes
 * are the ones its maker wrote. Runs on the archive worker (checkTask.ts).
 */
import * as l10n from '@vscode/l10n';
import { crc32 } from 'node:zlib';
import * as yauzl from 'yauzl';
import { ZipFault } from './zipFault';

export { ZipFault } from './zipFault';

/** Reads every entry of the zip at `path`; `aborted()` is asked between entries and chunks. */
export async function checkZip(path: string, aborted: () => boolean): Promise<void> {
  // Node.js 20.15 and later (the CLI's engines ask for 22); an older one must not call a zip damaged.
  if (typeof crc32 !== 'function') throw new Error(l10n.t('Checking a zip bundle needs Node.js 20.15 or later; this is {0}.', process.version));
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true, decodeStrings: true, strictFileNames: false });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new ZipFault(detail, /end of central directory record signature not found/i.test(detail));
  }
  try {
    for await (const entry of zip.eachEntry()) {
      if (aborted()) return;
      if (!entry.canDecodeFileData()) {
        const what = entry.isEncrypted() ? l10n.t('{0} is encrypted', entry.fileName) : l10n.t('{0} uses compression method {1}', entry.fileName, entry.compressionMethod);
        throw new ZipFault(what, false, true);
      }
      let sum = 0;
      const stream = await zip.openReadStreamPromise(entry);
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        if (aborted()) {
          stream.destroy();
          return;
        }
        sum = crc32(chunk, sum);
      }
      if (sum >>> 0 !== entry.crc32 >>> 0) throw new ZipFault(l10n.t('{0} does not match its CRC-32 (the data or the directory was changed)', entry.fileName), false);
    }
  } catch (error) {
    if (error instanceof ZipFault) throw error;
    throw new ZipFault(error instanceof Error ? error.message : String(error), false);
  } finally {
    zip.close();
  }
}
