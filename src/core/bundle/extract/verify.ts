/**
 * "The archive opens": a downloaded bundle is checked before it takes the target's name. The
 * kind comes from the magic bytes; a tar.gz must inflate to a valid first tar header, a zip must
 * have a readable central directory. Cheap (it reads the start of a tar.gz, the end of a zip),
 * so a 1 GB download is not read twice. Full integrity is the extractor's job.
 */
import * as l10n from '@vscode/l10n';
import { createGunzip } from 'node:zlib';
import * as yauzl from 'yauzl';
import { detectArchiveKind, readHead } from './extract';
import { notAnArchive, UnsafeArchiveError, type ArchiveKind } from './archivePaths';

/** Inflates just enough of a tar.gz for its first 512-byte header, and checks its checksum. */
async function firstTarHeader(path: string): Promise<boolean> {
  const compressed = await readHead(path, 64 * 1024);
  return new Promise((resolve) => {
    const gunzip = createGunzip();
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = () => {
      gunzip.removeAllListeners();
      gunzip.destroy();
      const block = Buffer.concat(chunks).subarray(0, 512);
      if (block.length < 512) return resolve(false);
      // An archive that is only the end-of-archive blocks is valid, and empty.
      if (block.every((b) => b === 0)) return resolve(true);
      const stored = parseInt(block.subarray(148, 156).toString('ascii').replace(/\0.*$/, '').trim(), 8);
      let sum = 0;
      for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : (block[i] ?? 0);
      resolve(stored === sum);
    };
    gunzip.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= 512) finish();
    });
    gunzip.on('error', () => {
      if (size >= 512) finish();
      else resolve(false);
    });
    gunzip.on('end', finish);
    gunzip.end(compressed);
  });
}

function zipOpens(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    yauzl.open(path, { lazyEntries: true, autoClose: true }, (error, zip) => {
      if (error !== null) return resolve(false);
      zip.close();
      resolve(true);
    });
  });
}

/** The archive's kind; an `UnsafeArchiveError` (`notAnArchive`, `corrupt`) that says what is wrong. */
export async function verifyArchive(path: string): Promise<ArchiveKind> {
  const kind = await detectArchiveKind(path);
  if (kind === undefined) throw notAnArchive(await readHead(path, 512));
  const ok = kind === 'tar.gz' ? await firstTarHeader(path) : await zipOpens(path);
  if (!ok) {
    throw new UnsafeArchiveError('corrupt', l10n.t('The downloaded file starts like a {0} but does not open as one (damaged or cut short). Nothing was saved; download it again.', kind));
  }
  return kind;
}
