/** A problem's parts: its code's default severity, and how one is made. Pure. */
import type { Problem, ProblemCode, Severity, Span } from './siteTypes';

/** Each code's severity unless settings say otherwise. */
export const DEFAULT_SEVERITY: Readonly<Record<ProblemCode, Severity>> = {
  'parse-error': 'error',
  'link-missing': 'error',
  'anchor-missing': 'error',
  'snippet-missing': 'error',
  'link-backslash': 'warning',
  'link-via-redirect': 'hint',
  'nav-missing-page': 'error',
  'page-not-in-nav': 'info',
  'redirect-missing-destination': 'error',
  'redirect-loop': 'error',
  'redirect-chain': 'warning',
  'redirect-shadows-page': 'warning',
  'config-invalid': 'error',
};

export function problem(code: ProblemCode, file: string, span: Span, message: string, extra: { target?: string; suggestions?: string[] } = {}): Problem {
  const p: Problem = { code, severity: DEFAULT_SEVERITY[code], file, span, message };
  if (extra.target !== undefined) p.target = extra.target;
  if (extra.suggestions !== undefined && extra.suggestions.length > 0) p.suggestions = extra.suggestions;
  return p;
}
