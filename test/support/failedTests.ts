/**
 * The line a host suite prints for each failed test (test/support/hostSuite.ts, in the window)
 * and how the runner finds them again (test/host/suite.ts, which repeats them as the run's
 * last lines: a CI log is read from its end).
 */

/** Starts the line printed for each failed test. */
export const FAILED_TEST_MARK = '[docs-admin failed test]';

/** Control characters (line breaks, escapes) become spaces: a failure is one line of visible characters. */
function visible(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').trim();
}

/** The marked line for a failed test: its full title and the first non-empty line of its error. */
export function failedTestLine(title: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const first = message.split(/\r?\n/).find((line) => line.trim() !== '') ?? '';
  return `${FAILED_TEST_MARK} ${visible(title)}: ${visible(first).slice(0, 300)}`;
}

/** The failed tests' lines found in what the window printed, without their mark. */
export function failedTests(hostLog: readonly string[]): string[] {
  return hostLog
    .flatMap((text) => text.split(/\r?\n/))
    .filter((line) => line.startsWith(FAILED_TEST_MARK))
    .map((line) => line.slice(FAILED_TEST_MARK.length).trim());
}
