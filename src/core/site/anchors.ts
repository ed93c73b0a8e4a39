/**
 * The anchors a page makes, in the order and with the counters of the platform's renderer
 * (RULES.md): Markdown headings of levels 1 to 4 and JSX `h1`-`h4`, `<Update label>`, `<Step>`
 * with a `titleSize` of `h2` or `h3`, `<Tab>`, `<Accordion>`, `<View>`, the parameter and
 * response fields, and any element given an `id` that reaches the page. Fed by facts.ts, which
 * walks the tree once; pure.
 */
import type { Libraries } from './libraries';
import { ComponentIds, SlugCounter, TocIds, cleanHeadingId, slug } from './slug';
import type { AnchorFact, Span } from './siteTypes';

/** Components whose headings stay out of the table of contents (`COMPONENTS_TO_EXCLUDE_HEADINGS`). */
export const HEADING_FREE_COMPONENTS = new Set(['Accordion', 'AccordionGroup', 'Expandable', 'Update', 'Prompt']);

/** Components that render no element of their own id (`COMPONENTS_WITHOUT_ID`): an `id` on them is no anchor. */
const WITHOUT_ID = new Set([
  'Info', 'Warning', 'Note', 'Tip', 'Check', 'Danger', 'Callout', 'AccordionGroup', 'Card', 'CardGroup', 'Tabs', 'CodeGroup', 'Column', 'Columns', 'CustomCode',
  'CustomComponent', 'DynamicCustomComponent', 'Expandable', 'Frame', 'GitHub', 'Github', 'Icon', 'Latex', 'Mermaid', 'Panel', 'Popup', 'Prompt', 'RequestExample',
  'ResponseExample', 'SnippetGroup', 'Steps', 'Tile', 'Tooltip', 'Tree', 'FileTree', 'Variation', 'Visibility', 'MDX', 'Badge', 'Color', 'ZoomImage',
]);

const FIELD_COMPONENTS = new Set(['ParamField', 'Param', 'ResponseField']);
const FIELD_NAME_ATTRIBUTES = ['query', 'path', 'body', 'header'];

/** What an `## Title {#id}` explicit id becomes (`normalizeCustomId` of the platform's preprocessing). */
export function normalizeCustomId(raw: string): string {
  return raw
    .trim()
    .replace(/[<>"&?,;:!'()[\]{}]/g, '')
    .replace(/\p{Emoji_Modifier}|\p{Emoji_Modifier_Base}|\p{Emoji_Presentation}|\p{Extended_Pictographic}|\u200D|\uFE0E|\uFE0F/gu, '')
    .replace(/\s+/g, '-');
}

export class AnchorCollector {
  readonly anchors: AnchorFact[] = [];
  private readonly headingCounter = new SlugCounter();
  private readonly toc = new TocIds();
  private readonly tabCounter = new SlugCounter();
  private readonly componentIds: ComponentIds;
  private readonly titleCounts = new Map<string, number>();
  private readonly fieldCounts = new Map<string, number>();

  /**
   * `claimedTabIds` and `claimedFieldIds`: the explicit ids of the page's tabs and fields, which
   * the platform collects before it numbers the others.
   */
  constructor(
    libraries: Libraries,
    private readonly claimedTabIds: Set<string>,
    private readonly claimedFieldIds: Set<string>,
    /** `mode: custom` or `frame` in the frontmatter: headings get no id at all. */
    private readonly noHeadingIds: boolean,
  ) {
    this.componentIds = new ComponentIds(libraries.slugify);
  }

  private add(id: string, span: Span, kind: AnchorFact['kind'], title?: string): void {
    if (id === '') return;
    this.anchors.push(title === undefined ? { id, span, kind } : { id, span, kind, title });
  }

  /** A Markdown heading of any level; `explicit` is the `{#id}` it ends with. */
  heading(depth: number, title: string, explicit: string | undefined, excluded: boolean, span: Span): void {
    if (explicit !== undefined) {
      // Rewritten to `<hN id="…">` before parsing: an element heading, outside the heading counter.
      this.elementHeading(depth, title, normalizeCustomId(explicit), excluded, span);
      return;
    }
    if (this.noHeadingIds || depth > 4) return;
    const counted = this.headingCounter.next(slug(title));
    if (excluded) this.add(cleanHeadingId(counted), span, 'heading', title);
    else this.add(cleanHeadingId(this.toc.next(cleanHeadingId(counted) || slug(title))), span, 'heading', title);
  }

  /** A JSX heading `<h2 id="…">` (or one rewritten from `{#id}`). */
  elementHeading(depth: number, title: string, id: string | undefined, excluded: boolean, span: Span): void {
    if (depth <= 4 && !excluded && !this.noHeadingIds) {
      if (title.trim() === '' && id === undefined) return;
      this.add(cleanHeadingId(this.toc.next((id === undefined ? '' : cleanHeadingId(id)) || slug(title))), span, 'heading', title);
      return;
    }
    // Outside the table of contents the element keeps the id it was given, as written.
    if (id !== undefined) this.add(id, span, 'element', title);
  }

  /** `<Update label="…">` and `<Step title="…">` with a heading size: entries of the table of contents. */
  tocComponent(title: string, id: string | undefined, span: Span): void {
    if (title.trim() === '' && id === undefined) return;
    this.add(cleanHeadingId(this.toc.next((id === undefined ? '' : cleanHeadingId(id)) || slug(title))), span, 'component', title);
  }

  tab(title: string | undefined, id: string | undefined, span: Span): void {
    if (id !== undefined) {
      this.add(id, span, 'component', title);
      return;
    }
    if (title === undefined || title === '') return;
    let tabId = this.tabCounter.next(slug(title));
    while (this.claimedTabIds.has(tabId)) tabId = this.tabCounter.next(slug(title));
    this.claimedTabIds.add(tabId);
    this.add(tabId, span, 'component', title);
  }

  /** `<Accordion title>` and `<View title>` (each name its own counter, as the platform keeps one per component). */
  titled(component: string, title: string | undefined, id: string | undefined, span: Span): void {
    if (id !== undefined) {
      this.add(id, span, 'component', title);
      return;
    }
    if (title === undefined || title === '') return;
    const base = this.componentIds.titleId(title, 0);
    const key = `${component}\u0000${base}`;
    const count = this.titleCounts.get(key) ?? 0;
    this.titleCounts.set(key, count + 1);
    this.add(this.componentIds.titleId(title, count), span, 'component', title);
  }

  field(component: string, attributes: ReadonlyMap<string, string>, span: Span): void {
    const explicit = attributes.get('id');
    if (explicit !== undefined) {
      this.add(explicit, span, 'component', explicit);
      return;
    }
    const name = component === 'ResponseField' ? attributes.get('name') : FIELD_NAME_ATTRIBUTES.map((a) => attributes.get(a)).find((v) => v !== undefined && v !== '');
    if (name === undefined || name === '') return;
    const base = this.componentIds.fieldId(name, 0);
    let count = this.fieldCounts.get(base) ?? 0;
    let id = this.componentIds.fieldId(name, count);
    while (this.claimedFieldIds.has(id)) {
      count += 1;
      id = this.componentIds.fieldId(name, count);
    }
    this.fieldCounts.set(base, count + 1);
    this.claimedFieldIds.add(id);
    this.add(id, span, 'component', name);
  }

  /** Any other element with an `id`: an HTML element's reaches the page; a component's does unless it is known to drop it. */
  element(name: string, id: string, span: Span): void {
    if (WITHOUT_ID.has(name)) return;
    this.add(id, span, 'element');
  }
}

export function isFieldComponent(name: string): boolean {
  return FIELD_COMPONENTS.has(name);
}
