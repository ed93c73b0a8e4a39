/**
 * One page or snippet, parsed once, reduced to the facts the checks use (facts.ts -> FileFacts):
 * its anchors (anchors.ts) and every link target it writes, each with its exact place. Links:
 * Markdown links, images and definitions; `href` and `src` on any JSX element; `import` sources;
 * `<Snippet file>`. A file that is not valid MDX gives the parser's message and place instead.
 * Pure: the text in, plain data out.
 */
import type { Nodes, Root } from 'mdast';
import type { Point as UnistPoint } from 'unist';
import type { MdxJsxFlowElement, MdxJsxTextElement } from 'mdast-util-mdx-jsx' with { 'resolution-mode': 'import' };
import { AnchorCollector, HEADING_FREE_COMPONENTS, isFieldComponent } from './anchors';
import type { Libraries } from './libraries';
import { LineIndex } from './lineIndex';
import type { TargetSpan } from './positions';
import type { FileFacts, LinkFact, Span } from './siteTypes';

type JsxElement = MdxJsxFlowElement | MdxJsxTextElement;

/**
 * The platform's components whose `href` is a link it renders itself; HTML elements (lower
 * case) too. A component a page or snippet defines may do anything with its props (add a base
 * path, or not): its `href` is not read.
 */
const HREF_COMPONENTS = new Set(['Card', 'Tile', 'Tooltip', 'Button', 'Link']);
const SRC_COMPONENTS = new Set(['Frame', 'Image']);

function isHtml(name: string): boolean {
  return /^[a-z]/.test(name) && !name.includes('.');
}

function linksByHref(name: string): boolean {
  return isHtml(name) || HREF_COMPONENTS.has(name);
}

function linksBySrc(name: string): boolean {
  return isHtml(name) || SRC_COMPONENTS.has(name);
}

/** The attributes of an element whose value is a plain string (an expression is not read). */
function stringAttributes(node: JsxElement): Map<string, string> {
  const values = new Map<string, string>();
  for (const a of node.attributes) {
    if (a.type === 'mdxJsxAttribute' && typeof a.value === 'string') values.set(a.name, a.value);
  }
  return values;
}

function spanOf(node: { position?: { start: UnistPoint; end: UnistPoint } | undefined }): Span {
  const p = node.position;
  if (p === undefined) return { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 1, offset: 0 } };
  return { start: { line: p.start.line, column: p.start.column, offset: p.start.offset ?? 0 }, end: { line: p.end.line, column: p.end.column, offset: p.end.offset ?? 0 } };
}

function targetSpan(data: unknown): Span | undefined {
  const target = (data as { target?: TargetSpan } | undefined)?.target;
  return target === undefined ? undefined : spanOf({ position: target });
}

/** The platform's table-of-contents title: the text and inline code under a node, in order. */
export function plainText(node: Nodes): string {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value;
  if ('children' in node) return (node.children as Nodes[]).map(plainText).join('');
  return '';
}

/** The `{#id}` a heading ends with (an expression the parser left unread), and the heading without it. */
function explicitHeadingId(children: Nodes[]): { id?: string; rest: Nodes[] } {
  const last = children[children.length - 1];
  if (last?.type === 'mdxTextExpression') {
    const value = last.value.trim();
    if (value.startsWith('#') && value.length > 1) return { id: value.slice(1), rest: children.slice(0, -1) };
  }
  return { rest: children };
}

/** Whether the frontmatter sets `mode: custom` or `frame` (headings get no id then). */
function anchorlessMode(root: Root): boolean {
  const yaml = root.children.find((c) => c.type === 'yaml');
  if (yaml === undefined || !yaml.value.includes('mode')) return false;
  return yaml.value.split('\n').some((line) => /^mode\s*:\s*["']?(custom|frame)["']?\s*$/.test(line.trim()));
}

class Walker {
  readonly links: LinkFact[] = [];
  readonly collector: AnchorCollector;

  constructor(
    private readonly libraries: Libraries,
    private readonly lines: LineIndex,
    root: Root,
  ) {
    const tabIds = new Set<string>();
    const fieldIds = new Set<string>();
    this.claims(root, tabIds, fieldIds);
    this.collector = new AnchorCollector(libraries, tabIds, fieldIds, anchorlessMode(root));
  }

  /** The platform seeds explicit tab and field ids before numbering the others. */
  private claims(node: Nodes, tabIds: Set<string>, fieldIds: Set<string>): void {
    if ((node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') && node.name !== null) {
      const id = stringAttributes(node).get('id');
      if (id !== undefined && id !== '') {
        if (node.name === 'Tab') tabIds.add(id);
        if (isFieldComponent(node.name)) fieldIds.add(id);
      }
    }
    if ('children' in node) for (const child of node.children as Nodes[]) this.claims(child, tabIds, fieldIds);
  }

  /** A component's title as the reader sees it: Markdown in a title (`Use **this**`) is rendered, then read as text. */
  private titleText(title: string | undefined): string | undefined {
    if (title === undefined || !/[*_`[~]/.test(title)) return title;
    try {
      return plainText(this.libraries.parse(title));
    } catch {
      return title;
    }
  }

  walk(node: Nodes, excluded: boolean, inheritedTitleSize: string | undefined): void {
    switch (node.type) {
      case 'heading': {
        const { id, rest } = explicitHeadingId(node.children);
        this.collector.heading(node.depth, rest.map(plainText).join('').trim(), id, excluded, spanOf(node));
        break;
      }
      case 'link':
      case 'image':
      case 'definition': {
        const span = targetSpan(node.data);
        if (span !== undefined) this.links.push({ target: node.url, via: node.type === 'link' ? 'markdown' : node.type, span });
        break;
      }
      case 'mdxjsEsm':
        this.imports(node);
        return;
      case 'mdxJsxFlowElement':
      case 'mdxJsxTextElement':
        this.element(node, excluded, inheritedTitleSize);
        return;
      default:
        break;
    }
    if ('children' in node) for (const child of node.children as Nodes[]) this.walk(child, excluded, undefined);
  }

  private element(node: JsxElement, excluded: boolean, inheritedTitleSize: string | undefined): void {
    const name = node.name ?? '';
    const attributes = stringAttributes(node);
    const span = spanOf(node);
    const id = attributes.get('id') === '' ? undefined : attributes.get('id');
    this.attributeLinks(node, name);
    const heading = /^h([1-6])$/.exec(name);
    if (heading !== null) this.collector.elementHeading(Number(heading[1]), node.children.map((c) => plainText(c as Nodes)).join('').trim(), id, excluded, span);
    else if (name === 'Update' && attributes.has('label') && !excluded) this.collector.tocComponent(attributes.get('label') ?? '', id, span);
    else if (name === 'Step') this.step(attributes, id, excluded, inheritedTitleSize, span);
    else if (name === 'Tab') this.collector.tab(this.titleText(attributes.get('title')), id, span);
    else if (name === 'Accordion' || name === 'View') this.collector.titled(name, name === 'View' ? attributes.get('title') : this.titleText(attributes.get('title')), id, span);
    else if (isFieldComponent(name)) this.collector.field(name, attributes, span);
    else if (id !== undefined && name !== '') this.collector.element(name, id, span);
    const titleSize = name === 'Steps' ? attributes.get('titleSize') : undefined;
    const inside = excluded || HEADING_FREE_COMPONENTS.has(name);
    for (const child of node.children as Nodes[]) {
      // `<Steps titleSize>` hands its size to its own steps (through fragments), not deeper.
      const passes = titleSize !== undefined ? titleSize : name === '' ? inheritedTitleSize : undefined;
      this.walk(child, inside, passes);
    }
  }

  private step(attributes: Map<string, string>, id: string | undefined, excluded: boolean, inherited: string | undefined, span: Span): void {
    const size = attributes.get('titleSize') ?? inherited;
    const noAnchor = attributes.has('noAnchor') && attributes.get('noAnchor') !== 'false';
    const title = this.titleText(attributes.get('title')) ?? '';
    if (excluded || noAnchor || (size !== 'h2' && size !== 'h3') || title.trim() === '') return;
    this.collector.tocComponent(title, id, span);
  }

  private attributeLinks(node: JsxElement, name: string): void {
    for (const a of node.attributes) {
      if (a.type !== 'mdxJsxAttribute' || typeof a.value !== 'string') continue;
      const link = (a.name === 'href' && linksByHref(name)) || (a.name === 'src' && linksBySrc(name)) || (name === 'Snippet' && a.name === 'file');
      const span = link ? targetSpan(a.data) : undefined;
      if (span === undefined) continue;
      this.links.push({ target: a.value, via: name === 'Snippet' ? 'snippetFile' : 'attribute', span, element: name, attribute: a.name });
    }
  }

  /** `import X from '/snippets/x.mdx'`: the source string's place comes from acorn's offsets (ESM is parsed with it). */
  private imports(node: Nodes & { type: 'mdxjsEsm' }): void {
    const program = node.data?.estree;
    if (program === undefined || program === null) return;
    for (const statement of program.body) {
      if ((statement.type !== 'ImportDeclaration' && statement.type !== 'ExportNamedDeclaration' && statement.type !== 'ExportAllDeclaration') || statement.source === null || statement.source === undefined) continue;
      const source = statement.source as { value: unknown; start?: number; end?: number };
      if (typeof source.value !== 'string' || source.start === undefined || source.end === undefined) continue;
      // Inside the quotes.
      this.links.push({ target: source.value, via: 'import', span: { start: this.lines.position(source.start + 1), end: this.lines.position(source.end - 1) } });
    }
  }
}

/** The facts of one file's text. */
export function factsOf(text: string, libraries: Libraries): FileFacts {
  const lines = new LineIndex(text);
  let root: Root;
  try {
    root = libraries.parse(text);
  } catch (error) {
    return { anchors: [], links: [], parseError: parseProblem(error, lines) };
  }
  const walker = new Walker(libraries, lines, root);
  for (const child of root.children) walker.walk(child, false, undefined);
  return { anchors: walker.collector.anchors, links: walker.links };
}

/** The parser's message and place (a VFileMessage carries `place`: a point or a span). */
function parseProblem(error: unknown, lines: LineIndex): { message: string; span: Span } {
  const e = error as { reason?: unknown; message?: unknown; place?: { line?: number; column?: number; offset?: number; start?: { line: number; column: number; offset?: number } } };
  const message = typeof e.reason === 'string' ? e.reason : typeof e.message === 'string' ? e.message : String(error);
  const place = e.place?.start ?? e.place;
  const offset = place?.offset ?? (place?.line !== undefined ? lines.offsetOf(place.line, place.column ?? 1) : 0);
  const at = lines.position(offset);
  return { message, span: { start: at, end: at } };
}
