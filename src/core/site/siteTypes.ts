/** The site model's plain data: what one file says (its facts), and what the checks find. */

/** A place in a file: line and column from 1 (columns in UTF-16 code units, as editors count), offset from 0. */
export interface Position {
  line: number;
  column: number;
  offset: number;
}

export interface Span {
  start: Position;
  end: Position;
}

/** How a link was written, which decides how it resolves and how a move rewrites it. */
export type LinkVia =
  /** `[text](target)` */
  | 'markdown'
  /** `![alt](target)` */
  | 'image'
  /** `[label]: target` (reference links use it) */
  | 'definition'
  /** `href="…"` or `src="…"` on a JSX element */
  | 'attribute'
  /** `import X from '…'` */
  | 'import'
  /** `<Snippet file="…" />` (the older snippet syntax: relative to `snippets/`) */
  | 'snippetFile';

export interface LinkFact {
  /** The target as the parser read it (escapes and character references resolved). */
  target: string;
  via: LinkVia;
  /** Exactly the written target (no brackets or quotes): what a diagnostic underlines and a move replaces. */
  span: Span;
  /** The JSX element and attribute, for `attribute` links (`Card`, `href`). */
  element?: string;
  attribute?: string;
}

/**
 * How a fragment must be written to reach this anchor: `cleaned` ids come from headings (the
 * heading component decodes and cleans its id), `raw` ids are used as written (tabs, accordions,
 * fields, HTML elements). Either way a browser tries the fragment as written, then decoded.
 */
export interface AnchorFact {
  id: string;
  /** Where it is made: the heading, or the element. */
  span: Span;
  kind: 'heading' | 'component' | 'element';
  /** The heading's text or the component's title, for hovers and "did you mean". */
  title?: string;
}

export interface ParseProblem {
  message: string;
  span: Span;
}

/** Everything the checks need from one page or snippet; plain data (sent between threads, cached by content). */
export interface FileFacts {
  anchors: AnchorFact[];
  links: LinkFact[];
  /** The parser's complaint when the file is not valid MDX (then `anchors` and `links` are empty). */
  parseError?: ParseProblem;
}

export type Severity = 'error' | 'warning' | 'info' | 'hint';

export type ProblemCode =
  | 'parse-error'
  | 'link-missing'
  | 'anchor-missing'
  | 'snippet-missing'
  | 'link-backslash'
  | 'link-via-redirect'
  | 'nav-missing-page'
  | 'page-not-in-nav'
  | 'redirect-missing-destination'
  | 'redirect-loop'
  | 'redirect-chain'
  | 'redirect-shadows-page'
  | 'config-invalid';

export interface Problem {
  code: ProblemCode;
  severity: Severity;
  /** The file, relative to the docs root, with forward slashes. */
  file: string;
  span: Span;
  /** What is wrong and what to do (English unless the core's l10n is configured). */
  message: string;
  /** The link target, navigation entry or redirect source the problem is about, as written. */
  target?: string;
  /** Where it leads instead (a redirect's final URL), or what it could have meant, nearest first. */
  suggestions?: string[];
}
