/**
 * A page's source file, for the reader-signals tool over MCP: the file (relative to the folder
 * the server runs in, or absolute inside it), its docs root (the nearest folder at or above it
 * holding `docs.json`, not above the working folder), and the site as the platform builds it
 * (core/analytics/mapping.ts). Only names are listed and `docs.json` read: no page's content
 * leaves the machine, and nothing outside the working folder is looked at (a `docs.json` that
 * links out of it, or is no regular file, is refused: core/analytics/docsJsonFile.ts).
 */
import * as l10n from '@vscode/l10n';
import { readdir, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { parseDocsJson } from '../core/analytics/docsJson';
import { readDocsJsonFile } from '../core/analytics/docsJsonFile';
import { DocsSite } from '../core/analytics/mapping';
import { ToolInputError, type PageLookup } from '../core/tools/run';

/** Folders never part of a docs site. */
const SKIP = new Set(['node_modules', '.git']);
const MAX_FILES = 50_000;

function inside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

async function pages(root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (found.length >= MAX_FILES) return;
      if (entry.isDirectory()) {
        if (!SKIP.has(entry.name) && !entry.name.startsWith('.')) await walk(join(dir, entry.name));
      } else if (entry.isFile() && /\.mdx?$/i.test(entry.name)) found.push(relative(root, join(dir, entry.name)).split(sep).join('/'));
    }
  };
  await walk(root);
  return found;
}

export async function findPage(file: string, cwd: string): Promise<PageLookup> {
  const base = await realpath(cwd);
  let path: string;
  try {
    path = await realpath(resolve(base, file));
  } catch {
    throw new ToolInputError(l10n.t('The file {0} was not found in {1} (give it relative to the folder the MCP server runs in).', JSON.stringify(file), base));
  }
  if (!inside(base, path)) throw new ToolInputError(l10n.t('The file {0} is outside the folder the MCP server runs in ({1}): give a page of the docs in that folder.', JSON.stringify(file), base));
  if (!(await stat(path)).isFile() || !/\.mdx?$/i.test(path)) throw new ToolInputError(l10n.t('{0} is not a page of the docs (a .md or .mdx file).', JSON.stringify(file)));
  for (let dir = dirname(path); inside(base, dir); dir = dirname(dir)) {
    const shown = relative(base, join(dir, 'docs.json')).split(sep).join('/') || 'docs.json';
    // Its real path inside the folder, a regular file of a sane size; why not, never what it holds.
    const read = await readDocsJsonFile(join(dir, 'docs.json'), shown, base);
    if (!read.ok && !read.missing) throw new ToolInputError(l10n.t('{0}. The reader signals need the docs root\'s docs.json to map the file to its URL path.', read.reason));
    if (read.ok) {
      const site = new DocsSite(await pages(dir), parseDocsJson(read.text, shown));
      const key = relative(dir, path).split(sep).join('/');
      const own = site.pathOfFile(key);
      return { label: relative(base, path).split(sep).join('/'), key, paths: own === undefined ? [] : [own], resolve: (p) => site.resolve(p) };
    }
    if (dir === base) break;
  }
  throw new ToolInputError(l10n.t('No docs.json was found at or above {0} inside {1}: the reader signals need the docs root (the folder holding docs.json) to map the file to its URL path.', JSON.stringify(file), base));
}
