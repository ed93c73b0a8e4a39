/**
 * What the mapping needs from a docs site's `docs.json` (the platform's site configuration, at
 * the docs root): its `redirects` (`source` -> `destination`, with the platform's wildcards) and
 * the folders of its localised and versioned copies (`navigation.languages[].language`,
 * `navigation.versions[].version`, at any depth of the navigation). Tolerant: anything else in
 * the file is ignored; a redirect that is not two strings is skipped. Pure.
 */
import * as l10n from '@vscode/l10n';

import type { Redirect } from '../site/redirects';

export type { Redirect };

export interface DocsConfig {
  redirects: Redirect[];
  /** Folder names of localised copies (`es`, `fr-CA`). */
  languages: string[];
  /** Folder names of versioned copies (`v1`). */
  versions: string[];
}

export const EMPTY_CONFIG: DocsConfig = { redirects: [], languages: [], versions: [] };

export class DocsJsonError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DocsJsonError';
  }
}

/** Every `key` string found under `list` arrays anywhere in `node` (navigation nests freely). */
function collect(node: unknown, list: string, key: string, into: Set<string>, depth = 0): void {
  if (depth > 32 || typeof node !== 'object' || node === null) return;
  if (Array.isArray(node)) {
    for (const item of node) collect(item, list, key, into, depth + 1);
    return;
  }
  for (const [name, value] of Object.entries(node as Record<string, unknown>)) {
    if (name === list && Array.isArray(value)) {
      for (const entry of value) {
        const folder = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>)[key] : undefined;
        if (typeof folder === 'string' && /^[A-Za-z0-9._-]+$/.test(folder.trim())) into.add(folder.trim());
      }
    }
    collect(value, list, key, into, depth + 1);
  }
}

/** The parts of `docs.json` the mapping uses; a file that is not JSON is a DocsJsonError naming it. */
export function parseDocsJson(text: string, file = 'docs.json'): DocsConfig {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new DocsJsonError(l10n.t('{0} is not valid JSON ({1}): its redirects and languages are not used until it is fixed.', file, error instanceof Error ? error.message : String(error)));
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return EMPTY_CONFIG;
  const root = value as Record<string, unknown>;
  const redirects = (Array.isArray(root.redirects) ? root.redirects : []).flatMap((r: unknown) => {
    const { source, destination } = (typeof r === 'object' && r !== null ? r : {}) as Record<string, unknown>;
    return typeof source === 'string' && typeof destination === 'string' && source.trim() !== '' && destination.trim() !== '' ? [{ source: source.trim(), destination: destination.trim() }] : [];
  });
  const languages = new Set<string>();
  const versions = new Set<string>();
  collect(root.navigation, 'languages', 'language', languages);
  collect(root.navigation, 'versions', 'version', versions);
  return { redirects, languages: [...languages], versions: [...versions] };
}
