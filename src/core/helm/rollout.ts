/**
 * The rollout command, from a template whose parts are settings:
 * `helm upgrade --install ${release} ${chart} -f ${valuesFile}` by default.
 *
 * It runs as one program with a list of arguments, never through a shell: quoting chosen for one
 * shell is wrong in another (the user's default shell may be PowerShell, where `"…$(calc)…"`
 * runs `calc`, or pwsh on Linux, where `'\''` is no escape). The template is split into words
 * here (blanks separate them; `"…"` or `'…'` keep blanks in one), each placeholder's value stays
 * inside its word whatever it holds, and nothing is evaluated. A template with shell syntax
 * (`&&`, `|`, `;`, `>`, `$(…)`, backticks) is refused: put such a pipeline in a script and name
 * the script. A value that starts with `-` is refused, so a release name cannot become a flag
 * (`--post-renderer=./x`).
 */
import * as l10n from '@vscode/l10n';

export interface RolloutParts {
  release: string;
  chart: string;
  valuesFile: string;
  namespace?: string;
}

/** The program and its arguments. */
export interface RolloutArgv {
  program: string;
  args: string[];
}

export class RolloutTemplateError extends Error {}

const PLACEHOLDER = /\$\{(release|chart|valuesFile|namespace)\}/g;

/** The template's words, with their quotes removed; undefined when a quote is not closed. */
function words(template: string): string[] | undefined {
  const out: string[] = [];
  let current: string | undefined;
  let quote: '"' | "'" | undefined;
  for (const c of template) {
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
      else current = (current ?? '') + c;
    } else if (c === '"' || c === "'") {
      quote = c;
      current ??= '';
    } else if (/\s/.test(c)) {
      if (current !== undefined) out.push(current);
      current = undefined;
    } else {
      current = (current ?? '') + c;
    }
  }
  if (quote !== undefined) return undefined;
  if (current !== undefined) out.push(current);
  return out;
}

/** The program and arguments the rollout runs; throws `RolloutTemplateError` with what to change. */
export function rolloutArgv(template: string, parts: RolloutParts, setting = 'docsAdmin.rollout.command'): RolloutArgv {
  // Shell syntax outside a placeholder: the template is the person's, so say what to do instead.
  const bare = template.replace(PLACEHOLDER, '');
  if (/&&|\|\||[|;<>`\n]|\$\(/.test(bare)) {
    throw new RolloutTemplateError(l10n.t('{0} runs one program with its arguments, without a shell: "&&", "|", ";", ">", "$(…)" and backticks are not allowed in it. Put the steps in a script and name the script there.', setting));
  }
  const values: Record<string, string> = { release: parts.release, chart: parts.chart, valuesFile: parts.valuesFile, namespace: parts.namespace ?? '' };
  for (const [name, value] of Object.entries(values)) {
    if (value.startsWith('-')) throw new RolloutTemplateError(l10n.t('The rollout\'s {0} "{1}" starts with "-": it would be taken for an option. Change it in docsAdmin.rollout.{0}.', name, value));
  }
  const split = words(template);
  if (split === undefined) throw new RolloutTemplateError(l10n.t('{0} has a quote that is not closed.', setting));
  const argv = split.map((word) => word.replace(PLACEHOLDER, (_m, name: string) => values[name] ?? ''));
  if (parts.namespace !== undefined && parts.namespace !== '' && !template.includes('${namespace}')) argv.push('--namespace', parts.namespace);
  const [program, ...args] = argv;
  if (program === undefined || program === '') throw new RolloutTemplateError(l10n.t('{0} is empty.', setting));
  return { program, args };
}

/** The command as a person reads it (for a confirmation or a log line), each argument quoted when it needs it. */
export function describeArgv({ program, args }: RolloutArgv): string {
  return [program, ...args].map((a) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(' ');
}
