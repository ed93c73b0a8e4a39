/**
 * The pseudo-locale run's first window (see test/host/pseudoLocale.ts): installs the language
 * pack whose .vsix path is in DOCS_ADMIN_TEST_LANGUAGE_PACK through the workbench, as a person
 * would with "Install from VSIX…", so that VS Code records it in languagepacks.json and the next
 * window opens in its language. Rejects when the pack is not installed afterwards.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

export const LANGUAGE_PACK_ID = 'docs-admin-test.pseudo-language-pack';

export async function run(): Promise<void> {
  const pack = process.env.DOCS_ADMIN_TEST_LANGUAGE_PACK;
  assert.ok(pack, 'DOCS_ADMIN_TEST_LANGUAGE_PACK names the language pack to install');
  await vscode.commands.executeCommand('workbench.extensions.installExtension', vscode.Uri.file(pack));
  const until = Date.now() + 20_000;
  while (vscode.extensions.getExtension(LANGUAGE_PACK_ID) === undefined) {
    if (Date.now() > until) assert.fail(`${LANGUAGE_PACK_ID} was not installed from ${pack}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  console.log(`installed ${LANGUAGE_PACK_ID}; display language now ${vscode.env.language} (the next window opens in the pack's)`);
}
