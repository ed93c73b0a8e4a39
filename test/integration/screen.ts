/**
 * What the window shows, as the test host reads it from the page (test/host/screen.ts writes
 * the texts of notifications, quick inputs, dialogs, command palette rows and view headers, and
 * every link rendered in a notification, a quick input's message or a dialog, to the file named
 * by DOCS_ADMIN_TEST_SCREEN_FILE); and the host's hands, which press keys and type in the window
 * as a person would. The extension host cannot see or touch the page; this is its eyes and hands.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

interface Screen {
  texts: string[];
  links: { href: string; text: string }[];
  now: { quickInput: boolean; dialog: boolean; notificationCentre: boolean; notifications: number };
}

function screenFile(): string {
  const file = process.env.DOCS_ADMIN_TEST_SCREEN_FILE;
  assert.ok(file, 'DOCS_ADMIN_TEST_SCREEN_FILE is set (run the suite through test/host/run.ts)');
  return file;
}

function screen(): Screen {
  const file = screenFile();
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Screen) : { texts: [], links: [], now: { quickInput: false, dialog: false, notificationCentre: false, notifications: 0 } };
}

/** What asks the person for an answer on screen now (as of the host's last reading, at most 200 ms old). */
export function openOnScreen(): Screen['now'] {
  return screen().now;
}

/** Every text shown so far (whitespace collapsed), oldest first. */
export function shownTexts(): string[] {
  return screen().texts;
}

/** Every link rendered so far in a notification, a quick input's message or a dialog. */
export function shownLinks(): { href: string; text: string }[] {
  return screen().links;
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

/**
 * Presses keys and types text in the window, as a person would, and waits until it is done and
 * the window has been read after it (what the screen functions say is then as of that moment).
 */
export async function hands(...actions: ({ press: string } | { type: string })[]): Promise<void> {
  const file = `${screenFile()}.hands`;
  writeFileSync(`${file}.partial`, JSON.stringify(actions));
  renameSync(`${file}.partial`, file);
  const until = Date.now() + 10_000;
  while (existsSync(file)) {
    if (Date.now() > until) assert.fail('the test host did not act on the window within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits for a whole reading of the window that began after now: everything on screen now (texts, links) is in what the screen functions say. */
export function screenRead(): Promise<void> {
  return hands();
}
