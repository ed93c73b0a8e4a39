/**
 * The pseudo-locale suite's entry (test/host/pseudoLocale.ts runs it in a window whose display
 * language is `qps-ploc`, from a copy of the extension that holds generated pseudo-translations):
 * runs every `*.test.js` beside it with mocha and rejects when any test fails (in CI, when any
 * is skipped: test/support/skipped.ts). The main
 * integration entry (../index.ts) leaves this folder alone: it has an entry of its own.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';
import { pendingTests, skippedInCi } from '../../support/skipped';

/** The suite fails when fewer tests than this ran (scripts/recount.mjs checks it against the listing). */
export const MINIMUM_TESTS = 5;

export async function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, reporter: 'spec', timeout: 30_000 });
  for (const name of readdirSync(__dirname).filter((n) => n.endsWith('.test.js')).sort()) mocha.addFile(join(__dirname, name));
  await new Promise<void>((resolve, reject) => {
    try {
      let ran = 0;
      const runner = mocha.run((failures) => {
        const skipped = skippedInCi(pendingTests(mocha.suite), 'pseudo-locale');
        if (failures > 0) reject(new Error(`${failures} pseudo-locale test(s) failed`));
        else if (skipped !== undefined) reject(skipped);
        else if (ran < MINIMUM_TESTS) reject(new Error(`only ${ran} pseudo-locale test(s) ran, fewer than the ${MINIMUM_TESTS} the suite declares (test/integration/l10n/index.ts)`));
        else resolve();
      });
      // A skipped test ends too, without running: only a pass or a failure counts.
      runner.on('pass', () => ran++);
      runner.on('fail', (runnable) => {
        if (runnable.type === 'test') ran++;
      });
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
