/**
 * `npm run test:integration`: runs the mocha suite in test/integration inside a real VS Code
 * extension host (code-server), with headless Chromium as the window, offline; then the
 * pseudo-locale suite (test/integration/l10n) in a host whose display language is the
 * pseudo-locale (see pseudoLocale.ts). Exits with the first failure's code, or 1 when a key or a
 * presigned signature shows up in any log file of a run (the "Docs Admin" channel's at trace
 * level, the extension host's) or in what it printed.
 *
 * `node out/test/host/run.js integration` or `... pseudo-locale` runs one of the two.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runPseudoLocale } from './pseudoLocale';
import { REPO, runSuite } from './suite';

/** The integration suite, with eyes and hands on the window (screen.ts): what it renders, and keys pressed in it. */
async function integration(): Promise<number> {
  const work = mkdtempSync(join(tmpdir(), 'docs-admin-screen-'));
  try {
    return await runSuite({ suite: resolve(REPO, 'out', 'test', 'integration', 'index.js'), label: 'integration', requireChannelLog: true, screenFile: join(work, 'screen.json') });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const RUNS: Record<string, () => Promise<number>> = {
  integration,
  'pseudo-locale': runPseudoLocale,
};

async function main(): Promise<number> {
  const asked = process.argv.slice(2);
  const unknown = asked.filter((name) => !(name in RUNS));
  if (unknown.length > 0) throw new Error(`Unknown run ${unknown.join(', ')}: choose from ${Object.keys(RUNS).join(', ')}.`);
  for (const name of asked.length > 0 ? asked : Object.keys(RUNS)) {
    const code = await RUNS[name]!();
    if (code !== 0) return code;
  }
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  },
);
