/**
 * What the window shows, for a suite that must check what a person sees rather than what the
 * API was given: while the suite runs, the texts of the notifications (notification centre and
 * toasts), the command palette's rows, the view headers and the views' welcome content are
 * read from the page every 200 ms and written to a file, which the suite reads
 * (test/integration/l10n/screen.ts). The extension host cannot see the page; this is its eyes.
 */
import { renameSync, writeFileSync } from 'node:fs';
import type { Page } from './browser';

export const SCREEN_FILE_VARIABLE = 'DOCS_ADMIN_TEST_SCREEN_FILE';

/** Where on the page a person reads text the extension contributed or produced. */
const WATCHED = [
  '.notification-list-item',
  '.quick-input-widget .monaco-list-row',
  '.pane-header .title',
  '.welcome-view-content',
];

/** Starts watching; the returned function stops it (after one last reading). */
export function watchScreen(page: Page, file: string): () => Promise<void> {
  const seen = new Set<string>();
  let stopped = false;
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
    // Written whole, then renamed: the suite never reads half a file.
    if (grew) {
      writeFileSync(`${file}.partial`, JSON.stringify([...seen]));
      renameSync(`${file}.partial`, file);
    }
  };
  const loop = (async () => {
    while (!stopped) {
      await read();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  return async () => {
    stopped = true;
    await loop;
  };
}
