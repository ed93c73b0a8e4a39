/**
 * The UI check: the extension in a real VS Code (code-server), driven through headless
 * Chromium like a person would: the activity bar, the tree rows, the status bar, the command
 * palette. Saves screenshots to out/screenshots (docs/screenshots with
 * DOCS_ADMIN_UPDATE_SCREENSHOTS=1, for the README). Exits non-zero when something is missing.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEMO_JOBS, seedDemo } from '../simulator/demo';
import { Simulator } from '../simulator';
import { launchBrowser, type Browser, type Page } from './browser';
import { findChromium } from './chromium';
import { startCodeServer, type CodeServer } from './codeServer';
import { ensureHost } from './install';
import { workbenchUrl } from './workbench';

const REPO = resolve(__dirname, '..', '..', '..');
const SHOTS = process.env.DOCS_ADMIN_UPDATE_SCREENSHOTS === '1' ? join(REPO, 'docs', 'screenshots') : join(REPO, 'out', 'screenshots');

async function expectText(page: Page, selector: string, pattern: RegExp, what: string, timeoutMs = 20_000): Promise<string> {
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
  throw new Error(`UI check: ${what} not seen (wanted ${String(pattern)}, last saw ${JSON.stringify(last.slice(0, 300))})`);
}

async function main(): Promise<void> {
  const paths = ensureHost();
  const chromium = findChromium();
  mkdirSync(SHOTS, { recursive: true });
  const sim = await Simulator.start({ timeScale: 10 });
  seedDemo(sim);
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  try {
    server = await startCodeServer({
      paths,
      settings: { 'docsAdmin.baseUrl': sim.baseUrl, 'docsAdmin.projectId': sim.projectId, 'workbench.colorTheme': 'Default Dark Modern' },
    });
    browser = await launchBrowser(paths, chromium);
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(
      workbenchUrl(server, { extensionDevelopmentPath: REPO, extensionEnvironment: { DOCS_ADMIN_PLAYGROUND_KEY: sim.key, DOCS_ADMIN_PLAYGROUND_TRACK: DEMO_JOBS.join(',') } }),
      { waitUntil: 'domcontentloaded' },
    );
    const icon = page.locator('.activitybar [aria-label*="Docs Admin"]');
    await icon.first().waitFor({ state: 'visible', timeout: 60_000 });
    await icon.first().click();
    const tree = await expectText(page, '.pane-body', /acme\/docs @ agent\/quickstart[\s\S]*active/, 'the agent job rows');
    await expectText(page, '.pane-body >> nth=1', /docs\.acme\.dev[\s\S]*(queued|running)/, 'the running export row');
    const status = await expectText(page, '.statusbar', /agent jobs?/, 'the status-bar item');
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(SHOTS, 'tree-and-status-bar.png') });
    await page.keyboard.press('F1');
    await page.keyboard.type('Docs Admin', { delay: 10 });
    await expectText(page, '.quick-input-widget', /Docs Admin: /, 'the commands in the palette');
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SHOTS, 'command-palette.png') });
    // The list is virtual: ask for each command by name.
    for (const title of ['Set Admin Key', 'Track Agent Job…', 'Start Static Export…', 'Switch Environment', 'Download Bundle…', 'Extract Bundle…', 'Preview Bundle']) {
      await page.locator('.quick-input-widget input').fill(`>Docs Admin: ${title}`);
      const shown = await expectText(page, '.quick-input-widget .monaco-list', new RegExp(`Docs Admin: ${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), `"Docs Admin: ${title}" in the palette`);
      if (!shown.includes(title)) throw new Error(`UI check: the palette lacks "Docs Admin: ${title}"`);
    }
    console.log(`UI check: tree rows, status bar ("${status.split('\n').find((l) => /agent job/.test(l)) ?? ''}") and palette seen; ${tree.split('\n').length} lines in the view; screenshots in ${SHOTS}`);
  } finally {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    await sim.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
