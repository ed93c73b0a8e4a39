/**
 * Sites for the site-health tests: a small site from texts (parsed on this thread), and the
 * corpus (the platform vendor's own docs, MIT), found from DOCS_ADMIN_CORPUS or the nearest
 * ancestor folder of the repository holding shared/corpus/mintlify-docs. A missing corpus fails
 * the test with a message that says where it was looked for: never a skip.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { readConfig } from '../../../src/core/site/config';
import { factsOf } from '../../../src/core/site/facts';
import { isParsed } from '../../../src/core/site/files';
import { loadLibraries, type Libraries } from '../../../src/core/site/libraries';
import { SiteModel } from '../../../src/core/site/model';

let libraries: Promise<Libraries> | undefined;

/** The parsers, loaded once for the whole run. */
export function parsers(): Promise<Libraries> {
  libraries ??= loadLibraries();
  return libraries;
}

/** A model of the files given (relative path -> text); docs.json among them. */
export async function siteOf(files: Record<string, string>): Promise<SiteModel> {
  const libs = await parsers();
  const model = new SiteModel(readConfig((file) => files[file]));
  for (const [file, text] of Object.entries(files)) {
    if (isParsed(file)) model.setFacts(file, factsOf(text, libs));
    else model.addFile(file);
  }
  return model;
}

/** A docs.json with these pages in one group, and these redirects. */
export function docsJson(pages: string[], redirects: { source: string; destination: string }[] = []): string {
  return `${JSON.stringify({ $schema: 'https://mintlify.com/docs.json', name: 'Test', theme: 'mint', colors: { primary: '#000000' }, navigation: { groups: [{ group: 'All', pages }] }, redirects }, null, 2)}\n`;
}

/** Writes the files under `root`. */
export function writeSite(root: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
}

/** The corpus's folder. */
export function corpusRoot(): string {
  const given = process.env.DOCS_ADMIN_CORPUS;
  if (given !== undefined && given !== '') {
    if (!existsSync(join(given, 'docs.json'))) throw new Error(`DOCS_ADMIN_CORPUS=${given} holds no docs.json: point it at the mintlify-docs corpus folder.`);
    return given;
  }
  const tried: string[] = [];
  for (let dir = resolve(__dirname, '../../../..'); ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'corpus', 'mintlify-docs');
    tried.push(candidate);
    if (existsSync(join(candidate, 'docs.json'))) return candidate;
    if (dirname(dir) === dir) break;
  }
  throw new Error(`The test corpus was not found: set DOCS_ADMIN_CORPUS to the mintlify-docs folder, or put it at shared/corpus/mintlify-docs beside an ancestor of the repository. Looked in:\n${tried.join('\n')}`);
}
