/**
 * What the window shows, as the test host reads it from the page (test/host/screen.ts writes
 * the texts of notifications, command palette rows and view headers to the file named by
 * DOCS_ADMIN_TEST_SCREEN_FILE). The extension host cannot see the page; this is its eyes.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';

/** Every text shown so far (whitespace collapsed), oldest first. */
export function shownTexts(): string[] {
  const file = process.env.DOCS_ADMIN_TEST_SCREEN_FILE;
  assert.ok(file, 'DOCS_ADMIN_TEST_SCREEN_FILE is set (run the suite through test/host/run.ts)');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as string[]) : [];
}

/** Waits until a text holding `needle` is on screen, and returns it. */
export async function waitForShown(what: string, needle: string, timeoutMs = 10_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = shownTexts().find((text) => text.includes(needle));
    if (found !== undefined) return found;
    if (Date.now() > until) {
      const seen = shownTexts().slice(-15).map((t) => `  ${t.slice(0, 200)}`).join('\n');
      assert.fail(`${what}: no text on screen holds "${needle}" within ${timeoutMs / 1000} s. Last texts seen:\n${seen}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
