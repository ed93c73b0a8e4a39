/**
 * A file copied to `target` so that nothing ever sees half of it (a web server serving bundles
 * from that folder, say): copied beside it under a random name, then renamed into place. The
 * temporary name is new each time and created exclusively (`COPYFILE_EXCL`), so a symbolic link
 * or a file planted under a name someone could guess is never followed nor overwritten.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export async function copyIntoPlace(source: string, target: string): Promise<void> {
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(8).toString('hex')}.importing`);
  try {
    await copyFile(source, temp, constants.COPYFILE_EXCL);
    await rename(temp, target);
  } catch (error) {
    // Only a file this call created: an EEXIST means the name was someone else's.
    if ((error as { code?: unknown }).code !== 'EEXIST') await rm(temp, { force: true });
    throw error;
  }
}
