/**
 * The pseudo-locale suite's entry (test/host/pseudoLocale.ts runs it in a window whose display
 * language is `qps-ploc`, from a copy of the extension that holds generated pseudo-translations):
 * runs every `*.test.js` beside it with mocha and rejects when any test fails (in CI, when any
 * is skipped: test/support/skipped.ts). The main
 * integration entry (../index.ts) leaves this folder alone: it has an entry of its own.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runHostSuite } from '../../support/hostSuite';

/** The suite fails when fewer tests than this ran (scripts/recount.mjs checks it against the listing). */
export const MINIMUM_TESTS = 5;

export async function run(): Promise<void> {
  const files = readdirSync(__dirname).filter((n) => n.endsWith('.test.js')).sort().map((name) => join(__dirname, name));
  await runHostSuite({ files, label: 'pseudo-locale', minimum: MINIMUM_TESTS, declaredIn: 'test/integration/l10n/index.ts' });
}
