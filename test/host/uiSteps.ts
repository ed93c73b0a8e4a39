/** What the UI checks do in the page, as a person would: wait for a text, run a palette command. */
import { redactSecrets } from '../../src/core/redact';
import type { Page } from './browser';
import { listQuickInput, type QuickInputRow } from './screen';

/** Waits until the first element matching `selector` shows text matching `pattern`; answers that text. */
export async function expectText(page: Page, selector: string, pattern: RegExp, what: string, timeoutMs = 20_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < until) {
    const locator = page.locator(selector);
    if ((await locator.count()) > 0) {
      last = await locator.first().innerText({ timeout: 2_000 }).catch(() => '');
      if (pattern.test(last)) return last;
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`UI check: ${what} not seen (wanted ${String(pattern)}, last saw ${JSON.stringify(redactSecrets(last).slice(0, 300))})`);
}

/**
 * Runs a command from the palette by its full title. The palette lists what fits the moment (the
 * context keys the extension sets: after a reload, a moment after its views fill), and lists it
 * as it was when it opened: until the command shows, the palette is opened again.
 */
export async function runCommand(page: Page, title: string): Promise<void> {
  const until = Date.now() + 20_000;
  for (;;) {
    await page.keyboard.press('Escape');
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').fill(`>${title}`);
    try {
      await expectText(page, '.quick-input-widget .monaco-list', new RegExp(escapeRegExp(title)), `"${title}" in the palette`, Math.max(1_000, Math.min(3_000, until - Date.now())));
      break;
    } catch (error) {
      if (Date.now() > until) throw error;
    }
  }
  await page.keyboard.press('Enter');
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Every row the palette lists for `query` (two readings alike: the list is filtered and drawn),
 * then the palette closed. Its list draws only what fits: listQuickInput makes room.
 */
export async function paletteRows(page: Page, query: string): Promise<QuickInputRow[]> {
  await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').fill(`>${query}`);
  await expectText(page, '.quick-input-widget .monaco-list', new RegExp(escapeRegExp(query)), `rows for "${query}" in the palette`);
  let last = '';
  for (let until = Date.now() + 20_000; ; ) {
    const rows = await listQuickInput(page);
    const seen = JSON.stringify(rows);
    if (seen === last) {
      await page.keyboard.press('Escape');
      return rows;
    }
    if (Date.now() > until) throw new Error(`UI check: the palette's rows for "${query}" did not settle (last: ${seen})`);
    last = seen;
  }
}
