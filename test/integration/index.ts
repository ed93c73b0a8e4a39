/**
 * The integration suite's entry, loaded by the extension host (code-server through
 * test/host/run.ts, or desktop VS Code through @vscode/test-electron): runs every
 * `*.test.js` beside it with mocha and rejects when any test fails.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.js') ? [path] : [];
  });
}

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, reporter: 'spec', timeout: 30_000 });
  for (const file of testFiles(__dirname).sort()) mocha.addFile(file);
  return new Promise((resolve, reject) => {
    try {
      mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} integration test(s) failed`)) : resolve()));
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
