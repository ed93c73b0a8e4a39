/**
 * The `staticExport` block of a Helm values file: read it, and set `enabled`, `bundleUrl` and
 * `version` while keeping every other byte of the file as it was (comments, key order, quoting,
 * blank lines). The `yaml` library's document API finds each node and its exact source range;
 * only those ranges are rewritten, and the result is parsed again to prove it says what was
 * meant. Invalid YAML is refused with the parser's line and column.
 */
import * as l10n from '@vscode/l10n';
import { isMap, isScalar, parseDocument, type Document, type Node, type Pair, type YAMLMap } from 'yaml';

export class ValuesFileError extends Error {
  constructor(
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
    this.name = 'ValuesFileError';
  }
}

/** A value in the file and where it is (offsets into the text). */
export interface Located<T> {
  value: T;
  start: number;
  end: number;
}

export interface StaticExportBlock {
  /** Where the `staticExport` key is. */
  key: { start: number; end: number };
  enabled?: Located<unknown>;
  bundleUrl?: Located<unknown>;
  version?: Located<unknown>;
}

export interface StaticExportChange {
  bundleUrl: string;
  /** Set when given; an existing `version` is otherwise left as it is. */
  version?: string;
}

function parse(text: string, what: string): Document.Parsed {
  const doc = parseDocument(text, { keepSourceTokens: false, prettyErrors: true, uniqueKeys: true });
  const error = doc.errors[0];
  if (error !== undefined) {
    const pos = error.linePos?.[0];
    const detail = error.message.split('\n')[0] ?? error.code;
    throw new ValuesFileError(
      pos === undefined
        ? l10n.t('{0} is not valid YAML: {1}. Fix it, then try again.', what, detail)
        : l10n.t('{0} is not valid YAML at line {1}, column {2}: {3}. Fix it, then try again.', what, pos.line, pos.col, detail),
      pos?.line,
      pos?.col,
    );
  }
  return doc;
}

function pairOf(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((p) => isScalar(p.key) && p.key.value === key);
}

function located(node: unknown): Located<unknown> | undefined {
  if (!isScalar(node) || node.range === undefined || node.range === null) return undefined;
  return { value: node.value, start: node.range[0], end: node.range[1] };
}

/**
 * The name messages give the file when the caller has none (its path or editor name otherwise;
 * only the values-file checks, which show no message of this module, leave it out).
 */
function unnamed(): string {
  return l10n.t({ message: 'The values file', comment: ['Stands for the name of a Helm values file at the start of a sentence, when it has none.'] });
}

/** The top-level `staticExport` block, or undefined when the file has none. Throws on invalid YAML. */
export function readStaticExport(text: string, what = unnamed()): StaticExportBlock | undefined {
  const doc = parse(text, what);
  if (!isMap(doc.contents)) return undefined;
  const pair = pairOf(doc.contents, 'staticExport');
  if (pair === undefined || !isScalar(pair.key) || !pair.key.range) return undefined;
  const block: StaticExportBlock = { key: { start: pair.key.range[0], end: pair.key.range[1] } };
  if (isMap(pair.value)) {
    for (const name of ['enabled', 'bundleUrl', 'version'] as const) {
      const value = located(pairOf(pair.value, name)?.value);
      if (value !== undefined) block[name] = value;
    }
  }
  return block;
}

/** A YAML scalar for a string, double-quoted (JSON's escapes are YAML's). */
function quoted(value: string): string {
  return JSON.stringify(value);
}

/** The indentation of the line holding `offset`, up to it. */
function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}

/** The offset just after the line that holds `offset` (its newline included). */
function endOfLine(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset);
  return nl === -1 ? text.length : nl + 1;
}

/** The indentation used for nested keys in this file (2 unless it shows another). */
function nestedIndent(doc: Document.Parsed, text: string): number {
  if (!isMap(doc.contents)) return 2;
  for (const pair of doc.contents.items) {
    if (isMap(pair.value) && !pair.value.flow) {
      const first = pair.value.items[0]?.key as Node | undefined;
      if (first?.range) return columnOf(text, first.range[0]);
    }
  }
  return 2;
}

interface Splice {
  at: number;
  remove: number;
  insert: string;
}

function applySplices(text: string, splices: Splice[]): string {
  let out = text;
  for (const s of [...splices].sort((a, b) => b.at - a.at)) out = out.slice(0, s.at) + s.insert + out.slice(s.at + s.remove);
  return out;
}

/**
 * The file with `staticExport.enabled: true`, `staticExport.bundleUrl` and (when given)
 * `staticExport.version` set; nothing else changes.
 */
export function setStaticExport(text: string, change: StaticExportChange, what = unnamed()): string {
  const doc = parse(text, what);
  const wanted: [string, string][] = [
    ['enabled', 'true'],
    ['bundleUrl', quoted(change.bundleUrl)],
    ...(change.version === undefined ? [] : ([['version', quoted(change.version)]] as [string, string][])),
  ];
  // New lines follow the file's own line endings.
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  let result: string;
  if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) {
    // An empty file (or only comments): the block goes at the end.
    const lines = wanted.map(([k, v]) => `  ${k}: ${v}${eol}`).join('');
    result = `${text}${text === '' || text.endsWith('\n') ? '' : eol}staticExport:${eol}${lines}`;
  } else if (!isMap(doc.contents) || doc.contents.flow) {
    throw new ValuesFileError(l10n.t('{0} does not hold a block mapping at its top level, so staticExport cannot be added. Helm values files are mappings (key: value).', what));
  } else {
    const indent = ' '.repeat(nestedIndent(doc, text));
    const pair = pairOf(doc.contents, 'staticExport');
    if (pair === undefined) {
      const lines = wanted.map(([k, v]) => `${indent}${k}: ${v}${eol}`).join('');
      result = `${text}${text.endsWith('\n') ? '' : eol}staticExport:${eol}${lines}`;
    } else if (isMap(pair.value) && !pair.value.flow && pair.value.items.length > 0) {
      const block = pair.value;
      const firstKey = block.items[0]?.key as Node | undefined;
      const blockIndent = firstKey?.range ? ' '.repeat(columnOf(text, firstKey.range[0])) : indent;
      const splices: Splice[] = [];
      const missing: string[] = [];
      for (const [name, source] of wanted) {
        const item = pairOf(block, name);
        const value = item?.value as Node | null | undefined;
        if (item === undefined) {
          missing.push(`${blockIndent}${name}: ${source}${eol}`);
        } else if (value?.range && isScalar(value) && value.range[0] < value.range[1]) {
          splices.push({ at: value.range[0], remove: value.range[1] - value.range[0], insert: source });
        } else if (value === null || value === undefined || (isScalar(value) && value.value === null)) {
          const keyEnd = (item.key as Node).range?.[1] ?? 0;
          const colon = text.indexOf(':', keyEnd);
          splices.push({ at: colon + 1, remove: 0, insert: ` ${source}` });
        } else {
          throw new ValuesFileError(
            isMap(value)
              ? l10n.t('{0} has staticExport.{1} as a mapping; it must be a single value. Fix it by hand, then try again.', what, name)
              : l10n.t('{0} has staticExport.{1} as a list; it must be a single value. Fix it by hand, then try again.', what, name),
          );
        }
      }
      if (missing.length > 0) {
        const last = block.items[block.items.length - 1];
        const lastNode = (last?.value ?? last?.key) as Node | null | undefined;
        const after = lastNode?.range ? endOfLine(text, lastNode.range[1] > 0 ? lastNode.range[1] - 1 : 0) : text.length;
        const needsNewline = after === text.length && !text.endsWith('\n');
        splices.push({ at: after, remove: 0, insert: `${needsNewline ? eol : ''}${missing.join('')}` });
      }
      result = applySplices(text, splices);
    } else if (pair.value === null || (isScalar(pair.value) && (pair.value.value === null || pair.value.range?.[0] === pair.value.range?.[1]))) {
      // `staticExport:` with nothing (or `~`/`null`) under it.
      const keyEnd = (pair.key as Node).range?.[1] ?? 0;
      const colon = text.indexOf(':', keyEnd);
      const valueEnd = isScalar(pair.value) && pair.value.range ? pair.value.range[1] : colon + 1;
      const keyIndent = ' '.repeat(columnOf(text, (pair.key as Node).range?.[0] ?? 0));
      const lines = wanted.map(([k, v]) => `${eol}${keyIndent}${indent}${k}: ${v}`).join('');
      result = applySplices(text, [{ at: colon + 1, remove: valueEnd - (colon + 1), insert: lines }]);
    } else {
      throw new ValuesFileError(
        isMap(pair.value)
          ? l10n.t('{0} has a staticExport value that is not a block mapping (a flow mapping). Write it as "staticExport:" with indented keys, then try again.', what)
          : l10n.t('{0} has a staticExport value that is not a block mapping (a scalar or list). Write it as "staticExport:" with indented keys, then try again.', what),
      );
    }
  }
  // Prove the edit says what was meant, and that the file still parses.
  const check = readStaticExport(result, what);
  if (check?.enabled?.value !== true || check.bundleUrl?.value !== change.bundleUrl || (change.version !== undefined && check.version?.value !== change.version)) {
    throw new ValuesFileError(l10n.t('{0} could not be updated safely (its layout is unusual); it was left as it was. Set staticExport.bundleUrl by hand.', what));
  }
  return result;
}

