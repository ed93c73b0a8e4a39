/**
 * The parsers the site model uses, loaded once: they are ES modules (the unified/micromark
 * family: MIT), which this CommonJS code can only load with `import()`. The bundles (the
 * extension, the CLI, the Action) inline them; the CLI loads them only for `check`.
 *
 * The MDX syntax is the platform's (`remark-mdx` and `remark-gfm` in its renderer), made of its
 * parts: ESM (`import`/`export`, read with acorn and its JSX plugin), JSX, expressions, MDX's
 * changes to Markdown (no HTML, no indented code, no autolinks), frontmatter, and GFM's tables,
 * footnotes, strikethrough and task lists. Two parts are left out on purpose (RULES.md):
 * - GFM's literal autolinks (`www.example.com`): they only make external links, which the checks
 *   leave alone, and cost a third of the parse time;
 * - JavaScript inside `{…}` is not parsed (acorn is given to ESM only): a link in an expression is
 *   not read, and `## Title {#id}` (the platform's explicit heading id, which it rewrites before
 *   parsing) stays one expression node, as it should.
 */
import type { Root } from 'mdast';

export interface Libraries {
  /** Markdown/MDX text to its syntax tree, with positions; throws (with a `place`) on invalid MDX. */
  parse: (text: string) => Root;
  /** `@sindresorhus/slugify` (MIT), the platform's slug library. */
  slugify: (text: string, options: { decamelize: boolean }) => string;
}

export async function loadLibraries(): Promise<Libraries> {
  const [fromMarkdown, esm, expression, jsx, md, frontmatter, table, footnote, strike, task, mdast, acorn, acornJsx, slugify] = await Promise.all([
    import('mdast-util-from-markdown'),
    import('micromark-extension-mdxjs-esm'),
    import('micromark-extension-mdx-expression'),
    import('micromark-extension-mdx-jsx'),
    import('micromark-extension-mdx-md'),
    import('micromark-extension-frontmatter'),
    import('micromark-extension-gfm-table'),
    import('micromark-extension-gfm-footnote'),
    import('micromark-extension-gfm-strikethrough'),
    import('micromark-extension-gfm-task-list-item'),
    loadMdast(),
    import('acorn'),
    import('acorn-jsx'),
    import('@sindresorhus/slugify'),
  ]);
  const acornParser = acorn.Parser.extend((acornJsx.default)());
  const extensions = [
    esm.mdxjsEsm({ acorn: acornParser, acornOptions: { ecmaVersion: 2024, sourceType: 'module' }, addResult: true }),
    expression.mdxExpression({}),
    jsx.mdxJsx({}),
    md.mdxMd(),
    frontmatter.frontmatter(['yaml']),
    table.gfmTable(),
    footnote.gfmFootnote(),
    strike.gfmStrikethrough(),
    task.gfmTaskListItem(),
  ];
  return {
    parse: (text) => fromMarkdown.fromMarkdown(text, { extensions, mdastExtensions: mdast }),
    slugify: (text, options) => slugify.default(text, options),
  };
}

async function loadMdast() {
  const [esm, expression, jsx, frontmatter, table, footnote, strike, task, positions] = await Promise.all([
    import('mdast-util-mdxjs-esm'),
    import('mdast-util-mdx-expression'),
    import('mdast-util-mdx-jsx'),
    import('mdast-util-frontmatter'),
    import('mdast-util-gfm-table'),
    import('mdast-util-gfm-footnote'),
    import('mdast-util-gfm-strikethrough'),
    import('mdast-util-gfm-task-list-item'),
    import('./positions.js'),
  ]);
  return [
    esm.mdxjsEsmFromMarkdown(),
    expression.mdxExpressionFromMarkdown(),
    jsx.mdxJsxFromMarkdown(),
    frontmatter.frontmatterFromMarkdown(['yaml']),
    table.gfmTableFromMarkdown(),
    footnote.gfmFootnoteFromMarkdown(),
    strike.gfmStrikethroughFromMarkdown(),
    task.gfmTaskListItemFromMarkdown(),
    positions.targetPositions(),
  ];
}
