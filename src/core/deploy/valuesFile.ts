/**
 * A values file on disk, for the CLI: read as UTF-8, written atomically (a temporary file beside
 * it, then a rename), so a crash never leaves half a file where the deployment reads it.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { ValuesStore } from './publish';

export function valuesFile(path: string): ValuesStore {
  return {
    name: path,
    read: () => readFile(path, 'utf8'),
    async write(text: string) {
      const temp = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.tmp`);
      const mode = await stat(path).then(
        (s) => s.mode & 0o777,
        () => 0o644,
      );
      try {
        await writeFile(temp, text, { encoding: 'utf8', mode });
        await rename(temp, path);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    },
  };
}
