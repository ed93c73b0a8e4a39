/**
 * Reading a tar.gz or a zip into a staging folder, entry by entry, every entry through the
 * rules before anything touches the disk. This runs on the extraction's worker thread
 * (extractWorker.ts): the staging folder writes synchronously.
 */
import * as l10n from '@vscode/l10n';
import { createReadStream } from 'node:fs';
import { crc32, createGunzip, createInflateRaw } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';
import * as yauzl from 'yauzl';
import { corruptArchive, refusedEntry, tarEntryKind, UnsafeArchiveError, zipEntryKind } from './archivePaths';
import type { Staging } from './staging';
import { DiskSpaceError } from '../diskSpace';
import { AbortedError } from '../../abort';

/** Refusals, cancellation and a disk about to fill as they are; disk errors (they name a syscall) too; the rest is damage. */
export function classify(error: unknown): Error {
  if (error instanceof UnsafeArchiveError || error instanceof AbortedError || error instanceof DiskSpaceError) return error;
  if (error instanceof Error && 'syscall' in error) return error;
  return corruptArchive(error);
}

/** Bytes per read of the archive and per inflated chunk (Node's default is 16 KiB). */
const CHUNK = 256 * 1024;
/** Inflated chunks waiting for the parser before inflating pauses. */
const QUEUED_CHUNKS = 2;
/** Room for headers, padding and PAX records in the decompressed tar stream, per entry. */
const TAR_OVERHEAD_PER_ENTRY = 8 * 1024;

/**
 * A tar.gz. Inflated chunks queue briefly for the parser and the disk, so that the next chunk
 * inflates on the thread pool while this thread parses and writes the one before (piped
 * straight in, the two take turns: a third of the time lost). The whole decompressed stream is
 * bounded, whatever its headers say; what follows the end of the archive is counted, not parsed.
 * Each chunk carries the compressed bytes gunzip had consumed when it came out, for the ratio
 * guard (of the whole stream here, of each entry in the staging folder).
 */
export function readTar(archivePath: string, staging: Staging): Promise<void> {
  return new Promise<void>((done, reject) => {
    const source = createReadStream(archivePath, { highWaterMark: CHUNK });
    const gunzip = createGunzip({ chunkSize: CHUNK });
    const parser = new Parser({ strict: true, zstd: false });
    const queue: { chunk: Buffer; consumed: number }[] = [];
    /** Compressed bytes consumed when the chunk being parsed came out of gunzip. */
    let consumed = 0;
    let streamed = 0;
    let scheduled = false;
    let inflated = false;
    let atEnd = false;
    let failed = false;
    const fail = (error: unknown): void => {
      if (failed) return;
      failed = true;
      source.destroy();
      gunzip.destroy();
      staging.release();
      reject(classify(error));
    };
    // Everything the parser does for a chunk (entries, their bytes, our writes) happens inside
    // `parser.write`, so whatever throws on the way ends up here.
    const feed = (): void => {
      scheduled = false;
      try {
        for (let next = queue.shift(); next !== undefined && !failed; next = queue.shift()) {
          const { chunk } = next;
          consumed = next.consumed;
          streamed += chunk.length;
          staging.checkAborted();
          if (streamed > staging.maxTotalBytes + (staging.entries + 1) * TAR_OVERHEAD_PER_ENTRY + 2 * 1024 ** 2) throw staging.tooLarge();
          staging.inflated.add(chunk.length, consumed);
          if (!atEnd) parser.write(chunk);
        }
        if (failed) return;
        if (inflated) parser.end();
        else gunzip.resume();
      } catch (error) {
        fail(error);
      }
    };
    const schedule = (): void => {
      if (scheduled) return;
      scheduled = true;
      setImmediate(feed);
    };
    parser.on('entry', (entry: ReadEntry) => {
      const admitted = staging.admit(entry.path, tarEntryKind(entry.type), entry.size, entry.linkpath);
      if (admitted?.kind === 'file') {
        const start = consumed;
        const file = staging.file(admitted.path, entry.path, () => consumed - start);
        entry.on('data', (chunk: Buffer) => file.write(chunk));
        entry.on('end', () => file.close());
        return;
      }
      if (admitted !== undefined) staging.directory(admitted.path, entry.path);
      entry.resume();
    });
    parser.on('ignoredEntry', (entry: ReadEntry) => {
      staging.entries++;
      fail(new UnsafeArchiveError('unsupported', refusedEntry(l10n.t('The bundle holds an entry that cannot be extracted ({0}, tar type {1}).', entry.path, entry.type)), entry.path));
    });
    parser.on('eof', () => {
      atEnd = true;
    });
    parser.on('error', (error: unknown) => fail(corruptArchive(error)));
    parser.on('end', () => {
      if (failed) return;
      // Inflated whole, but the tar stops before its end-of-archive marker: entries may be missing.
      if (!atEnd) return fail(corruptArchive(new Error(l10n.t('the tar archive inside ends before its end-of-archive marker'))));
      done();
    });
    gunzip.on('data', (chunk: Buffer) => {
      queue.push({ chunk, consumed: gunzip.bytesWritten });
      if (queue.length >= QUEUED_CHUNKS) gunzip.pause();
      schedule();
    });
    gunzip.on('end', () => {
      inflated = true;
      schedule();
    });
    gunzip.on('error', (error) => fail(corruptArchive(error)));
    source.on('error', fail);
    source.pipe(gunzip);
  });
}

/**
 * A zip: yauzl reads the central directory, then each entry's bytes, raw, which are inflated
 * here (so that the compressed bytes consumed are known, for the ratio guard) and checked
 * against the size and the CRC-32 the entry declares.
 */
export async function readZip(archivePath: string, staging: Staging): Promise<void> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(archivePath, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true });
  } catch (error) {
    throw classify(error);
  }
  /** Compressed bytes consumed by the entries before this one. */
  let consumedFromZip = 0;
  try {
    if (zip.entryCount > staging.maxEntries) throw staging.tooManyEntries();
    for await (const entry of zip.eachEntry()) {
      // Our own reading of the name: backslashes kept, so that the checks see them.
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
      const admitted = staging.admit(name, zipEntryKind(name, entry.externalFileAttributes), entry.uncompressedSize);
      if (admitted?.kind === 'directory') staging.directory(admitted.path, name);
      if (admitted?.kind !== 'file') continue;
      if (!entry.canDecodeFileData()) {
        const what = entry.isEncrypted()
          ? l10n.t('The bundle holds a file that cannot be read ({0}: it is encrypted).', name)
          : l10n.t('The bundle holds a file that cannot be read ({0}: compression method {1}).', name, entry.compressionMethod);
        throw new UnsafeArchiveError('unsupported', refusedEntry(what), name);
      }
      const deflated = entry.compressionMethod === 8;
      let inflate: ReturnType<typeof createInflateRaw> | undefined;
      let output = 0;
      let sum = 0;
      const file = staging.file(admitted.path, name, () => (inflate === undefined ? output : inflate.bytesWritten));
      // Opened only once the file is ready to take the bytes: yauzl's stream can fail before it is read.
      const raw = await zip.openReadStreamPromise(entry, { decodeFileData: false });
      // A small file gets a small buffer (20,000 pages of 10 KB would otherwise each allocate 256 KiB).
      const stream = deflated ? (inflate = createInflateRaw({ chunkSize: Math.min(CHUNK, Math.max(16 * 1024, entry.uncompressedSize)) })) : raw;
      if (inflate !== undefined) {
        const target = inflate;
        raw.on('error', (error) => target.destroy(error));
        raw.pipe(target);
      }
      try {
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          if (output + chunk.length > entry.uncompressedSize) throw corruptArchive(new Error(l10n.t('{0} holds more bytes than its declared {1}', name, entry.uncompressedSize)));
          staging.inflated.add(chunk.length, consumedFromZip + (inflate === undefined ? output + chunk.length : inflate.bytesWritten));
          output += chunk.length;
          sum = crc32(chunk, sum);
          file.write(chunk);
        }
      } finally {
        raw.destroy();
        inflate?.destroy();
      }
      if (output !== entry.uncompressedSize) throw corruptArchive(new Error(l10n.t('{0} holds fewer bytes than its declared {1}', name, entry.uncompressedSize)));
      if (sum >>> 0 !== entry.crc32 >>> 0) throw corruptArchive(new Error(l10n.t('{0} does not match its CRC-32 (the data or the directory was changed)', name)));
      consumedFromZip += inflate === undefined ? output : inflate.bytesWritten;
      file.close();
    }
  } catch (error) {
    throw classify(error);
  } finally {
    staging.release();
    zip.close();
  }
}
