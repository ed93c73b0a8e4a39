/**
 * An extension of the Markdown-to-tree step that keeps where each link target is written, to
 * the character: the destination of a link, an image or a definition (`[a](here)`,
 * `[a]: here`), and the value of a JSX attribute (`href="here"`). The tree itself only knows
 * where the whole link or attribute is; diagnostics and edits need the target alone.
 * Recorded as `data.target` on the node (a link, image or definition) or the attribute.
 */
import type { Point } from 'unist';
import type { CompileContext, Extension, Token } from 'mdast-util-from-markdown' with { 'resolution-mode': 'import' };

export interface TargetSpan {
  start: Point;
  end: Point;
}

function point(p: Token['start']): Point {
  return { line: p.line, column: p.column, offset: p.offset };
}

interface WithTarget {
  url?: string;
  data?: { target?: TargetSpan };
}

function destination(this: CompileContext, token: Token): void {
  const value = this.resume();
  const node = this.stack[this.stack.length - 1] as unknown as WithTarget;
  node.url = value;
  node.data = { ...node.data, target: { start: point(token.start), end: point(token.end) } };
}

/** An attribute's literal value can come in pieces (line endings between them): the span covers them all. */
function attributeValue(this: CompileContext, token: Token): void {
  // What mdast-util-mdx-jsx does with it (the value's text), then its place.
  this.config.enter.data?.call(this, token);
  this.config.exit.data?.call(this, token);
  const tag = (this.data as { mdxJsxTag?: { attributes: WithTarget[] } }).mdxJsxTag;
  const attribute = tag?.attributes[tag.attributes.length - 1];
  if (attribute === undefined) return;
  const known = attribute.data?.target;
  attribute.data = { ...attribute.data, target: { start: known?.start ?? point(token.start), end: point(token.end) } };
}

export function targetPositions(): Extension {
  return {
    exit: {
      resourceDestinationString: destination,
      definitionDestinationString: destination,
      mdxJsxFlowTagAttributeValueLiteralValue: attributeValue,
      mdxJsxTextTagAttributeValueLiteralValue: attributeValue,
    },
  };
}
