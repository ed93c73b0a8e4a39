/**
 * `npm run icon`: renders docs/brand/icon.svg to media/icon.png (128 x 128, the marketplace
 * icon) in headless Chromium, through the test host's playwright-core. The PNG is committed;
 * run this after changing the SVG.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { launchBrowser } from './browser';
import { findChromium } from './chromium';
import { ensureHost } from './install';

const ROOT = resolve(__dirname, '..', '..', '..');

async function main(): Promise<void> {
  const browser = await launchBrowser(ensureHost(), findChromium());
  try {
    const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
    await page.setContent(`<html><body style="margin:0;background:transparent">${readFileSync(join(ROOT, 'docs', 'brand', 'icon.svg'), 'utf8')}</body></html>`);
    const out = join(ROOT, 'media', 'icon.png');
    await page.locator('svg').screenshot({ path: out, omitBackground: true });
    console.log(`wrote ${out}`);
  } finally {
    await browser.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
