/**
 * What the window shows, for a suite that must check what a person sees rather than what the
 * API was given: while the suite runs, the texts of the notifications (notification centre and
 * toasts), the quick input (its rows, title and message), modal dialogs, the view headers and
 * the views' welcome content are read from the page every 200 ms, with every link rendered in a
 * notification, a quick input's message or a dialog (its `href` and text), and written to a file
 * the suite reads (test/integration/screen.ts). The extension host cannot see the page; this is
 * its eyes.
 *
 * And its hands: a suite that must answer the window as a person would (press Escape on a modal
 * dialog, type into an input box) writes what to do to `<file>.hands`; the next round does it
 * with the real keyboard, reads the window, and only then removes the file: once it is gone, the
 * screen file shows the window as it was after the keys (an empty list of actions is a reading
 * the suite can wait for).
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { Page } from './browser';

export const SCREEN_FILE_VARIABLE = 'DOCS_ADMIN_TEST_SCREEN_FILE';

/** Where on the page a person reads text the extension contributed or produced. */
const WATCHED = [
  '.notification-list-item',
  '.quick-input-widget .monaco-list-row',
  '.quick-input-widget .quick-input-title',
  '.quick-input-widget .quick-input-message',
  '.monaco-dialog-box',
  '.pane-header .title',
  '.welcome-view-content',
];

/** Where a rendered link could run a command: notifications, the quick input's message, dialogs. */
const LINKS = '.notification-list-item a[href], .quick-input-widget .quick-input-message a[href], .monaco-dialog-box a[href]';

/** What the suite reads: every text and link seen so far, oldest first, and what asks for an answer now. */
export interface Screen {
  texts: string[];
  links: { href: string; text: string }[];
  /** Open at the last reading: a quick input (an input box, a quick pick, a file dialog in a web window), a modal dialog. */
  now: { quickInput: boolean; dialog: boolean; notificationCentre: boolean; notifications: number };
}

/** What the suite asks the hands to do, in order. */
export type HandsAction = { press: string } | { type: string };

/** Starts watching; the returned function stops it (after one last reading). */
export function watchScreen(page: Page, file: string): () => Promise<void> {
  const seen = new Set<string>();
  const links = new Map<string, { href: string; text: string }>();
  let now: Screen['now'] = { quickInput: false, dialog: false, notificationCentre: false, notifications: 0 };
  let stopped = false;
  const hands = `${file}.hands`;
  /** Does what the suite asked; whether it asked. */
  const act = async (): Promise<boolean> => {
    if (!existsSync(hands)) return false;
    const actions = JSON.parse(readFileSync(hands, 'utf8')) as HandsAction[];
    for (const action of actions) {
      if ('press' in action) await page.keyboard.press(action.press);
      else await page.keyboard.type(action.type);
    }
    return true;
  };
  const read = async () => {
    let grew = false;
    for (const selector of WATCHED) {
      const texts = await page.locator(selector).allInnerTexts().catch(() => [] as string[]);
      for (const text of texts) {
        const clean = text.replace(/\s+/g, ' ').trim();
        if (clean === '' || seen.has(clean)) continue;
        seen.add(clean);
        grew = true;
      }
    }
    const found = await page
      .locator(LINKS)
      .evaluateAll((anchors) => anchors.map((a) => ({ href: a.getAttribute('href') ?? '', text: (a.textContent ?? '').trim() })))
      .catch(() => [] as { href: string; text: string }[]);
    for (const link of found) {
      const key = `${link.href} ${link.text}`;
      if (links.has(key)) continue;
      links.set(key, link);
      grew = true;
    }
    const open: Screen['now'] = {
      quickInput: (await page.locator('.quick-input-widget:visible').count().catch(() => 0)) > 0,
      dialog: (await page.locator('.monaco-dialog-box:visible').count().catch(() => 0)) > 0,
      notificationCentre: (await page.locator('.notifications-center:visible').count().catch(() => 0)) > 0,
      notifications: await page.locator('.notification-list-item:visible').count().catch(() => 0),
    };
    if (JSON.stringify(open) !== JSON.stringify(now)) grew = true;
    now = open;
    // Written whole, then renamed: the suite never reads half a file.
    if (grew) {
      const screen: Screen = { texts: [...seen], links: [...links.values()], now };
      writeFileSync(`${file}.partial`, JSON.stringify(screen));
      renameSync(`${file}.partial`, file);
    }
  };
  const loop = (async () => {
    while (!stopped) {
      const acted = await act().catch((error: unknown) => {
        console.error(`screen: the hands failed: ${error instanceof Error ? error.message : String(error)}`);
        return true;
      });
      await read();
      // Done, and the window read after it: the suite may look now.
      if (acted) rmSync(hands, { force: true });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  return async () => {
    stopped = true;
    await loop;
  };
}
