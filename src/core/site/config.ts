/**
 * `docs.json` as the site model reads it, with the place of every value it checks or edits: the
 * navigation (languages, versions, tabs, anchors, dropdowns, products, menus, groups and their
 * pages), each page entry, and the redirects. `{"$ref": "./es.json"}` anywhere is replaced by
 * that file's value (relative to the file that names it), as the platform does, and every
 * entry keeps the file it was written in. Read with jsonc-parser (MIT), which keeps offsets.
 * Pure: the caller reads the files.
 */
import * as l10n from '@vscode/l10n';
import { parseTree, type Node as JsonNode, type ParseError, printParseErrorCode } from 'jsonc-parser';
import { posix } from 'node:path';
import { LineIndex } from './lineIndex';
import type { Span } from './siteTypes';

export type NavKind = 'language' | 'version' | 'tab' | 'anchor' | 'dropdown' | 'product' | 'menu' | 'group' | 'page' | 'openapi';

export interface NavNode {
  kind: NavKind;
  /** The tab's, group's… name, the language code, or the page entry as written. */
  label: string;
  /** For a page: its path as written (`guides/setup`); for a group with a root page, that page. */
  page?: string;
  children: NavNode[];
  file: string;
  span: Span;
}

export interface PageEntry {
  /** As written (`guides/setup`, `/guides/setup`, `GET /users`). */
  page: string;
  /** An OpenAPI operation (`GET /users`, `openapi.json get /users`): generated, not a file. */
  openapi: boolean;
  /** `root` of a group, or an item of `pages`. */
  role: 'root' | 'page';
  file: string;
  /** The JSON string, quotes included: what a diagnostic marks and a move replaces. */
  span: Span;
}

export interface RedirectEntry {
  source: string;
  destination: string;
  file: string;
  sourceSpan: Span;
  destinationSpan: Span;
}

export interface ConfigProblem {
  file: string;
  span: Span;
  message: string;
}

export interface SiteConfig {
  navigation: NavNode[];
  pages: PageEntry[];
  redirects: RedirectEntry[];
  /** Folders of localised and versioned copies (`es`, `v1`). */
  languages: string[];
  versions: string[];
  /** Whether navigation generates pages from an OpenAPI or AsyncAPI document (then a URL may name a page no file holds). */
  generatesPages: boolean;
  /** Where the `redirects` array is (the file, the array's span, its last item's), for a move to add to it. */
  redirectsArray?: { file: string; span: Span; lastItem?: Span };
  /** Every JSON file read (docs.json and what `$ref` named), with its text. */
  files: Map<string, string>;
  problems: ConfigProblem[];
}

const NAV_LISTS: Record<string, NavKind> = { languages: 'language', versions: 'version', tabs: 'tab', anchors: 'anchor', dropdowns: 'dropdown', products: 'product', menu: 'menu', groups: 'group', pages: 'group' };
const LABEL_KEYS: [string, NavKind][] = [['language', 'language'], ['version', 'version'], ['tab', 'tab'], ['anchor', 'anchor'], ['dropdown', 'dropdown'], ['product', 'product'], ['item', 'menu'], ['group', 'group']];
const OPENAPI_PAGE = /^(?:\S+\s+)?(?:get|post|put|patch|delete|head|options|trace|webhook)\s+\S/i;

/** A JSON node with the file it came from (after `$ref`s are followed). */
interface Located {
  node: JsonNode;
  file: string;
}

export class ConfigReader {
  private readonly files = new Map<string, string>();
  private readonly lines = new Map<string, LineIndex>();
  private readonly trees = new Map<string, JsonNode | undefined>();
  readonly problems: ConfigProblem[] = [];

  constructor(private readonly readFile: (file: string) => string | undefined) {}

  span(file: string, offset: number, length: number): Span {
    const index = this.lines.get(file) ?? new LineIndex('');
    return { start: index.position(offset), end: index.position(offset + length) };
  }

  private tree(file: string): JsonNode | undefined {
    if (this.trees.has(file)) return this.trees.get(file);
    const text = this.readFile(file);
    let root: JsonNode | undefined;
    if (text !== undefined) {
      this.files.set(file, text);
      this.lines.set(file, new LineIndex(text));
      const errors: ParseError[] = [];
      root = parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
      const first = errors[0];
      if (first !== undefined) {
        this.problems.push({ file, span: this.span(file, first.offset, first.length), message: l10n.t('{0} is not valid JSON ({1}): the platform will not build the site until it is fixed.', file, printParseErrorCode(first.error)) });
        root = undefined;
      }
    }
    this.trees.set(file, root);
    return root;
  }

  /** The node, or what its `$ref` names (followed up to 8 deep). */
  resolve(located: Located, depth = 0): Located {
    const { node, file } = located;
    if (node.type !== 'object' || depth > 8) return located;
    const ref = property(node, '$ref');
    if (ref?.type !== 'string' || typeof ref.value !== 'string') return located;
    const target = posix.normalize(posix.join(posix.dirname(file), ref.value));
    const tree = this.tree(target);
    if (tree === undefined) {
      if (!this.files.has(target)) this.problems.push({ file, span: this.span(file, ref.offset, ref.length), message: l10n.t('The $ref "{0}" names no file: create it or fix the path.', ref.value) });
      return located;
    }
    return this.resolve({ node: tree, file: target }, depth + 1);
  }

  read(rootFile: string): SiteConfig {
    const config: SiteConfig = { navigation: [], pages: [], redirects: [], languages: [], versions: [], generatesPages: false, files: this.files, problems: this.problems };
    const root = this.tree(rootFile);
    if (root === undefined) {
      if (!this.files.has(rootFile)) this.problems.push({ file: rootFile, span: this.span(rootFile, 0, 0), message: l10n.t('{0} was not found: the docs root is the folder that holds it.', rootFile) });
      return config;
    }
    const navigation = property(root, 'navigation');
    if (navigation !== undefined) config.navigation = this.navChildren(this.resolve({ node: navigation, file: rootFile }), config, 0);
    const redirects = property(root, 'redirects');
    if (redirects !== undefined) this.redirects(this.resolve({ node: redirects, file: rootFile }), config);
    return config;
  }

  private redirects(located: Located, config: SiteConfig): void {
    if (located.node.type !== 'array') return;
    const last = located.node.children?.[located.node.children.length - 1];
    config.redirectsArray = { file: located.file, span: this.span(located.file, located.node.offset, located.node.length) };
    if (last !== undefined) config.redirectsArray.lastItem = this.span(located.file, last.offset, last.length);
    for (const child of located.node.children ?? []) {
      const item = this.resolve({ node: child, file: located.file });
      if (item.node.type !== 'object') continue;
      const source = property(item.node, 'source');
      const destination = property(item.node, 'destination');
      if (typeof source?.value !== 'string' || typeof destination?.value !== 'string') continue;
      config.redirects.push({
        source: source.value.trim(),
        destination: destination.value.trim(),
        file: item.file,
        sourceSpan: this.span(item.file, source.offset, source.length),
        destinationSpan: this.span(item.file, destination.offset, destination.length),
      });
    }
  }

  /** The navigation items under an object's lists (`tabs`, `groups`, `pages`…). */
  private navChildren(located: Located, config: SiteConfig, depth: number): NavNode[] {
    const { node, file } = located;
    if (node.type !== 'object' || depth > 32) return [];
    if (property(node, 'openapi') !== undefined || property(node, 'asyncapi') !== undefined) config.generatesPages = true;
    const children: NavNode[] = [];
    for (const prop of node.children ?? []) {
      const [key, value] = prop.children ?? [];
      if (key === undefined || value === undefined || typeof key.value !== 'string' || !(key.value in NAV_LISTS)) continue;
      const list = this.resolve({ node: value, file });
      if (list.node.type !== 'array') continue;
      for (const item of list.node.children ?? []) children.push(...this.navItem(this.resolve({ node: item, file: list.file }), config, depth + 1));
    }
    return children;
  }

  private navItem(located: Located, config: SiteConfig, depth: number): NavNode[] {
    const { node, file } = located;
    const span = this.span(file, node.offset, node.length);
    if (node.type === 'string' && typeof node.value === 'string') {
      const page = node.value.trim();
      const openapi = OPENAPI_PAGE.test(page);
      config.pages.push({ page, openapi, role: 'page', file, span });
      return [{ kind: openapi ? 'openapi' : 'page', label: page, page, children: [], file, span }];
    }
    if (node.type !== 'object') return [];
    const labelled = LABEL_KEYS.find(([key]) => typeof property(node, key)?.value === 'string');
    const kind = labelled?.[1] ?? 'group';
    const label = labelled === undefined ? '' : String(property(node, labelled[0])?.value ?? '');
    if (kind === 'language') config.languages.push(label);
    if (kind === 'version') config.versions.push(label);
    const nav: NavNode = { kind, label, children: this.navChildren(located, config, depth), file, span };
    const root = property(node, 'root');
    if (root?.type === 'string' && typeof root.value === 'string') {
      const page = root.value.trim();
      config.pages.push({ page, openapi: OPENAPI_PAGE.test(page), role: 'root', file, span: this.span(file, root.offset, root.length) });
      nav.page = page;
    }
    return [nav];
  }
}

function property(node: JsonNode, name: string): JsonNode | undefined {
  if (node.type !== 'object') return undefined;
  for (const prop of node.children ?? []) {
    const [key, value] = prop.children ?? [];
    if (key?.value === name) return value;
  }
  return undefined;
}

/** `docs.json` at the docs root, with the files its `$ref`s name. */
export function readConfig(readFile: (file: string) => string | undefined): SiteConfig {
  return new ConfigReader(readFile).read('docs.json');
}
