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

/**
 * Where a JSON parse failed, as "line 2, column 5", from the parser's message (V8 gives the
 * position). Only the position: the message itself quotes the start of the input, which may be
 * anything (a `docs.json` linked to a token file would print the token).
 */
function wherePosition(text: string, error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : '';
  const at = /\bposition (\d+)/.exec(message)?.[1];
  const position = at !== undefined ? Number(at) : /Unexpected end of JSON input/.test(message) ? text.length : /^Unexpected token|is not valid JSON/.test(message) ? 0 : undefined;
  if (position === undefined) return undefined;
  const before = text.slice(0, position).split('\n');
  return l10n.t('line {0}, column {1}', before.length, (before[before.length - 1]?.length ?? 0) + 1);
}

/** The parts of `docs.json` the mapping uses; a file that is not JSON is a DocsJsonError naming it (and where, never what it holds). */
export function parseDocsJson(text: string, file = 'docs.json'): DocsConfig {
  let value: unknown;
  const body = text.replace(/^\uFEFF/, '');
  try {
    value = JSON.parse(body);
  } catch (error) {
    const where = wherePosition(body, error);
    throw new DocsJsonError(
      where === undefined
        ? l10n.t('{0} is not valid JSON: its redirects and languages are not used until it is fixed.', file)
        : l10n.t('{0} is not valid JSON ({1}): its redirects and languages are not used until it is fixed.', file, where),
    );
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
