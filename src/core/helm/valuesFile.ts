/**
 * A values file on disk, for the CLI: read as UTF-8; written only over the text it was read as
 * (compared again just before the rename, so a change made meanwhile by an editor or by git is
 * never written over), atomically (a temporary file beside it, then a rename), so a crash never
 * leaves half a file where the deployment reads it. A symbolic link stays a link: the file it
 * points at is what is replaced.
 */
import * as l10n from '@vscode/l10n';
import { randomBytes } from 'node:crypto';
import { readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ValuesChangedError } from './publishErrors';
import type { ValuesStore } from './publishPipeline';
import { ValuesFileError } from './values';

function changed(path: string): ValuesChangedError {
  return new ValuesChangedError(l10n.t('{0} changed on disk while it was being updated, so it was not written over; the change made there is kept.', path));
}

/** The file's text now; undefined when it is gone. */
async function current(path: string): Promise<string | undefined> {
  return readFile(path, 'utf8').catch((error: unknown) => {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw error;
  });
}

export function valuesFile(path: string): ValuesStore {
  return {
    name: path,
    async read() {
      const text = await current(path);
      if (text === undefined) throw new ValuesFileError(l10n.t('{0} does not exist. Pass the Helm values file of the deployment (create it first if it is new).', path));
      return text;
    },
    async write(text: string, expected: string) {
      const target = await realpath(path).catch(() => path);
      if ((await current(target)) !== expected) throw changed(path);
      const temp = join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}.tmp`);
      const mode = await stat(target).then(
        (s) => s.mode & 0o777,
        () => 0o644,
      );
      try {
        await writeFile(temp, text, { encoding: 'utf8', mode });
        // The last look: only the rename itself is left between it and the write.
        if ((await current(target)) !== expected) throw changed(path);
        await rename(temp, target);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    },
  };
}
