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
 * the suite can wait for). A suite that must know every row of the open quick input (the command
 * palette's, say: a virtual list draws only the rows on screen) asks for them
 * (`{ listQuickInput: true }`): the hands make the window tall enough to draw them all, and write
 * its rows, in order, to `<file>.list`.
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
export type HandsAction = { press: string } | { type: string } | { listQuickInput: true };

/** A row of the quick input: its item's id (a command's, in the palette) and its label. */
export interface QuickInputRow {
  id: string;
  label: string;
}

/**
 * Every row of the open quick input, in order. Its list draws only the rows that fit on screen,
 * each with its place (`aria-posinset`) and the list's length (`aria-setsize`), and its height is
 * a share of the window's: the window is made taller (as on a tall screen) until every row is
 * drawn, then given its size back. (Scrolling does not serve: in the headless window the list does
 * not follow the keyboard's focus, and the wheel moves it a few rows at a time.)
 */
export async function listQuickInput(page: Page): Promise<QuickInputRow[]> {
  const read = () =>
    page.locator('.quick-input-widget .monaco-list-row').evaluateAll((elements) =>
      elements.map((row) => ({
        at: Number(row.getAttribute('aria-posinset')),
        of: Number(row.getAttribute('aria-setsize')),
        id: row.querySelector('[data-quick-input-id]')?.getAttribute('data-quick-input-id') ?? '',
        label: row.getAttribute('aria-label') ?? '',
      })),
    );
  const size = page.viewportSize();
  let rows = await read();
  try {
    for (let height = size?.height ?? 800; rows.length > 0 && rows.length < (rows[0]?.of ?? 0); ) {
      if (height >= 16_000) throw new Error(`the quick input draws ${rows.length} of its ${rows[0]?.of ?? 0} rows in a window 16,000 pixels tall`);
      height *= 2;
      await page.setViewportSize({ width: size?.width ?? 1280, height });
      // The list lays itself out again on the resize: wait for it to draw more rows (or all).
      const before = rows.length;
      for (const deadline = Date.now() + 10_000; rows.length <= before && rows.length < (rows[0]?.of ?? 0); ) {
        if (Date.now() > deadline) throw new Error(`the quick input drew no more than ${before} rows in a window ${height} pixels tall`);
        await new Promise((resolve) => setTimeout(resolve, 50));
        rows = await read();
      }
    }
  } finally {
    if (size !== null) await page.setViewportSize(size);
  }
  return rows.sort((a, b) => a.at - b.at).map(({ id, label }) => ({ id, label }));
}

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
      else if ('type' in action) await page.keyboard.type(action.type);
      else writeFileSync(`${file}.list`, JSON.stringify(await listQuickInput(page)));
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
