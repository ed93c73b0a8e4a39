/**
 * The docs sites of the workspace: each folder holding a `docs.json` is a docs root, and its
 * `.md` / `.mdx` files are its pages (core/analytics/mapping.ts maps their URL paths). Found on
 * first need (never at activation), then kept, and found again when a `docs.json` or a page is
 * created, deleted or (for `docs.json`) changed. With several roots, a path that two of them
 * serve is not guessed: it is unmatched.
 */
import { realpath } from 'node:fs/promises';
import * as vscode from 'vscode';
import { DocsJsonError, EMPTY_CONFIG, parseDocsJson } from '../../core/analytics/docsJson';
import { MAX_DOCS_JSON_BYTES, readDocsJsonFile } from '../../core/analytics/docsJsonFile';
import { DocsSite, type PathMatch } from '../../core/analytics/mapping';
import type { Logger } from '../../core/log';

export interface DocsRoot {
  /** The folder holding docs.json. */
  uri: vscode.Uri;
  site: DocsSite;
  /** Why docs.json could not be used, when it could not (its redirects and languages are then ignored). */
  problem?: string;
}

const EXCLUDE = '**/{node_modules,.git,out,dist}/**';
const MAX_ROOTS = 20;
const MAX_PAGES = 50_000;

/**
 * A docs.json's text: on disk, only a regular file whose real path is inside its workspace
 * folder, of a sane size (core/analytics/docsJsonFile.ts: a FIFO or `/dev/zero` behind the name
 * would hang the scan); elsewhere (a virtual workspace), a file of a sane size. Throws why not.
 */
async function readConfig(config: vscode.Uri): Promise<string> {
  const shown = vscode.workspace.asRelativePath(config, true);
  if (config.scheme === 'file') {
    const folder = vscode.workspace.getWorkspaceFolder(config);
    const within = folder?.uri.scheme === 'file' ? await realpath(folder.uri.fsPath).catch(() => undefined) : undefined;
    const read = await readDocsJsonFile(config.fsPath, shown, within);
    if (!read.ok) throw new DocsJsonError(`${read.reason}.`);
    return read.text;
  }
  const stat = await vscode.workspace.fs.stat(config);
  if ((stat.type & vscode.FileType.File) === 0) throw new DocsJsonError(vscode.l10n.t('{0} is not a regular file: it was not read.', shown));
  if (stat.size > MAX_DOCS_JSON_BYTES) throw new DocsJsonError(vscode.l10n.t('{0} is larger than {1} MiB: it was not read.', shown, MAX_DOCS_JSON_BYTES / 1024 / 1024));
  return Buffer.from(await vscode.workspace.fs.readFile(config)).toString('utf8');
}

export class DocsSites implements vscode.Disposable {
  private roots: Promise<DocsRoot[]> | undefined;
  private known: DocsRoot[] | undefined;
  /** Changes each time the roots are found again (the index built on them is then rebuilt). */
  version = 0;
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly watchers: vscode.Disposable[];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly log: Logger) {
    const config = vscode.workspace.createFileSystemWatcher('**/docs.json');
    const pages = vscode.workspace.createFileSystemWatcher('**/*.{md,mdx}', false, true, false);
    const again = () => this.invalidate();
    this.watchers = [config, pages, config.onDidCreate(again), config.onDidChange(again), config.onDidDelete(again), pages.onDidCreate(again), pages.onDidDelete(again), vscode.workspace.onDidChangeWorkspaceFolders(again), this.emitter];
  }

  /** The roots as last found, without looking (undefined until found once). */
  get current(): DocsRoot[] | undefined {
    return this.known;
  }

  /** The roots, found on first call (and after a change: one still waiting to be looked at is looked at now). */
  find(): Promise<DocsRoot[]> {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.roots = undefined;
    }
    this.roots ??= this.scan().then((roots) => {
      this.known = roots;
      this.version++;
      this.emitter.fire();
      return roots;
    });
    return this.roots;
  }

  /**
   * The root `uri` belongs to, looked for again when no root known holds it: a docs.json written
   * a moment ago is found before its watcher's event, which comes late on a busy machine.
   */
  async rootFor(uri: vscode.Uri): Promise<{ root: DocsRoot; file: string } | undefined> {
    await this.find();
    const known = this.rootOf(uri);
    if (known !== undefined) return known;
    this.roots = undefined;
    await this.find();
    return this.rootOf(uri);
  }

  /** The root a file belongs to (the deepest one holding it), and its path there. */
  rootOf(uri: vscode.Uri): { root: DocsRoot; file: string } | undefined {
    let best: { root: DocsRoot; file: string } | undefined;
    for (const root of this.known ?? []) {
      const base = root.uri.path.endsWith('/') ? root.uri.path : `${root.uri.path}/`;
      if (uri.scheme !== root.uri.scheme || uri.authority !== root.uri.authority || !uri.path.startsWith(base)) continue;
      if (best === undefined || root.uri.path.length > best.root.uri.path.length) best = { root, file: uri.path.slice(base.length) };
    }
    return best;
  }

  /** Where a URL path leads, across the roots: a file of exactly one root (its `file` is then the file's URI), or why not. */
  resolve(path: string): PathMatch {
    const roots = this.known ?? [];
    const results = roots.map((root) => ({ root, match: root.site.resolve(path) }));
    const pages = results.filter((r) => r.match.kind === 'page');
    if (pages.length === 1) {
      const { root, match } = pages[0]!;
      return match.kind === 'page' ? { ...match, file: vscode.Uri.joinPath(root.uri, match.file).toString() } : match;
    }
    if (pages.length > 1) return { kind: 'unmatched', reason: 'ambiguous', path, files: pages.map((p) => (p.match.kind === 'page' ? vscode.Uri.joinPath(p.root.uri, p.match.file).toString() : '')) };
    return results[0]?.match ?? { kind: 'unmatched', reason: 'noFile', path };
  }

  private invalidate(): void {
    if (this.roots === undefined) return;
    // Many files at once (a checkout): one scan after they settle.
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.roots = undefined;
      void this.find();
    }, 500);
  }

  private async scan(): Promise<DocsRoot[]> {
    const configs = await vscode.workspace.findFiles('**/docs.json', EXCLUDE, MAX_ROOTS);
    const roots: DocsRoot[] = [];
    for (const config of configs.sort((a, b) => a.path.localeCompare(b.path))) {
      const folder = vscode.Uri.joinPath(config, '..');
      let parsed = EMPTY_CONFIG;
      let problem: string | undefined;
      try {
        parsed = parseDocsJson(await readConfig(config), vscode.workspace.asRelativePath(config, true));
      } catch (error) {
        problem = error instanceof DocsJsonError ? error.message : vscode.l10n.t('{0} could not be read: {1}', vscode.workspace.asRelativePath(config, true), error instanceof Error ? error.message : String(error));
        this.log.warn(problem);
      }
      const pages = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, '**/*.{md,mdx}'), EXCLUDE, MAX_PAGES);
      const base = folder.path.endsWith('/') ? folder.path : `${folder.path}/`;
      const files = pages.filter((p) => p.path.startsWith(base)).map((p) => p.path.slice(base.length));
      roots.push({ uri: folder, site: new DocsSite(files, parsed), ...(problem === undefined ? {} : { problem }) });
      this.log.info(`Docs root ${vscode.workspace.asRelativePath(folder, true)}: ${files.length} pages, ${parsed.redirects.length} redirects${parsed.languages.length + parsed.versions.length > 0 ? `, copies in ${[...parsed.languages, ...parsed.versions].join(', ')}` : ''}.`);
    }
    return roots;
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const w of this.watchers) w.dispose();
  }
}
