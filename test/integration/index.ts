/**
 * The integration suite's entry, loaded by the extension host (code-server through
 * test/host/run.ts, or desktop VS Code through @vscode/test-electron): runs every
 * `*.test.js` beside it with mocha and rejects when any test fails.
 *
 * For the secrets scan (test/host/logScan.ts), the keys and signatures the suite's simulators
 * handed out are written to `DOCS_ADMIN_TEST_SECRETS_FILE` at the end. (test/host/suite.ts
 * runs the "Docs Admin" channel at trace level, so everything it can log is in its file.)
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';
import { watchSecrets } from '../simulator/ledger';

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.js') ? [path] : [];
  });
}

export async function run(): Promise<void> {
  const secrets = { keys: new Set<string>(), signatures: new Set<string>() };
  const stop = watchSecrets((kind, value) => (kind === 'key' ? secrets.keys : secrets.signatures).add(value));
  const mocha = new Mocha({ ui: 'bdd', color: false, reporter: 'spec', timeout: 30_000 });
  for (const file of testFiles(__dirname).sort()) mocha.addFile(file);
  try {
    await new Promise<void>((resolve, reject) => {
      try {
        mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} integration test(s) failed`)) : resolve()));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  } finally {
    stop();
    const file = process.env.DOCS_ADMIN_TEST_SECRETS_FILE;
    if (file !== undefined) writeFileSync(file, JSON.stringify({ keys: [...secrets.keys], signatures: [...secrets.signatures] }));
  }
}
