/**
 * In CI a skipped test is a failure: a test the README counts must have run. The unit suite
 * (test/unit/support/secretsHook.ts) and both host suites (test/integration/index.ts and its
 * l10n/ suite, through ./hostSuite.ts) ask the same two questions here. Mocha marks a test pending when it is written
 * `it.skip` or without a body, when it or a hook calls `this.skip()`, or when a `describe`
 * around it is skipped; such a test still ends ("test end"), so it must not count as run.
 */
import type Mocha from 'mocha';

/** Whether this run is CI: `CI` set to anything but empty or `false` (GitHub Actions sets `true`). */
export function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = env.CI;
  return ci !== undefined && ci !== '' && ci !== 'false';
}

/** The full titles of every test below `suite` that did not run because it was skipped. */
export function pendingTests(suite: Mocha.Suite): string[] {
  return [...suite.tests.filter((t) => t.isPending()).map((t) => t.fullTitle()), ...suite.suites.flatMap(pendingTests)];
}

/** The error a CI run fails with when `skipped` is not empty; undefined otherwise. */
export function skippedInCi(skipped: readonly string[], suite: string, env: NodeJS.ProcessEnv = process.env): Error | undefined {
  if (skipped.length === 0 || !isCi(env)) return undefined;
  return new Error(`${skipped.length} ${suite} test(s) skipped in CI (CI=${env.CI ?? ''}), where every test must run:\n  ${skipped.slice(0, 20).join('\n  ')}`);
}
