/**
 * A translation is one file away: in a window whose display language is the pseudo-locale, with
 * nothing but `l10n/bundle.l10n.qps-ploc.json` and `package.nls.qps-ploc.json` added to the
 * extension (generated at test time, see test/host/pseudoLocale.ts), every layer a person reads
 * is translated: the manifest (command palette, view headers), the editor side
 * (`vscode.l10n.t`), the core (`@vscode/l10n`, configured at activation) and the extraction's
 * worker thread (handed the bundle). Each check reads what the window shows and compares it with
 * what the generated files say, and checks that the English original was not shown instead.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as vscode from 'vscode';
import { rawTar } from '../../unit/support/archives';
import { EXTENSION_ID, fromCode, waitFor } from '../support';
import { shownTexts, waitForShown } from './screen';

const LANGUAGE = 'qps-ploc';

type Strings = Record<string, string>;

function readJson(path: string): Strings {
  return JSON.parse(readFileSync(path, 'utf8')) as Strings;
}

/** The package.nls.json keys of the contributed commands' titles. */
function commandTitleKeys(root: string): string[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { contributes: { commands: { title: string }[] } };
  return manifest.contributes.commands.map((c) => c.title.replace(/^%(.*)%$/, '$1'));
}

/** `{0}`, `{1}` filled in, as `l10n.t` does. */
function format(text: string, args: string[]): string {
  return text.replace(/\{(\d+)\}/g, (match, index: string) => args[Number(index)] ?? match);
}

describe(`the display language ${LANGUAGE}: a translation is one file away`, function () {
  this.timeout(60_000);
  let root: string;
  let english: Strings;
  let pseudo: Strings;
  let manifestEnglish: Strings;
  let manifestPseudo: Strings;
  let dir: string;

  /** The text in both languages, with its arguments filled in. */
  const both = (key: string, ...args: string[]) => {
    const translated = pseudo[key];
    assert.ok(translated !== undefined, `the generated bundle translates "${key}"`);
    assert.ok(english[key] !== undefined, `l10n/bundle.l10n.json holds "${key}"`);
    return { english: format(key, args), pseudo: format(translated, args) };
  };
  /** Runs a command that fails with a message, and opens the notification centre (toasts do not always render headless). */
  const failing = async (id: string, ...args: unknown[]) => {
    await vscode.commands.executeCommand('notifications.clearAll');
    assert.equal(await vscode.commands.executeCommand(id, ...args), undefined, `${id} failed`);
    await vscode.commands.executeCommand('notifications.showList');
  };
  /** Shown in the pseudo-locale, and its English original nowhere on screen. */
  const assertShown = async (what: string, text: { english: string; pseudo: string }) => {
    assert.notEqual(text.pseudo, text.english, `${what}: the generated translation differs from the English`);
    const shown = await waitForShown(what, text.pseudo);
    assert.ok(!shown.includes(text.english), `${what}: the English "${text.english}" was shown: ${shown}`);
    const leaked = shownTexts().find((t) => t.includes(text.english));
    assert.equal(leaked, undefined, `${what}: the English original is on screen`);
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-pseudo-it-'));
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is loaded`);
    await extension.activate();
    root = extension.extensionPath;
    english = readJson(join(root, 'l10n', 'bundle.l10n.json'));
    manifestEnglish = readJson(join(root, 'package.nls.json'));
    // What the generator wrote, from a folder of its own (the copy in the extension is what is under test).
    const generated = process.env.DOCS_ADMIN_TEST_PSEUDO_TRANSLATIONS;
    assert.ok(generated, 'DOCS_ADMIN_TEST_PSEUDO_TRANSLATIONS names the generated translations (run through test/host/run.ts)');
    pseudo = readJson(join(generated, `bundle.l10n.${LANGUAGE}.json`));
    manifestPseudo = readJson(join(generated, `package.nls.${LANGUAGE}.json`));
  });

  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it(`runs in ${LANGUAGE}, with the extension's translation loaded`, () => {
    assert.equal(vscode.env.language, LANGUAGE);
    const bundle = vscode.l10n.bundle;
    assert.ok(bundle, 'vscode.l10n.bundle is defined');
    assert.deepEqual(Object.keys(bundle).sort(), Object.keys(english).sort(), "the bundle holds the extension's keys");
    assert.ok(vscode.l10n.uri?.path.endsWith(`/l10n/bundle.l10n.${LANGUAGE}.json`), String(vscode.l10n.uri));
  });

  it('shows the manifest translated: view headers and the command palette', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.docsAdmin');
    for (const view of ['view.agentJobs.name', 'view.exportJobs.name']) {
      await assertShown(`the view header ${view}`, { english: manifestEnglish[view] ?? '', pseudo: manifestPseudo[view] ?? '' });
    }
    // The command palette (workbench.action.showCommands) with "Docs" typed into it. In a
    // language other than English each row shows the English title after the translated one
    // (so that people can search in English): that is where "Docs" matches.
    await vscode.commands.executeCommand('workbench.action.quickOpen', '>Docs');
    try {
      const category = { english: manifestEnglish['command.category'] ?? '', pseudo: manifestPseudo['command.category'] ?? '' };
      assert.notEqual(category.pseudo, category.english);
      const titles = commandTitleKeys(root).map((key) => ({ english: `${category.english}: ${manifestEnglish[key] ?? ''}`, pseudo: `${category.pseudo}: ${manifestPseudo[key] ?? ''}` }));
      const rows = () => shownTexts().filter((text) => text.startsWith(`${category.pseudo}: `) || text.startsWith(`${category.english}: `));
      await waitFor('Docs Admin rows in the command palette', () => rows().length >= 5);
      for (const row of rows()) {
        const title = titles.find((t) => row.endsWith(` ${t.english}`) || row === t.english);
        assert.ok(title, `a command palette row of a contributed command: ${row}`);
        assert.equal(row, `${title.pseudo} ${title.english}`, 'the row is labelled with the translated title (the English one after it)');
      }
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    }
  });

  it('shows an editor-side message (vscode.l10n.t) translated', async () => {
    const missing = join(dir, 'gone.tar.gz');
    await failing('docsAdmin.export.extractBundle', undefined, fromCode({ archive: missing, folder: join(dir, 'never') }));
    await assertShown('the error for a missing bundle', both('The bundle {0} is no longer there. Download it again (Download Bundle…), or pick another file.', missing));
  });

  it("shows a core message (@vscode/l10n, configured at activation) translated", async () => {
    const notArchive = join(dir, 'notes.tar.gz');
    writeFileSync(notArchive, 'plain text, no archive');
    await failing('docsAdmin.export.extractBundle', undefined, fromCode({ archive: notArchive, folder: join(dir, 'notes') }));
    await assertShown('why the file was refused', both('The file is not a tar.gz or zip archive.'));
    await assertShown('what to do about it', both("Download the bundle again; if it happens again, ask the platform's support."));
  });

  it("shows a message of the extraction's worker thread translated", async () => {
    const archive = join(dir, 'escape.tar.gz');
    writeFileSync(archive, gzipSync(rawTar([{ name: 'site/index.html', data: '<h1>docs</h1>' }, { name: '../escape.txt', data: 'out' }])));
    await failing('docsAdmin.export.extractBundle', undefined, fromCode({ archive, folder: join(dir, 'site') }));
    await assertShown('the refused entry', both('The bundle holds an entry that points outside the folder ({0}); it was not extracted.', '../escape.txt'));
    await assertShown('what to do about it', both("Nothing was extracted. Regenerate the bundle, or ask the platform's support if it happens again."));
  });
});
