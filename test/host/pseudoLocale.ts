/**
 * The pseudo-locale run (issue 8: "a translation is one file away"), proved in the real host.
 *
 * A copy of the built extension gets pseudo-translations generated at test time by
 * `vscode-l10n-dev generate-pseudo` (`l10n/bundle.l10n.qps-ploc.json` and
 * `package.nls.qps-ploc.json`: every string accented, placeholders and codicons kept), so they are
 * never in the repository nor in the .vsix. code-server then runs with `--locale qps-ploc`.
 *
 * How code-server picks the display language: the server takes `--locale`, else `locale` in
 * argv.json, else the `vscode.nls.locale` cookie, else the browser's Accept-Language; but the
 * web workbench reports a language other than English (`vscode.env.language`, and the language
 * it asks extension manifests and bundles in) only when a language pack for it is installed:
 * the server serves the workbench that language's messages, which set `_VSCODE_NLS_LANGUAGE`;
 * without a pack it stays `en`. So the run installs a minimal language pack for `qps-ploc` (it
 * translates none of VS Code's own strings) through the workbench, as a person would, in a
 * first window; VS Code records it in `languagepacks.json`; the suite runs in a second window.
 * Installing it with `code-server --install-extension` is not enough: that path does not
 * update `languagepacks.json`.
 *
 * The suite runs from inside the copy (its compiled `out/`, with `node_modules` linked): the
 * extension host binds a test file's `vscode` to the extension whose folder holds it, and
 * `vscode.l10n.bundle` is that extension's translation. Loaded from the repository, the suite
 * would see no bundle at all.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { REPO, runSuite } from './suite';

export const PSEUDO_LOCALE = 'qps-ploc';
export const LANGUAGE_PACK_VARIABLE = 'DOCS_ADMIN_TEST_LANGUAGE_PACK';
/** A folder with what the generator wrote, kept apart from the copy: what the suite expects to see. */
export const TRANSLATIONS_VARIABLE = 'DOCS_ADMIN_TEST_PSEUDO_TRANSLATIONS';

/** What the extension loads at run time (the .vsix holds the same, see .vscodeignore). */
const EXTENSION_FILES = ['package.json', 'package.nls.json', 'l10n', 'dist', 'media'];

function node(args: string[], cwd: string): void {
  const result = spawnSync(process.execPath, args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}${result.stderr}`);
}

/**
 * A copy of the built extension with generated pseudo-translations beside its English files,
 * and the compiled tests; the generated files are also copied to `expected`, so that a suite
 * checking the extension's copy is not reading the copy itself.
 */
export function pseudoExtension(dir: string, expected: string): string {
  for (const name of [...EXTENSION_FILES, 'out']) cpSync(join(REPO, name), join(dir, name), { recursive: true });
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
  node([join(REPO, 'node_modules', '@vscode', 'l10n-dev', 'dist', 'cli.js'), 'generate-pseudo', '--language', PSEUDO_LOCALE, 'l10n/bundle.l10n.json', 'package.nls.json'], dir);
  for (const generated of [`l10n/bundle.l10n.${PSEUDO_LOCALE}.json`, `package.nls.${PSEUDO_LOCALE}.json`]) {
    if (!existsSync(join(dir, generated))) throw new Error(`vscode-l10n-dev generate-pseudo did not write ${generated}`);
    cpSync(join(dir, generated), join(expected, basename(generated)));
  }
  return dir;
}

/** A language pack for the pseudo-locale, packaged as a .vsix (it translates nothing of VS Code). */
export function pseudoLanguagePack(dir: string): string {
  mkdirSync(join(dir, 'translations'), { recursive: true });
  const manifest = {
    name: 'pseudo-language-pack',
    displayName: 'Pseudo Language Pack (Docs Admin tests)',
    description: `Makes ${PSEUDO_LOCALE} a display language, for the pseudo-locale test.`,
    publisher: 'docs-admin-test',
    version: '1.0.0',
    license: 'MIT',
    engines: { vscode: '^1.95.0' },
    categories: ['Language Packs'],
    contributes: {
      localizations: [{ languageId: PSEUDO_LOCALE, languageName: 'Pseudo Language', localizedLanguageName: 'Pseudo', translations: [{ id: 'vscode', path: './translations/main.i18n.json' }] }],
    },
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(join(dir, 'translations', 'main.i18n.json'), JSON.stringify({ version: '1.0.0', contents: {} }));
  writeFileSync(join(dir, 'README.md'), 'A language pack for the pseudo-locale test of Docs Admin.\n');
  const vsix = join(dir, '..', 'pseudo-language-pack.vsix');
  node([join(REPO, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', vsix], dir);
  return vsix;
}

/** Runs test/integration/l10n in the pseudo-locale; resolves with its exit code. */
export async function runPseudoLocale(): Promise<number> {
  const work = mkdtempSync(join(tmpdir(), 'docs-admin-pseudo-'));
  try {
    const translations = join(work, 'translations');
    mkdirSync(translations);
    const extension = pseudoExtension(join(work, 'extension'), translations);
    const pack = pseudoLanguagePack(join(work, 'language-pack'));
    const suites = join(extension, 'out', 'test', 'integration', 'l10n');
    return await runSuite({
      suite: join(suites, 'index.js'),
      prepare: join(suites, 'installLanguagePack.js'),
      label: `pseudo-locale (${PSEUDO_LOCALE})`,
      extension,
      serverArgs: ['--locale', PSEUDO_LOCALE],
      env: { [LANGUAGE_PACK_VARIABLE]: pack, [TRANSLATIONS_VARIABLE]: translations },
      screenFile: join(work, 'screen.json'),
    });
  } finally {
    // The generated translations go with the copy: nothing of them is left to commit or ship.
    rmSync(work, { recursive: true, force: true });
  }
}
