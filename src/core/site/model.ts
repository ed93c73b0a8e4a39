/**
 * The docs site as one model: its files, the facts of each page and snippet (facts.ts), its
 * configuration (config.ts) and the resolver built on them (resolve.ts). Changes come one file at
 * a time (`setFacts`, `removeFile`, `setConfig`), so the editor keeps one model for a workspace
 * and re-checks only what a change can affect (`affectedBy`). Holds no text, only facts: the
 * corpus's model is a few MiB. No I/O: load.ts reads the folder.
 */
import type { SiteConfig } from './config';
import { kindOf, urlOfPage, type FileKind } from './files';
import { Resolver, type Resolution } from './resolve';
import type { AnchorFact, FileFacts, LinkFact } from './siteTypes';

const SNIPPET_DEPTH = 8;

export class SiteModel {
  private readonly files = new Set<string>();
  private readonly facts = new Map<string, FileFacts>();
  /** Page files another file imports: snippets to the platform, not pages (worked out when first needed). */
  private importedCache: Set<string> | undefined;
  private resolverCache: Resolver | undefined;
  /** page -> the ids of its anchors (built when first asked). */
  private anchorIds = new Map<string, Set<string>>();
  /** target file -> the files whose links lead there (built by `linkIndex`). */
  private reverse: Map<string, Set<string>> | undefined;

  constructor(private configuration: SiteConfig) {}

  get config(): SiteConfig {
    return this.configuration;
  }

  setConfig(config: SiteConfig): void {
    this.configuration = config;
    this.invalidate();
  }

  /** Adds a file of the site (any kind); pages and snippets also need `setFacts`. */
  addFile(file: string): void {
    if (this.files.has(file)) return;
    this.files.add(file);
    this.invalidate();
  }

  removeFile(file: string): void {
    this.files.delete(file);
    this.facts.delete(file);
    this.invalidate();
  }

  /** The facts of a page or snippet (adding the file if new). Returns whether its anchors or imports changed. */
  setFacts(file: string, facts: FileFacts): boolean {
    const before = this.facts.get(file);
    const added = !this.files.has(file);
    this.files.add(file);
    this.facts.set(file, facts);
    this.anchorIds = new Map();
    const importsChanged = before === undefined || importsOf(before) !== importsOf(facts);
    if (added || importsChanged) this.invalidate();
    else this.reverse = undefined;
    return before === undefined || anchorKey(before) !== anchorKey(facts) || importsChanged;
  }

  private invalidate(): void {
    this.resolverCache = undefined;
    this.reverse = undefined;
    this.importedCache = undefined;
    this.anchorIds = new Map();
  }

  private get imported(): Set<string> {
    this.importedCache ??= this.computeImported();
    return this.importedCache;
  }

  private computeImported(): Set<string> {
    const imported = new Set<string>();
    const resolver = new Resolver(this.index(new Set()), []);
    for (const [file, facts] of this.facts) {
      for (const link of facts.links) {
        if (link.via !== 'import' && link.via !== 'snippetFile') continue;
        const target = this.importTarget(link, file, resolver);
        if (target !== undefined && kindOf(target) === 'page') imported.add(target);
      }
    }
    return imported;
  }

  private index(imported: Set<string>) {
    return {
      hasFile: (f: string) => this.files.has(f),
      isPage: (f: string) => this.files.has(f) && kindOf(f) === 'page' && !imported.has(f),
    };
  }

  get resolver(): Resolver {
    this.resolverCache ??= new Resolver(this.index(this.imported), this.configuration.redirects);
    return this.resolverCache;
  }

  allFiles(): string[] {
    return [...this.files].sort();
  }

  hasFile(file: string): boolean {
    return this.files.has(file);
  }

  kind(file: string): FileKind {
    const kind = kindOf(file);
    return kind === 'page' && this.imported.has(file) ? 'snippet' : kind;
  }

  /** The page's URL path, or undefined for a file that is not a page. */
  urlOf(file: string): string | undefined {
    return this.files.has(file) && this.kind(file) === 'page' ? urlOfPage(file) : undefined;
  }

  factsOf(file: string): FileFacts | undefined {
    return this.facts.get(file);
  }

  /** Every parsed file (pages and snippets), sorted. */
  parsedFiles(): string[] {
    return [...this.facts.keys()].sort();
  }

  /** The file an import or `<Snippet file>` names (module paths: with their extension, from the file's folder or the root). */
  importTarget(link: LinkFact, file: string, resolver: Resolver = this.resolver): string | undefined {
    const source = link.target;
    if (link.via === 'snippetFile') return `snippets/${source.replace(/^\/+/, '')}`;
    if (!source.startsWith('/') && !source.startsWith('./') && !source.startsWith('../')) return undefined;
    const base = source.startsWith('/') ? source : `/${file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : ''}/${source}`;
    const path = resolver.resolvePath(base);
    return path.kind === 'file' || path.kind === 'page' ? path.file : undefined;
  }

  /** Where a link of `file` leads (a snippet's relative links are not placed: its page decides). */
  resolveLink(file: string, link: LinkFact): Resolution {
    if (link.via === 'import' || link.via === 'snippetFile') {
      const target = this.importTarget(link, file);
      if (target !== undefined) return { kind: 'file', file: target, path: `/${target}`, via: [] };
      const bare = link.via === 'import' && !link.target.startsWith('/') && !link.target.startsWith('.');
      return bare ? { kind: 'external' } : { kind: 'missing', path: link.target, via: [] };
    }
    return this.resolver.resolve(link.target, file, this.urlOf(file));
  }

  /** The anchors a page shows: its own, then those of the snippets it imports (and theirs). */
  anchorsOf(file: string): AnchorFact[] {
    const anchors: AnchorFact[] = [];
    const seen = new Set<string>();
    const visit = (current: string, depth: number) => {
      if (seen.has(current) || depth > SNIPPET_DEPTH) return;
      seen.add(current);
      const facts = this.facts.get(current);
      if (facts === undefined) return;
      anchors.push(...facts.anchors);
      for (const link of facts.links) {
        if (link.via !== 'import' && link.via !== 'snippetFile') continue;
        const target = this.importTarget(link, current);
        if (target !== undefined) visit(target, depth + 1);
      }
    };
    visit(file, 0);
    return anchors;
  }

  /** Whether the page shows an anchor of this id (memoised `anchorsOf`). */
  hasAnchor(file: string, id: string): boolean {
    let ids = this.anchorIds.get(file);
    if (ids === undefined) this.anchorIds.set(file, (ids = new Set(this.anchorsOf(file).map((a) => a.id))));
    return ids.has(id);
  }

  /** The files whose links lead to `file` (directly, through redirects, or by importing it). */
  linkedFrom(file: string): string[] {
    this.reverse ??= this.linkIndex();
    return [...(this.reverse.get(file) ?? [])].sort();
  }

  private linkIndex(): Map<string, Set<string>> {
    const reverse = new Map<string, Set<string>>();
    for (const [source, facts] of this.facts) {
      for (const link of facts.links) {
        const resolved = this.resolveLink(source, link);
        if (resolved.kind !== 'page' && resolved.kind !== 'file') continue;
        let set = reverse.get(resolved.file);
        if (set === undefined) reverse.set(resolved.file, (set = new Set()));
        set.add(source);
      }
    }
    return reverse;
  }

  /**
   * The files whose problems a change of `file`'s facts can change: itself, and, when its
   * anchors changed, every file linking to it and (for a snippet) to the pages that import it.
   */
  affectedBy(file: string, anchorsChanged: boolean): string[] {
    const affected = new Set([file]);
    if (anchorsChanged) {
      const queue = [file];
      for (let depth = 0; queue.length > 0 && depth <= SNIPPET_DEPTH; depth++) {
        for (const current of queue.splice(0)) {
          for (const source of this.linkedFrom(current)) {
            if (affected.has(source)) continue;
            affected.add(source);
            // A snippet's anchors are its pages' anchors: their linkers are affected too.
            if (this.kind(source) === 'snippet' || this.importsFile(source, current)) queue.push(source);
          }
        }
      }
    }
    return [...affected].sort();
  }

  private importsFile(source: string, target: string): boolean {
    return (this.facts.get(source)?.links ?? []).some((l) => (l.via === 'import' || l.via === 'snippetFile') && this.importTarget(l, source) === target);
  }
}

function importsOf(facts: FileFacts): string {
  return facts.links
    .filter((l) => l.via === 'import' || l.via === 'snippetFile')
    .map((l) => l.target)
    .join('\n');
}

function anchorKey(facts: FileFacts): string {
  return facts.anchors.map((a) => a.id).join('\n');
}
