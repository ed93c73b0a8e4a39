/**
 * Text that comes from outside (a server's error, a job's repository or branch, an archive's
 * entry names, a file, a git ref) made safe to show. Every such value passes through one of
 * these before it reaches a person: the raw value goes to the log only.
 *
 * - In a VS Code message (`show*Message`, a progress title, a status bar text), the workbench
 *   renders `[label](https://…)`, `[label](command:…)` and `[label](file:…)` as a link, even in
 *   Restricted Mode: one click on a link in a server's error text could run any command with
 *   any arguments (re-point the base URL, send keys to a terminal). `forMessage` breaks that
 *   syntax, so the text reads the same and nothing in it can be clicked.
 * - In a terminal or a CI log (the CLI's output, the GitHub Action's), escape sequences could
 *   rewrite the screen, and a line starting `::` is a GitHub Actions workflow command
 *   (`::set-output`, `::add-mask::`, `::stop-commands::`; `##[…]` and `##vso[…]` in other
 *   runners). `forTerminal` shows control characters as escapes and defuses such lines.
 */

/** Control and invisible formatting characters (C0, C1, DEL, zero-width, bidirectional overrides, line separators). */
const INVISIBLE = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;

/** A character as an escape a person can read: `\u001b`. */
function escape(c: string): string {
  return `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`;
}

/**
 * For a VS Code message: line breaks and tabs become spaces, other control and invisible
 * characters escapes, and `](` becomes `] (`, which no message renderer takes for a link.
 */
export function forMessage(text: string): string {
  return breakLinks(text.replace(/[\r\n\t]+/g, ' ').replace(INVISIBLE, escape));
}

/** As `forMessage`, line by line: the line breaks of a modal's detail or a tooltip are kept. */
export function forMessageLines(text: string): string {
  return text.split('\n').map(forMessage).join('\n');
}

/** `](` becomes `] (`: no message renderer takes `[label](target)` for a link any more; it reads the same. */
export function breakLinks(text: string): string {
  return text.replace(/\]\(/g, '] (');
}

/**
 * For a terminal or a CI log: line breaks and tabs kept, other control and invisible characters
 * (escape sequences among them) shown as escapes, and a line that a CI runner would take for a
 * command (`::name::`, `##[name]`, `##vso[name]`) broken with a zero-width space after its
 * first character (it reads the same).
 */
export function forTerminal(text: string): string {
  return text
    .replace(/\r\n/g, '\n')
    .replace(/[^\S\n\t ]|[\p{Cc}\p{Cf}\u2028\u2029]/gu, (c) => (c === '\n' || c === '\t' ? c : escape(c)))
    .replace(/^([ \t]*)(::|##\[|##vso\[)/gim, (_, indent: string, token: string) => `${indent}${token[0] ?? ''}\u200b${token.slice(1)}`);
}

/** Characters Markdown gives a meaning to (emphasis, links, code, tables, headings, lists, HTML). */
const MARKDOWN_PUNCTUATION = /[\\`*_{}[\]()#+\-!|~.>:=]/g;
const HTML_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * For Markdown shown as HTML (a GitHub job summary, a pull request comment), as one line of
 * text: line breaks and tabs become spaces, other control and invisible characters escapes, HTML
 * characters entities (no tag, comment or entity of the text's own survives), and every Markdown
 * punctuation character is backslash-escaped, so no emphasis, link, image, code span, table cell,
 * heading or list starts inside it and a bare URL is not turned into a link.
 */
export function forMarkdown(text: string): string {
  return text
    .replace(/[\r\n\t]+/g, ' ')
    .replace(INVISIBLE, escape)
    .replace(MARKDOWN_PUNCTUATION, (c) => `\\${c}`)
    .replace(/[&<"']/g, (c) => HTML_ENTITIES[c] ?? c);
}
