/**
 * User-facing text of the core and the CLI, through `@vscode/l10n` (the vscode-free half of
 * VS Code's localisation): `t('The folder {0} already holds files.', dir)`. The extension hands
 * it VS Code's bundle for the display language at activation (`configureL10n`); the CLI and the
 * tests leave it unconfigured, which gives the English text with its arguments filled in.
 *
 * Call `t()` when the text is needed, never at module level: a module evaluated before
 * activation would keep the English text.
 */
import * as l10n from '@vscode/l10n';

export const t = l10n.t;

/** The translated strings of the display language (`vscode.l10n.bundle`); nothing to do when undefined. */
export function configureL10n(bundle: Record<string, string> | undefined): void {
  if (bundle !== undefined) l10n.config({ contents: bundle });
}
