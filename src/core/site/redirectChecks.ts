/**
 * The checks of `docs.json` redirects: a destination that leads nowhere, a loop, a chain (a
 * destination that is itself redirected), and a source that is still a page (which the redirect
 * hides: readers never see it). A destination with `:param` or `*` is not followed (its pages
 * depend on the request); an external one is not checked. Pure.
 */
import * as l10n from '@vscode/l10n';
import { problem } from './problems';
import { urlOfPage } from './files';
import type { SiteModel } from './model';
import { normalPath, splitTarget } from './resolve';
import { nearest } from './suggest';
import type { Problem } from './siteTypes';

const PATTERN = /[:*]/;
const SCHEME = /^[a-z][a-z0-9+.-]*:|^\/\//i;

export function redirectProblems(model: SiteModel): Problem[] {
  const problems: Problem[] = [];
  const resolver = model.resolver;
  for (const entry of model.config.redirects) {
    const sourcePath = splitTarget(entry.source).path;
    if (!PATTERN.test(sourcePath)) {
      const shadowed = resolver.filesFor(normalPath(sourcePath));
      // Only the first rule for a path applies; a later duplicate is not what shadows the page.
      if (shadowed?.page === true && resolver.redirectOf(normalPath(sourcePath)) !== undefined) {
        problems.push(problem('redirect-shadows-page', entry.file, entry.sourceSpan, l10n.t('{0} is redirected, so its page {1} is never shown: delete the page, or the redirect.', entry.source, shadowed.file), { target: entry.source }));
      }
    }
    if (SCHEME.test(entry.destination)) continue;
    const { path, fragment } = splitTarget(entry.destination);
    if (PATTERN.test(path)) continue;
    const resolved = resolver.resolvePath(path, fragment);
    if (resolved.kind === 'missing' && resolved.loop === true) {
      problems.push(problem('redirect-loop', entry.file, entry.sourceSpan, l10n.t('The redirect from {0} goes round in a loop ({1}): readers get an error page. Point one of them at a page.', entry.source, loopPath([entry.source, ...resolved.via, resolved.path]).join(' → ')), { target: entry.source }));
    } else if (resolved.kind === 'missing') {
      const suggestions = nearest(resolved.path, model.allFiles().flatMap((f) => model.urlOf(f) ?? []));
      const hint = suggestions.length > 0 ? l10n.t(' Did you mean {0}?', suggestions[0] ?? '') : '';
      problems.push(problem('redirect-missing-destination', entry.file, entry.destinationSpan, l10n.t('The redirect from {0} leads to {1}, which is no page or file of the site: fix the destination.{2}', entry.source, resolved.path, hint), { target: entry.destination, suggestions }));
    } else if ((resolved.kind === 'page' || resolved.kind === 'file') && resolved.via.length > 0) {
      const final = resolved.kind === 'page' ? urlOfPage(resolved.file) : `/${resolved.file}`;
      problems.push(problem('redirect-chain', entry.file, entry.destinationSpan, l10n.t('The redirect from {0} leads to {1}, which is redirected again: point it at {2} directly.', entry.source, entry.destination, final), { target: entry.destination, suggestions: [final] }));
    }
  }
  return problems;
}

/** The chain up to the first path seen twice: `/a → /b → /a`. */
function loopPath(chain: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const path of chain) {
    out.push(path);
    if (seen.has(path)) break;
    seen.add(path);
  }
  return out;
}
