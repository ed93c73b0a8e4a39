/**
 * The problems as the CLI and the Action print them: `text` (one line each and a summary),
 * `json` (the problems as data), `sarif` (SARIF 2.1.0, for code scanning), and `github` (one
 * workflow command per problem, which a GitHub runner turns into an annotation on the line).
 * Messages quote the site's files (a link target, a heading), so they are untrusted: in `github`
 * every value is made safe for a runner's log here (no line break, no control character, no
 * `::` command of its own); `text` goes through the CLI's terminal guard. Pure.
 */
import * as l10n from '@vscode/l10n';
import { DEFAULT_SEVERITY } from './problems';
import { forTerminal } from '../untrusted';
import type { Problem, ProblemCode, Severity } from './siteTypes';

export type Format = 'text' | 'json' | 'sarif' | 'github';
export const FORMATS: readonly Format[] = ['text', 'json', 'sarif', 'github'];

export interface Summary {
  errors: number;
  warnings: number;
  infos: number;
  hints: number;
  files: number;
}

export function summarize(problems: readonly Problem[], files: number): Summary {
  const count = (s: Severity) => problems.filter((p) => p.severity === s).length;
  return { errors: count('error'), warnings: count('warning'), infos: count('info'), hints: count('hint'), files };
}

export function summaryLine(summary: Summary): string {
  return l10n.t('{0} errors, {1} warnings, {2} notes, {3} hints in {4} files.', summary.errors, summary.warnings, summary.infos, summary.hints, summary.files);
}

export function formatText(problems: readonly Problem[], summary: Summary): string {
  const lines = problems.map((p) => `${p.file}:${p.span.start.line}:${p.span.start.column}: ${p.severity} ${p.code}: ${p.message}`);
  return `${[...lines, summaryLine(summary)].join('\n')}\n`;
}

export function formatJson(problems: readonly Problem[], summary: Summary): string {
  return `${JSON.stringify({ version: 1, summary, problems }, null, 2)}\n`;
}

/** `%`, CR and LF in a workflow command's message; `:` and `,` too in a property (as @actions/core escapes them). */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** One line of text, safe in a runner's log: control characters shown as escapes, line breaks as blanks. */
function oneLine(text: string): string {
  return forTerminal(text.replace(/[\r\n\u2028\u2029]+/g, ' '));
}

const GITHUB_LEVEL: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice', hint: 'notice' };

export function formatGithub(problems: readonly Problem[], summary: Summary, root: string): string {
  const prefix = root === '' || root === '.' ? '' : `${root.replace(/\\/g, '/').replace(/\/+$/, '')}/`;
  const lines = problems.map((p) => {
    const props = [
      `file=${escapeProperty(oneLine(prefix + p.file))}`,
      `line=${p.span.start.line}`,
      `col=${p.span.start.column}`,
      `endLine=${p.span.end.line}`,
      `endColumn=${p.span.end.column}`,
      `title=${escapeProperty(`docs-admin ${p.code}`)}`,
    ].join(',');
    return `::${GITHUB_LEVEL[p.severity]} ${props}::${escapeData(oneLine(p.message))}`;
  });
  return `${[...lines, oneLine(summaryLine(summary))].join('\n')}\n`;
}

const SARIF_LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note', hint: 'note' };

/** Each code's one-line description, for SARIF's rules. */
function ruleDescription(code: ProblemCode): string {
  switch (code) {
    case 'parse-error':
      return l10n.t('A page or snippet that is not valid MDX.');
    case 'link-missing':
      return l10n.t('A link to a page or file that does not exist.');
    case 'anchor-missing':
      return l10n.t('A link to an anchor that no heading or id of the page makes.');
    case 'snippet-missing':
      return l10n.t('An import of a snippet that does not exist.');
    case 'link-backslash':
      return l10n.t('A link written with \\ between folders.');
    case 'link-via-redirect':
      return l10n.t('A link that goes through a redirect.');
    case 'nav-missing-page':
      return l10n.t('A navigation entry for a page that does not exist.');
    case 'page-not-in-nav':
      return l10n.t('A page in no navigation.');
    case 'redirect-missing-destination':
      return l10n.t('A redirect to a page that does not exist.');
    case 'redirect-loop':
      return l10n.t('A redirect loop.');
    case 'redirect-chain':
      return l10n.t('A redirect to a URL that is redirected again.');
    case 'redirect-shadows-page':
      return l10n.t('A redirect whose source is still a page.');
    case 'config-invalid':
      return l10n.t('docs.json, or a file it names, that cannot be read.');
  }
}

export function formatSarif(problems: readonly Problem[], version: string): string {
  const codes = Object.keys(DEFAULT_SEVERITY) as ProblemCode[];
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'docs-admin',
            version,
            informationUri: 'https://github.com/docs-admin/docs-admin/blob/main/docs/site-health.md',
            rules: codes.map((code) => ({ id: code, shortDescription: { text: ruleDescription(code) }, defaultConfiguration: { level: SARIF_LEVEL[DEFAULT_SEVERITY[code]] } })),
          },
        },
        columnKind: 'utf16CodeUnits',
        results: problems.map((p) => ({
          ruleId: p.code,
          ruleIndex: codes.indexOf(p.code),
          level: SARIF_LEVEL[p.severity],
          message: { text: p.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: p.file.split('/').map(encodeURIComponent).join('/'), uriBaseId: 'DOCSROOT' },
                region: { startLine: p.span.start.line, startColumn: p.span.start.column, endLine: p.span.end.line, endColumn: p.span.end.column },
              },
            },
          ],
        })),
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
