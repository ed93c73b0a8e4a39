/**
 * The checks (site-health.md lists them): each problem with its code, severity and a message
 * that says what to do. Per file (`checkFile`: the links and anchors of one page or snippet, and
 * whether it parses), and for the configuration (`checkConfig`: navigation entries, redirects,
 * pages in no navigation). Results are sorted (`sortProblems`), so a run gives the same output
 * every time. External links are not checked. Pure: the model in, problems out.
 */
import * as l10n from '@vscode/l10n';
import type { SiteModel } from './model';
import { nearest } from './suggest';
import { problem } from './problems';
import type { LinkFact, Problem, ProblemCode, Severity } from './siteTypes';
import { urlOfPage } from './files';
import { redirectProblems } from './redirectChecks';

export { DEFAULT_SEVERITY, problem } from './problems';

export interface CheckOptions {
  /** Severity per code; `off` leaves the code out. */
  severities?: Partial<Record<ProblemCode, Severity | 'off'>>;
}

/** Applies the severities of the options (and drops what is off). */
export function withSeverities(problems: Problem[], options: CheckOptions = {}): Problem[] {
  const chosen = options.severities ?? {};
  const out: Problem[] = [];
  for (const p of problems) {
    const severity = chosen[p.code] ?? p.severity;
    if (severity === 'off') continue;
    out.push(severity === p.severity ? p : { ...p, severity });
  }
  return out;
}

export function sortProblems(problems: Problem[]): Problem[] {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return problems.sort((a, b) => cmp(a.file, b.file) || a.span.start.offset - b.span.start.offset || cmp(a.code, b.code) || cmp(a.target ?? '', b.target ?? '') || cmp(a.message, b.message));
}

function pageUrls(model: SiteModel): string[] {
  return model.allFiles().flatMap((f) => {
    const url = model.urlOf(f);
    return url === undefined ? [] : [url];
  });
}

/** The problems of one page or snippet. */
export function checkFile(model: SiteModel, file: string): Problem[] {
  const facts = model.factsOf(file);
  if (facts === undefined) return [];
  if (facts.parseError !== undefined) {
    return [problem('parse-error', file, facts.parseError.span, l10n.t('This file is not valid MDX: {0}. The platform cannot build this page until it is fixed; its links are not checked meanwhile.', facts.parseError.message))];
  }
  const problems: Problem[] = [];
  for (const link of facts.links) problems.push(...checkLink(model, file, link));
  return problems;
}

function checkLink(model: SiteModel, file: string, link: LinkFact): Problem[] {
  const problems: Problem[] = [];
  const target = link.target;
  if (target.includes('\\') && !/^[a-z][a-z0-9+.-]*:/i.test(target)) {
    problems.push(problem('link-backslash', file, link.span, l10n.t('"{0}" uses \\ between folders: write / instead (browsers turn \\ into /, but other tools and the platform\'s checks do not).', target), { target, suggestions: [target.replace(/\\/g, '/')] }));
  }
  const resolved = model.resolveLink(file, link);
  switch (resolved.kind) {
    case 'external':
    case 'unchecked':
    case 'offsite':
      return problems;
    case 'missing': {
      if (link.via === 'import' || link.via === 'snippetFile') {
        problems.push(problem('snippet-missing', file, link.span, l10n.t('The snippet "{0}" does not exist: fix the path or create the file.', target), { target }));
        return problems;
      }
      if (resolved.loop === true) {
        problems.push(problem('link-missing', file, link.span, l10n.t('"{0}" goes round a redirect loop ({1}): fix the redirects in docs.json.', target, [...resolved.via, resolved.path].join(' → ')), { target }));
        return problems;
      }
      // A URL the site's OpenAPI navigation may generate is not known here: not reported.
      if (model.config.generatesPages && resolved.via.length === 0) return problems;
      const suggestions = nearest(resolved.path, pageUrls(model));
      const hint = suggestions.length > 0 ? l10n.t(' Did you mean {0}?', suggestions[0] ?? '') : '';
      problems.push(
        problem(
          'link-missing',
          file,
          link.span,
          resolved.via.length > 0
            ? l10n.t('"{0}" is redirected to {1}, which does not exist: fix the link or the redirect.{2}', target, resolved.path, hint)
            : l10n.t('"{0}" leads to no page or file of the site ({1}): fix the link, create the page, or add a redirect.{2}', target, resolved.path, hint),
          { target, suggestions },
        ),
      );
      return problems;
    }
    case 'file':
      return problems;
    case 'page': {
      if (resolved.via.length > 0) {
        const final = `${urlOfPage(resolved.file)}${resolved.fragment === undefined ? '' : `#${resolved.fragment}`}`;
        problems.push(problem('link-via-redirect', file, link.span, l10n.t('"{0}" goes through a redirect: link to {1} directly.', target, final), { target, suggestions: [final] }));
      }
      if (resolved.fragment !== undefined) problems.push(...checkAnchor(model, file, link, resolved.file, resolved.fragment));
      return problems;
    }
  }
}

function decoded(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

function checkAnchor(model: SiteModel, file: string, link: LinkFact, page: string, fragment: string): Problem[] {
  // A browser looks for the fragment as written, then percent-decoded.
  const wanted = decoded(fragment);
  if (model.hasAnchor(page, fragment) || model.hasAnchor(page, wanted)) return [];
  const anchors = model.anchorsOf(page);
  const suggestions = nearest(wanted, anchors.map((a) => a.id));
  const where = page === file ? l10n.t('this page') : urlOfPage(page);
  const hint = suggestions.length > 0 ? l10n.t(' Did you mean #{0}?', suggestions[0] ?? '') : '';
  return [problem('anchor-missing', file, link.span, l10n.t('No heading or id on {0} makes the anchor #{1}: the link opens the page but does not scroll.{2}', where, fragment, hint), { target: link.target, suggestions })];
}

/** The problems of `docs.json` and the files it names: navigation, redirects, pages in no navigation. */
export function checkConfig(model: SiteModel): Problem[] {
  const config = model.config;
  const problems: Problem[] = config.problems.map((p) => problem('config-invalid', p.file, p.span, p.message));
  const listed = new Set<string>();
  for (const entry of config.pages) {
    if (entry.openapi) continue;
    const page = entry.page.replace(/^\/+/, '').replace(/\/+$/, '');
    const found = model.resolver.filesFor(`/${page}`);
    if (found === undefined || !found.page) {
      const suggestions = nearest(page, model.allFiles().flatMap((f) => (model.urlOf(f) === undefined ? [] : [f.replace(/\.mdx?$/i, '')])));
      const hint = suggestions.length > 0 ? l10n.t(' Did you mean "{0}"?', suggestions[0] ?? '') : '';
      problems.push(problem('nav-missing-page', entry.file, entry.span, l10n.t('The navigation lists "{0}", but no page file {0}.mdx or {0}.md exists: fix the entry or create the page.{1}', page, hint), { target: entry.page, suggestions }));
      continue;
    }
    listed.add(found.file);
  }
  problems.push(...redirectProblems(model));
  for (const file of model.allFiles()) {
    if (model.urlOf(file) === undefined || listed.has(file)) continue;
    problems.push(problem('page-not-in-nav', file, { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 1, offset: 0 } }, l10n.t('This page is in no navigation: readers reach it only by a link or its URL. Add it to docs.json, or leave it out on purpose.')));
  }
  return problems;
}

/** Every problem of the site, with the options' severities, sorted. */
export function checkSite(model: SiteModel, options: CheckOptions = {}): Problem[] {
  const problems: Problem[] = [];
  for (const file of model.parsedFiles()) problems.push(...checkFile(model, file));
  problems.push(...checkConfig(model));
  return sortProblems(withSeverities(problems, options));
}
