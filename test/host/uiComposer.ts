/**
 * The UI check's part on the prompt composer after a send (issue 28), in the real workbench,
 * by keyboard and mouse as a person does it. It starts where the UI check's first Ask Agent…
 * left off: a prompt on docs/quickstart.mdx sent with Ctrl+Enter, the new job's row shown.
 *
 * 1. Ask Agent… again at once, on another line (VS Code still holds the sent draft's document):
 *    a fresh composer with that line, not the prompt that was sent, and no "unsent draft" note.
 * 2. A send answered by a 502 may have created a job: the warning says so; Ctrl+Enter again
 *    asks first (a modal), and Cancel sends nothing.
 * 3. Developer: Reload Window, a real reload of the page: the draft is back in its composer, and
 *    Ask Agent… says so; the mark survived too: Ctrl+Enter asks again, and Send Again sends the
 *    prompt, once.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Simulator } from '../simulator';
import type { Page } from './browser';
import type { CodeServer } from './codeServer';
import { escapeRegExp, expectGone, expectSeen, expectText, recordTexts, runCommand, textsSeen, until } from './uiSteps';

/** The composer: the editor beside the page (the second group). It is narrow, so its lines wrap: the patterns take any white space between words. */
const COMPOSER = '.editor-instance >> nth=1';
const DIALOG = '.monaco-dialog-box';

/** Every file named `name` below `dir`. */
function findFiles(dir: string, name: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return findFiles(path, name);
    return entry.name === name ? [path] : [];
  });
}

async function waitUntil(_page: Page, what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  await until(what, condition, timeoutMs);
}

/** Selects line `line` of the page (opened through Quick Open), then runs Ask Agent… from the palette. */
async function askAgentOnLine(page: Page, file: string, line: number): Promise<void> {
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget input').fill(file);
  await expectText(page, '.quick-input-widget .monaco-list', new RegExp(escapeRegExp(file)), `${file} in Quick Open`);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Control+G');
  await page.keyboard.type(String(line));
  await page.keyboard.press('Enter');
  await page.keyboard.press('Home');
  await page.keyboard.press('Shift+End');
  // From the palette, without the Escape that runCommand presses first (it would drop the selection).
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').fill('>Docs Admin: Ask Agent…');
  await expectText(page, '.quick-input-widget .monaco-list', /Docs Admin: Ask Agent…/, '"Docs Admin: Ask Agent…" in the palette');
  await page.keyboard.press('Enter');
}

/**
 * A keystroke's send (Ctrl+Enter) asks first, as a link's would (issue 27): the modal naming what
 * it sends, answered Send. Nothing goes while it is open.
 */
export async function confirmKeystrokeSend(page: Page, creates: () => number): Promise<void> {
  const before = creates();
  await expectText(page, DIALOG, /Send this (prompt to the agent\?|follow-up to agent job)/, 'the question before a keystroke\'s send');
  if (creates() !== before) throw new Error('UI check: the prompt was sent while the question was still open');
  await page.locator(`${DIALOG} .dialog-buttons .monaco-button`, { hasText: /^\s*Send\s*$/ }).first().click();
  // Closed: the next question (Send Again) may open at once, so this one is looked for by its words.
  await waitUntil(page, 'the question before a keystroke\'s send closed', async () => (await page.locator(DIALOG, { hasText: /Send this (prompt to the agent\?|follow-up to agent job)/ }).count()) === 0);
}

/** The modal that asks before a second send; answered with `button`. */
async function answerSendAgain(page: Page, button: 'Cancel' | 'Send Again', creates: () => number): Promise<void> {
  const before = creates();
  await expectText(page, DIALOG, /may have created an agent job already[\s\S]*send it again anyway\?/, 'the question before a second send');
  // Asking, not sending: nothing went while the question is open.
  if (creates() !== before) throw new Error('UI check: the prompt was sent again while the question was still open');
  await page.locator(`${DIALOG} .dialog-buttons .monaco-button`, { hasText: button }).first().click();
  await waitUntil(page, 'the question closed', async () => (await page.locator(DIALOG).count()) === 0);
}

export async function checkComposerAfterSend(page: Page, sim: Simulator, server: CodeServer, sentText: RegExp): Promise<string> {
  const creates = () => sim.requests.filter((r) => r.route === 'agent.create').length;
  const start = creates();

  // 1. Ask Agent… again, at once, on line 6: a fresh composer, no note about an unsent draft.
  await recordTexts(page, '.statusbar');
  const statusBefore = (await textsSeen(page, '.statusbar')).length;
  await askAgentOnLine(page, 'quickstart.mdx', 6);
  const fresh = await expectText(page, COMPOSER, /Page:\sdocs\/quickstart\.\s*mdx\s+Selected\s+line\s+6:\s+6\s+\|\s+Then\s+run\s+it\./, 'a fresh composer with line 6');
  if (sentText.test(fresh)) throw new Error(`UI check: the prompt already sent came back in the composer (${JSON.stringify(fresh.slice(0, 300))})`);
  const request = 'Add a table of the tested Node versions.';
  await page.keyboard.type(request, { delay: 5 });
  await expectText(page, COMPOSER, /tested\s+Node\s+versions\./, 'the new request in the composer');
  // Saved by the extension after the typing: anything it said when it opened the composer (an
  // "unsent draft" note) reached the window before that save did.
  await expectGone(page, '.tabs-container .tab.dirty', 'the composer saved', 'Ask Agent');
  const said = (await textsSeen(page, '.statusbar')).slice(statusBefore).find((text) => /unsent draft/.test(text));
  if (said !== undefined) throw new Error(`UI check: the status bar called the sent prompt an unsent draft (${JSON.stringify(said.slice(0, 200))})`);

  // 2. A 502: the job may exist. Ctrl+Enter again asks first; Cancel sends nothing.
  sim.injectFault({ route: 'agent.create', kind: 'status', status: 502 });
  await page.keyboard.press('Control+Enter');
  await confirmKeystrokeSend(page, creates);
  await waitUntil(page, 'the send', () => creates() === start + 1);
  await runCommand(page, 'Notifications: Show Notifications');
  await expectText(page, '.notifications-center', /may have been created anyway/, 'the warning that the job may exist');
  await page.keyboard.press('Escape');
  await page.locator(`${COMPOSER} >> .view-lines`).first().click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Control+Enter');
  await confirmKeystrokeSend(page, creates);
  await answerSendAgain(page, 'Cancel', creates);

  // 3. A real reload, once the draft is saved (what a reload or a restart reads is the file).
  const draftFile = () => findFiles(server.userDataDir, 'Ask Agent.md')[0];
  await waitUntil(page, 'the draft saved to its file', () => {
    const file = draftFile();
    return file !== undefined && readFileSync(file, 'utf8').includes(request);
  });
  const reloaded = page.waitForEvent('domcontentloaded', { timeout: 60_000 });
  await runCommand(page, 'Developer: Reload Window');
  await reloaded;
  if (creates() !== start + 1) throw new Error('UI check: Cancel sent the prompt');
  await page.locator('.activitybar [aria-label*="Docs Admin"]').first().waitFor({ state: 'visible', timeout: 60_000 });
  // The extension is back (its rows), so its commands are registered. The window restores the
  // side bar it had, which need not be ours: its view is asked for by name (a workbench command,
  // there before the extension runs), and the rows are looked for in the whole side bar.
  await runCommand(page, 'Docs Admin: Focus on Agent Jobs View');
  await expectText(page, '.sidebar', /acme\/docs @ docs-agent\//, 'the agent job rows after the reload', 60_000);
  await expectText(page, COMPOSER, /Selected\s+line\s+6[\s\S]*tested\s+Node\s+versions\./, 'the draft in its composer after the reload', 30_000);
  // Shown for five seconds: every text of the status bar is kept from before the command on.
  await recordTexts(page, '.statusbar');
  await runCommand(page, 'Docs Admin: Ask Agent…');
  await expectSeen(page, '.statusbar', /Your unsent draft is back/, 'the status bar saying the unsent draft is back', 60_000);
  const back = await expectText(page, COMPOSER, /Selected\s+line\s+6[\s\S]*tested\s+Node\s+versions\./, 'the draft in the composer after Ask Agent…');
  if (sentText.test(back)) throw new Error('UI check: the first prompt shows in the draft after the reload');
  // The mark survived the reload: asked again; Send Again sends it, once.
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Control+Enter');
  await confirmKeystrokeSend(page, creates);
  await answerSendAgain(page, 'Send Again', creates);
  await waitUntil(page, 'the second send', () => creates() === start + 2);
  const last = sim.requests.filter((r) => r.route === 'agent.create').at(-1);
  const sent = (JSON.parse(last?.body ?? '{}') as { prompt?: string }).prompt;
  if (last?.status !== 201 || sent !== `Page: docs/quickstart.mdx\nSelected line 6:\n6 | Then run it.\n\n${request}`) {
    throw new Error(`UI check: the agent got ${JSON.stringify(sent)} (status ${last?.status ?? 'none'}), not the draft`);
  }
  await waitUntil(page, 'the sent draft removed', () => draftFile() === undefined);
  // Sent once in all since the 502's (Cancel sent nothing, Send Again once).
  if (creates() !== start + 2) throw new Error(`UI check: ${creates() - start} creates since the composer's checks began, not 2`);
  return `fresh composer after a send, the question before a second send (Cancel sent nothing), the draft back after a real reload and sent once on Send Again (${creates() - start} creates)`;
}
