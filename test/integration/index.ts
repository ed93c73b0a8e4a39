/**
 * The integration suite's entry, loaded by the extension host (code-server through
 * test/host/run.ts, or desktop VS Code through @vscode/test-electron): runs every
 * `*.test.js` beside it with mocha and rejects when any test fails. A folder with an `index.js`
 * of its own is another suite (l10n/, run by test/host/pseudoLocale.ts) and is left out.
 *
 * In CI (`CI` set, test/host/suite.ts passes it on) a skipped test fails the suite, as in the
 * unit suite (test/support/skipped.ts).
 *
 * For the secrets scan (test/host/logScan.ts), the keys, signatures and reader contacts the
 * suite's simulators handed out are written to `DOCS_ADMIN_TEST_SECRETS_FILE` at the end. (test/host/suite.ts
 * runs the "Docs Admin" channel at trace level, so everything it can log is in its file.)
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { watchSecrets } from '../simulator/ledger';
import { runHostSuite } from '../support/hostSuite';

/**
 * The suite fails when fewer tests than this ran (a suite that loads no file, or whose files
 * define nothing, must not pass). Raise it with the suite; scripts/recount.mjs checks it
 * against the tests' listing. Not applied to a DOCS_ADMIN_TEST_GREP subset.
 */
export const MINIMUM_TESTS = 202;

/** Every `*.test.js` below `dir`, leaving out a folder with an entry of its own (l10n/: the pseudo-locale suite). */
function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return existsSync(join(path, 'index.js')) ? [] : testFiles(path);
    return entry.name.endsWith('.test.js') ? [path] : [];
  });
}

export async function run(): Promise<void> {
  const secrets = { keys: new Set<string>(), signatures: new Set<string>(), contacts: new Set<string>() };
  const stop = watchSecrets((kind, value) => (kind === 'key' ? secrets.keys : kind === 'signature' ? secrets.signatures : secrets.contacts).add(value));
  // DOCS_ADMIN_TEST_GREP runs only the tests whose title matches (while working on a few; never in CI).
  const grep = process.env.DOCS_ADMIN_TEST_GREP;
  const subset = grep !== undefined && grep !== '';
  try {
    await runHostSuite({ files: testFiles(__dirname).sort(), label: 'integration', minimum: MINIMUM_TESTS, declaredIn: 'test/integration/index.ts', ...(subset ? { grep } : {}) });
  } finally {
    stop();
    const file = process.env.DOCS_ADMIN_TEST_SECRETS_FILE;
    if (file !== undefined) writeFileSync(file, JSON.stringify({ keys: [...secrets.keys], signatures: [...secrets.signatures], contacts: [...secrets.contacts] }));
  }
}
