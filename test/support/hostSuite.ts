/**
 * Runs a host suite's test files with mocha inside the extension host, for both host entries
 * (test/integration/index.ts and its l10n/ suite): rejects when a test fails, when one is
 * skipped in CI (./skipped.ts), or when fewer than the suite declares ran.
 *
 * Each failed test is also printed as one marked line (./failedTests.ts), so test/host/suite.ts
 * can say which tests failed as the very last lines of the run: a CI log is read from its end,
 * and mocha's own report of the failures sits above the code-server lines printed after it.
 */
import Mocha from 'mocha';
import { failedTestLine } from './failedTests';
import { pendingTests, skippedInCi } from './skipped';

export interface HostSuite {
  /** The test files, in the order they run. */
  readonly files: readonly string[];
  /** The suite's name in messages ("integration", "pseudo-locale"). */
  readonly label: string;
  /** The suite fails when fewer tests than this ran; not applied to a `grep` subset. */
  readonly minimum: number;
  /** Where `minimum` is declared, for the message. */
  readonly declaredIn: string;
  /** Runs only the tests whose title matches (while working on a few; never in CI). */
  readonly grep?: string;
}

export async function runHostSuite(suite: HostSuite): Promise<void> {
  const subset = suite.grep !== undefined && suite.grep !== '';
  const mocha = new Mocha({ ui: 'bdd', color: false, reporter: 'spec', timeout: 30_000, ...(subset ? { grep: suite.grep } : {}) });
  for (const file of suite.files) mocha.addFile(file);
  await new Promise<void>((resolve, reject) => {
    try {
      let ran = 0;
      const failed: string[] = [];
      const runner = mocha.run((failures) => {
        const skipped = skippedInCi(pendingTests(mocha.suite), suite.label);
        if (failed.length > 0) console.error(failed.join('\n'));
        if (failures > 0) reject(new Error(`${failures} ${suite.label} test(s) failed`));
        else if (skipped !== undefined) reject(skipped);
        else if (!subset && ran < suite.minimum) reject(new Error(`only ${ran} ${suite.label} test(s) ran, fewer than the ${suite.minimum} the suite declares (${suite.declaredIn})`));
        else resolve();
      });
      // A skipped test ends too, without running: only a pass or a failure counts.
      runner.on('pass', () => ran++);
      runner.on('fail', (runnable, error) => {
        if (runnable.type === 'test') ran++;
        failed.push(failedTestLine(runnable.fullTitle(), error));
      });
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
