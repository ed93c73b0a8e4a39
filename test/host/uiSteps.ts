/**
 * What the UI checks do in the page, as a person would: wait for a text, run a palette command,
 * pick from a context menu. Every wait is for something the page shows (a text, an element
 * there or gone, a paint); none is for a length of time.
 */
import { redactSecrets } from '../../src/core/redact';
import type { Page } from './browser';

/** Reads the page again until `condition` holds; `timeoutMs` is a guard against a hung window, not a wait. */
export async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await condition()); await new Promise((resolve) => setTimeout(resolve, 100))) {
    if (Date.now() > deadline) throw new Error(`UI check: ${what} not seen within ${timeoutMs / 1000} s`);
  }
}

/** Waits until the first element matching `selector` shows text matching `pattern`; answers that text. */
export async function expectText(page: Page, selector: string, pattern: RegExp, what: string, timeoutMs = 20_000): Promise<string> {
  let last = '';
  const seen = async () => {
    const locator = page.locator(selector);
    if ((await locator.count()) === 0) return false;
    last = await locator.first().innerText({ timeout: 2_000 }).catch(() => '');
    return pattern.test(last);
  };
  await until(what, seen, timeoutMs).catch(() => {
    throw new Error(`UI check: ${what} not seen (wanted ${String(pattern)}, last saw ${JSON.stringify(redactSecrets(last).slice(0, 300))})`);
  });
  return last;
}

/** Waits until no element matches `selector` (with `hasText`, if given): a menu, a dialog, an editor closed. */
export async function expectGone(page: Page, selector: string, what: string, hasText?: string | RegExp, timeoutMs = 20_000): Promise<void> {
  await until(what, async () => (await page.locator(selector, hasText === undefined ? {} : { hasText }).count()) === 0, timeoutMs);
}

interface TextRecorderPage {
  document: { querySelector(selector: string): { innerText: string } | null };
  MutationObserver: new (callback: () => void) => { observe(target: unknown, options: { subtree: boolean; childList: boolean; characterData: boolean; attributes: boolean }): void };
  docsAdminTexts?: Record<string, string[]>;
}

/**
 * From now until the page reloads, keeps every text the element matching `selector` shows (it
 * must be there already): a message shown for a moment (a status bar message lasts seconds, less
 * than a loaded machine may take to look) is not missed. `textsSeen` reads them.
 */
export async function recordTexts(page: Page, selector: string): Promise<void> {
  await page.locator(selector).first().waitFor({ state: 'attached', timeout: 60_000 });
  await page.evaluate((wanted: string) => {
    const view = globalThis as unknown as TextRecorderPage;
    const all = (view.docsAdminTexts ??= {});
    if (all[wanted] !== undefined) return;
    const texts: string[] = (all[wanted] = []);
    const element = view.document.querySelector(wanted);
    const read = () => {
      const text = element?.innerText ?? '';
      if (texts.at(-1) !== text) texts.push(text);
    };
    read();
    new view.MutationObserver(read).observe(element, { subtree: true, childList: true, characterData: true, attributes: true });
  }, selector);
}

/** Every text recorded for `selector` since `recordTexts`, oldest first. */
export function textsSeen(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((wanted: string) => (globalThis as unknown as TextRecorderPage).docsAdminTexts?.[wanted] ?? [], selector);
}

/** Waits until a text recorded for `selector` matches `pattern` (see `recordTexts`); answers it. */
export async function expectSeen(page: Page, selector: string, pattern: RegExp, what: string, timeoutMs = 20_000): Promise<string> {
  let found: string | undefined;
  await until(what, async () => (found = (await textsSeen(page, selector)).find((text) => pattern.test(text))) !== undefined, timeoutMs);
  return found ?? '';
}

/** The page has painted what it shows now (two animation frames, fonts loaded): a screenshot holds it. */
export async function painted(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const frames = globalThis as unknown as { requestAnimationFrame(callback: () => void): void; document: { fonts: { ready: Promise<unknown> } } };
        void frames.document.fonts.ready.then(() => frames.requestAnimationFrame(() => frames.requestAnimationFrame(() => resolve())));
      }),
  );
}

/** The mouse moved out of the way: every hover and tooltip it left is gone, and the page painted (what a screenshot should show). */
export async function settled(page: Page, x: number, y: number): Promise<void> {
  await page.mouse.move(x, y);
  await expectGone(page, '.monaco-hover:visible, .workbench-hover-container:visible, .context-view .monaco-menu:visible', 'hovers and menus closed');
  await painted(page);
}

/**
 * Picks `label` in the context menu just opened. A menu item ignores a mouse-up in its first
 * 100 ms (VS Code's BaseMenuActionViewItem, so the right-click's own release does not pick), so
 * no click: the mouse moves over the item until the menu says it has the focus (the menu focuses
 * an item on a mouse move over it), then Enter runs it.
 */
export async function pickFromMenu(page: Page, label: string): Promise<void> {
  const item = page.locator('.context-view .monaco-menu .action-item', { hasText: label }).first();
  await item.waitFor({ state: 'visible', timeout: 20_000 });
  let nudge = 0;
  await until(`"${label}" focused in the menu`, async () => {
    const box = await item.boundingBox();
    if (box === null) return false;
    // A move each time (the menu reacts to a movement, not to a pointer standing still).
    nudge = nudge === 0 ? 1 : 0;
    await page.mouse.move(box.x + box.width / 2 + nudge, box.y + box.height / 2);
    return /\bfocused\b/.test((await item.getAttribute('class')) ?? '');
  });
  await page.keyboard.press('Enter');
  await expectGone(page, '.context-view .monaco-menu:visible', `the menu closed after "${label}"`);
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
