/**
 * `npm run test:desktop`: the same integration suite in desktop VS Code through
 * @vscode/test-electron, for contributors with network access (it downloads VS Code from
 * Microsoft's update servers). Not part of `npm test`; machines without that access use
 * `npm run test:integration` (code-server, offline).
 */
import { resolve } from 'node:path';
import { runTests } from '@vscode/test-electron';

const REPO = resolve(__dirname, '..', '..', '..');

runTests({
  extensionDevelopmentPath: REPO,
  extensionTestsPath: resolve(REPO, 'out', 'test', 'integration', 'index.js'),
  launchArgs: ['--disable-extensions', '--disable-workspace-trust'],
  extensionTestsEnv: { DOCS_ADMIN_INTEGRATION: '1' },
}).then(
  () => undefined,
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`Desktop VS Code tests failed: ${message}`);
    console.error('If VS Code could not be downloaded (no network access to its update servers), run `npm run test:integration` instead: it uses code-server and needs no download.');
    process.exitCode = 1;
  },
);
