/**
 * `npm run test:integration`: runs the mocha suite in test/integration inside a real VS Code
 * extension host (code-server), with headless Chromium as the window, offline. Exits with the
 * suite's result, or 1 when a key or a presigned signature shows up in any log file of the run
 * (the "Docs Admin" channel's at trace level, the extension host's) or in what it printed.
 */
import { resolve } from 'node:path';
import { REPO, runSuite } from './suite';

runSuite({ suite: resolve(REPO, 'out', 'test', 'integration', 'index.js'), label: 'integration', requireChannelLog: true }).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  },
);
