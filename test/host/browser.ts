/**
 * Headless Chromium, driven by the cached playwright-core (never `playwright install`: the
 * system Chromium is used). Only the part of Playwright's API the host uses is typed here,
 * because playwright-core lives in the test host cache, not in the project's dependencies.
 */
import type { HostPaths } from './versions';

export interface Page {
  setContent(html: string): Promise<void>;
  goto(url: string, options?: { waitUntil?: 'load' | 'domcontentloaded' | 'commit'; timeout?: number }): Promise<unknown>;
  exposeFunction(name: string, fn: (...args: never[]) => unknown): Promise<void>;
  screenshot(options: { path: string; fullPage?: boolean }): Promise<Buffer>;
  keyboard: { press(key: string): Promise<void>; type(text: string, options?: { delay?: number }): Promise<void>; insertText(text: string): Promise<void> };
  locator(selector: string, options?: { hasText?: string | RegExp }): Locator;
  /** Runs `fn` in the page (no fixed waits here: the host waits for what the page shows, see uiSteps.ts). */
  evaluate<R>(fn: () => R | Promise<R>): Promise<R>;
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  /** Resolves when the page next fires the event (a reload's `domcontentloaded`). */
  waitForEvent(event: 'domcontentloaded' | 'load', options?: { timeout?: number }): Promise<unknown>;
  mouse: { move(x: number, y: number): Promise<void> };
  on(event: 'console', listener: (message: { type(): string; text(): string }) => void): void;
  on(event: 'pageerror', listener: (error: Error) => void): void;
}

/** What the host reads of a DOM element inside the page (no DOM types in this project). */
export interface PageElement {
  textContent: string | null;
  classList: Iterable<string>;
  getAttribute(name: string): string | null;
  querySelector(selector: string): PageElement | null;
}

export interface Locator {
  first(): Locator;
  nth(index: number): Locator;
  locator(selector: string, options?: { hasText?: string | RegExp }): Locator;
  click(options?: { timeout?: number; button?: 'left' | 'right' }): Promise<void>;
  boundingBox(options?: { timeout?: number }): Promise<{ x: number; y: number; width: number; height: number } | null>;
  waitFor(options?: { state?: 'attached' | 'detached' | 'visible' | 'hidden'; timeout?: number }): Promise<void>;
  innerText(options?: { timeout?: number }): Promise<string>;
  getAttribute(name: string, options?: { timeout?: number }): Promise<string | null>;
  allInnerTexts(): Promise<string[]>;
  /** Runs `fn` in the page on every matching element (a DOM element there; typed here as far as the host reads it). */
  evaluateAll<R>(fn: (elements: PageElement[]) => R): Promise<R>;
  count(): Promise<number>;
  fill(value: string, options?: { timeout?: number }): Promise<void>;
  screenshot(options: { path: string; omitBackground?: boolean }): Promise<Buffer>;
}

export interface Browser {
  newPage(options?: { viewport?: { width: number; height: number }; deviceScaleFactor?: number }): Promise<Page>;
  close(): Promise<void>;
}

interface PlaywrightCore {
  chromium: { launch(options: { executablePath: string; headless: boolean; args: string[] }): Promise<Browser> };
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export async function launchBrowser(paths: HostPaths, executablePath: string): Promise<Browser> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const playwright = require(paths.playwrightCore) as PlaywrightCore;
  return playwright.chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}
