/** What the UI checks do in the page, as a person would: wait for a text, run a palette command. */
import { redactSecrets } from '../../src/core/redact';
import type { Page } from './browser';

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

/** Runs a command from the palette by its full title. */
export async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').fill(`>${title}`);
  await expectText(page, '.quick-input-widget .monaco-list', new RegExp(escapeRegExp(title)), `"${title}" in the palette`);
  await page.keyboard.press('Enter');
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
