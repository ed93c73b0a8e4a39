/**
 * User-facing text of the core and the CLI, through `@vscode/l10n` (the vscode-free half of
 * VS Code's localisation). The extension hands it VS Code's bundle for the display language at
 * activation (`configureL10n`); the CLI and the tests leave it unconfigured, which gives the
 * English text with its arguments filled in.
 *
 * The shape the string exporter (`npm run l10n`) recognises, and so the only one to use:
 *
 *     import * as l10n from '@vscode/l10n';
 *     l10n.t('The folder {0} already holds files.', dir)
 *
 * It finds `l10n.t(<string literal>, ...)` in a file that imports `@vscode/l10n` itself (a bare
 * `t(...)`, an alias, a re-export from this module, or a first argument that is not one string
 * literal are all skipped without a word). The lint block of src/core and src/cli holds to it.
 *
 * Call `l10n.t()` when the text is needed, never at module level: a module evaluated before
 * activation would keep the English text.
 */
import * as l10n from '@vscode/l10n';

/** The translated strings of one language, keyed by their English text (`vscode.l10n.bundle`). */
export type L10nBundle = Record<string, string>;

/**
 * Uses `bundle` for every text from now on; `undefined` (no translation for the display
 * language, or the CLI) means English.
 */
export function configureL10n(bundle: L10nBundle | undefined): void {
  l10n.config({ contents: bundle ?? {} });
}

/** What `l10n.t` offers: a text in the display language, or in English (`english`). */
export interface Translator {
  t(message: string, ...args: (string | number | boolean)[]): string;
}

/**
 * English whatever the display language, for a text that goes into the log as well as to a
 * person (the log stays English, for support). A function that builds such a text takes a
 * `Translator` parameter named `l10n`, so that its `l10n.t('…')` calls are still exported:
 * `describe(issue, l10n)` for a message, `describe(issue, english)` for the log.
 */
export const english: Translator = {
  t: (message, ...args) => message.replace(/\{(\d+)\}/g, (match, index: string) => (index in args ? String(args[Number(index)]) : match)),
};

/**
 * Two whole sentences, one after the other: what happened, then what to do (a language may
 * join sentences without a space).
 */
export function sentences(first: string, second: string): string {
  return l10n.t({ message: '{0} {1}', args: [first, second], comment: ['Two whole sentences, one after the other (what happened, then what to do).'] });
}
