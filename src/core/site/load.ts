/**
 * A docs root read from disk into a SiteModel: the files the platform serves (its ignore rules
 * applied while walking), `docs.json` and what it `$ref`s, and the facts of every page and
 * snippet, from the cache when the text is unchanged, else parsed on all cores (parallel.ts).
 */
import * as l10n from '@vscode/l10n';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { contentKey, FactsCache } from './cache';
import { DocsRootError } from './errors';
import { readConfig } from './config';
import { FileRules, isParsed } from './files';
import type { Libraries } from './libraries';
import { SiteModel } from './model';
import { parseAll } from './parallel';

export { DocsRootError };

export interface LoadOptions {
  /** Threads to parse on (default 2); 1 parses on this thread only. */
  threads?: number;
  /** The worker script (dist/siteWorker.js, or the CLI's own file). */
  workerScript: string;
  /** Parse on this thread too (the CLI); the editor leaves it out. */
  mainThread?: Libraries;
  cache?: FactsCache;
  signal?: AbortSignal;
}

export interface LoadStats {
  files: number;
  parsed: number;
  fromCache: number;
}

/** Every file under `root` the platform does not ignore, relative with forward slashes, sorted. */
export function listSiteFiles(root: string, rules: FileRules): string[] {
  const found: string[] = [];
  const walk = (dir: string, rel: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!rules.ignored(path, true)) walk(join(dir, entry.name), path);
      } else if ((entry.isFile() || entry.isSymbolicLink()) && !rules.ignored(path)) {
        found.push(path);
      }
    }
  };
  walk(root, '');
  return found.sort();
}

function readText(root: string, file: string): string | undefined {
  try {
    return readFileSync(join(root, file), 'utf8');
  } catch {
    return undefined;
  }
}

export async function loadSite(root: string, options: LoadOptions): Promise<{ model: SiteModel; stats: LoadStats }> {
  if (!existsSync(join(root, 'docs.json')) || !statSync(root).isDirectory()) {
    throw new DocsRootError(l10n.t('{0} holds no docs.json: pass the docs root, the folder that holds docs.json (--root).', root));
  }
  const rules = new FileRules(readText(root, '.mintignore') ?? '');
  const files = listSiteFiles(root, rules);
  const model = new SiteModel(readConfig((file) => readText(root, file)));
  const cache = options.cache ?? FactsCache.open(undefined);
  const toParse: { file: string; text: string; key: string }[] = [];
  let fromCache = 0;
  for (const file of files) {
    if (!isParsed(file)) {
      model.addFile(file);
      continue;
    }
    const text = readText(root, file) ?? '';
    const key = contentKey(text);
    const known = cache.get(key);
    if (known === undefined) toParse.push({ file, text, key });
    else {
      model.setFacts(file, known);
      fromCache++;
    }
  }
  if (toParse.length > 0) {
    const parsed = await parseAll(toParse, {
      threads: options.threads ?? 2,
      workerScript: options.workerScript,
      ...(options.mainThread === undefined ? {} : { mainThread: options.mainThread }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    for (const { file, key } of toParse) {
      const facts = parsed.get(file);
      if (facts === undefined) continue;
      cache.set(key, facts);
      model.setFacts(file, facts);
    }
  }
  return { model, stats: { files: files.length, parsed: toParse.length, fromCache } };
}
