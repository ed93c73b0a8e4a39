/**
 * Site health (issue 38): the docs site in a folder as a model, and its problems. The one way in
 * for the editor, the CLI and the Action; vscode-free.
 *
 * How to use it (the editor):
 * 1. `loadSite(root, { workerScript, threads: 2, cache })` reads the folder (the platform's
 *    ignore rules applied), reads `docs.json` and what it `$ref`s, and parses every page and
 *    snippet on worker threads (`workerScript`: dist/siteWorker.js beside the extension), from
 *    the content-keyed `FactsCache` when a text is unchanged. Nothing runs on the calling thread
 *    but reading files. It returns the `SiteModel`.
 * 2. `new SiteChecker(model, await loadLibraries(), { severities })`: `all()` gives every file's
 *    problems (`Problem`: code, severity, file, span with line/column/offset, message, target,
 *    suggestions); then `changeText(file, text)` on each edit of a page or snippet (an unsaved
 *    document's text), `addFile`/`removeFile` on creates and deletes, `changeConfig(readFile)`
 *    when docs.json or a file it names changes. Each returns only the files it affects, each
 *    with its whole new list (empty: clear it). Spans are 1-based lines and UTF-16 columns.
 * 3. Hovers and go to definition: `model.resolveLink(file, link)` for a link of
 *    `model.factsOf(file).links` (each with its exact `span`): a page (file, fragment, redirects
 *    passed), another file, a missing path, or external; `model.anchorsOf(page)` gives the
 *    anchors a fragment can name, each with the span of the heading or element that makes it.
 *    Quick fixes: a problem's `suggestions` (nearest pages or anchors, or a redirect's final URL).
 * 4. Moves (`planMove(model, from, to)`): the exact text edits of every link to a moved page or
 *    folder, its `docs.json` navigation entries, and the redirects from its old URLs (every
 *    locale), as plain data for one WorkspaceEdit; `applyEdits` applies them to texts (tests).
 * 5. The navigation tree for a Site view: `model.config.navigation` (`NavNode`s: languages,
 *    versions, tabs, anchors, dropdowns, products, menus, groups, pages; each with its file and
 *    span in docs.json), and `model.urlOf(file)` for pages in no navigation (`page-not-in-nav`).
 * Formats for CI: format.ts. The platform's rules, with their evidence: RULES.md beside this file.
 */
export { FactsCache, defaultCacheFile } from './cache';
export { checkSite, DEFAULT_SEVERITY, type CheckOptions } from './checks';
export type { NavNode, PageEntry, RedirectEntry, SiteConfig } from './config';
export { DocsRootError } from './errors';
export { loadLibraries, type Libraries } from './libraries';
export { listSiteFiles, loadSite, type LoadOptions } from './load';
export { SiteModel } from './model';
export { applyEdits, planMove, type MovePlan, type TextEdit } from './move';
export type { Resolution } from './resolve';
export { SiteChecker, type ProblemsByFile } from './session';
export type { AnchorFact, FileFacts, LinkFact, Problem, ProblemCode, Severity, Span } from './siteTypes';
