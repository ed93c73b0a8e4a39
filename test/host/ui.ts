/**
 * The UI check: the extension in a real VS Code (code-server), driven through headless
 * Chromium like a person would: the activity bar, the tree rows, the status bar, the command
 * palette. Saves screenshots to out/screenshots (docs/screenshots with
 * DOCS_ADMIN_UPDATE_SCREENSHOTS=1, for the README). Exits non-zero when something is missing.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { demoTracked, seedDemo } from '../simulator/demo';
import { Simulator } from '../simulator';
import { makeTestCertificates } from '../support/certificates';
import { writePlaygroundSite } from '../simulator/playgroundSite';
import { makeAgentRepository, type AgentRepository } from './agentRepository';
import { launchBrowser, type Browser, type Page } from './browser';
import { findChromium } from './chromium';
import { startCodeServer, type CodeServer } from './codeServer';
import { ensureHost } from './install';
import { failureReport } from './failureReport';
import { checkComposerAfterSend } from './uiComposer';
import { expectGone, expectText, painted, paletteRows, pickFromMenu, runCommand, settled, until } from './uiSteps';
import { workbenchUrl } from './workbench';

const REPO = resolve(__dirname, '..', '..', '..');
const SHOTS = process.env.DOCS_ADMIN_UPDATE_SCREENSHOTS === '1' ? join(REPO, 'docs', 'screenshots') : join(REPO, 'out', 'screenshots');

/**
 * Sets the colour theme as a person without the theme picker would (offline, this build's
 * picker lists only the failed marketplace search): in the user settings JSON, saved from the
 * editor, which the workbench applies at once. Waits until it is applied.
 */
async function selectTheme(page: Page, server: CodeServer, settings: Record<string, unknown>, theme: string): Promise<void> {
  await runCommand(page, 'Preferences: Open User Settings (JSON)');
  await expectText(page, '.editor-instance', /workbench\.colorTheme/, 'the user settings in the editor');
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(JSON.stringify({ ...settings, 'workbench.colorTheme': theme }, null, 2));
  await page.keyboard.press('Control+S');
  const dark = !/Light/.test(theme);
  const contrast = /High Contrast/.test(theme);
  // The workbench marks the theme's kind on its root element.
  let kind: string | null = null;
  await until(`the theme "${theme}" applied`, async () => {
    kind = await page.locator('.monaco-workbench').first().getAttribute('class');
    return kind !== null && (contrast ? /\bhc-(black|light)\b/.test(kind) && /hc-light/.test(kind) !== dark : /\bvs-dark\b/.test(kind) === dark && !/\bhc-/.test(kind));
  }).catch(() => {
    throw new Error(`UI check: the theme "${theme}" was not applied (workbench classes: ${kind ?? 'none'})`);
  });
  const saved = readFileSync(join(server.userDataDir, 'User', 'settings.json'), 'utf8');
  if (!saved.trimEnd().endsWith('}') || saved.trimEnd().endsWith('}}')) throw new Error(`UI check: the settings were not saved as typed:\n${saved}`);
  await page.keyboard.press('Control+W');
  await expectGone(page, '.tabs-container .tab', 'the user settings closed', 'settings.json');
}

/**
 * The codicon each status shows (src/core/jobs/jobLabels.ts), by the first words of its row's
 * description: the shape, not only the colour, tells the statuses apart, in every theme.
 */
const STATUS_ICONS: [RegExp, string][] = [
  [/^active\b/, 'sync'],
  [/^pull request opened\b/, 'git-pull-request'],
  [/^completed, no changes\b/, 'check'],
  [/^failed\b/, 'error'],
  [/^archived\b/, 'archive'],
  [/^queued\b/, 'clock'],
  [/^running\b/, 'sync'],
  [/^completed\b/, 'package'],
  [/^deploying\b/, 'sync'],
  [/^deployed\b/, 'rocket'],
];
/** The demo's rows cover these statuses (at least), in the two views. */
const DEMO_STATUSES = ['active', 'pull request opened', 'failed', 'archived', 'completed', 'queued', 'deployed'];

/** Every job row of both views: its description and the codicon of its icon; fails on a row whose icon is not its status's. */
async function expectStatusIcons(page: Page, theme: string): Promise<string> {
  const rows = await page.locator('.pane-body .monaco-list-row').evaluateAll((elements) =>
    elements.map((row) => ({
      description: row.querySelector('.label-description')?.textContent ?? '',
      icon: [...(row.querySelector('.custom-view-tree-node-item-icon')?.classList ?? [])].filter((c) => c.startsWith('codicon-') && !c.startsWith('codicon-modifier-')).map((c) => c.slice('codicon-'.length)),
    })),
  );
  const seen = new Set<string>();
  for (const row of rows) {
    const wanted = STATUS_ICONS.find(([status]) => status.test(row.description));
    if (wanted === undefined) continue;
    seen.add(/^[a-z ,]+?(?= ·|$)/.exec(row.description)?.[0] ?? row.description);
    if (row.icon.length !== 1 || row.icon[0] !== wanted[1]) throw new Error(`UI check: in ${theme}, the row "${row.description}" shows the icon ${JSON.stringify(row.icon)}, not codicon-${wanted[1]}`);
  }
  const missing = DEMO_STATUSES.filter((status) => ![...seen].some((s) => s === status || s.startsWith(`${status} `)));
  if (missing.length > 0) throw new Error(`UI check: in ${theme}, no row with the status ${missing.join(', ')} (rows: ${JSON.stringify(rows.map((r) => r.description))})`);
  return [...seen].sort().join(', ');
}

const VALUES = `# The deployment's Helm values (only staticExport is Docs Admin's to change)
replicaCount: 2
staticExport:
  enabled: false
  bundleUrl: ""
ingress:
  host: docs.acme.dev
`;

async function main(): Promise<void> {
  const paths = ensureHost();
  const chromium = findChromium();
  mkdirSync(SHOTS, { recursive: true });
  // HTTPS, as in real use (a test CA the extension is told to trust), and 7-day links, as S3
  // allows: the values file then shows what a person would see, not the loopback-http warning.
  const pki = makeTestCertificates();
  const sim = await Simulator.start({ timeScale: 10, tls: { key: pki.key, cert: pki.cert }, linkTtlSeconds: 7 * 24 * 3600 });
  // The demo's jobs under way are held as they start (active, queued, deploying) however long this takes.
  seedDemo(sim, { hold: true });
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  let repository: AgentRepository | undefined;
  try {
    server = await startCodeServer({
      paths,
      settings: {
        'docsAdmin.baseUrl': sim.baseUrl,
        'docsAdmin.projectId': sim.projectId,
        'workbench.colorTheme': 'Default Dark Modern',
        // The themes are set by typing into settings.json: no auto-closing or indenting.
        'editor.autoClosingBrackets': 'never',
        'editor.autoClosingQuotes': 'never',
        'editor.autoIndent': 'none',
        // helm is not on this machine: the rollout task shows the command it would run.
        'docsAdmin.rollout.command': 'echo helm upgrade --install ${release} ${chart} -f ${valuesFile}',
        // Review Changes works through the built-in Git extension (off in the test hosts by default).
        'git.enabled': true,
      },
    });
    // A machine-scoped setting: in a remote window (code-server is one) it lives in the remote
    // machine's settings; VS Code ignores it in the user settings there.
    mkdirSync(join(server.userDataDir, 'Machine'), { recursive: true });
    writeFileSync(join(server.userDataDir, 'Machine', 'settings.json'), JSON.stringify({ 'docsAdmin.network.extraCaCertificates': [pki.caFile] }));
    // The docs repository the demo agent job works on, cloned in the workspace (for Review Changes).
    repository = makeAgentRepository(server.workspace, 'agent/quickstart');
    // The playground's docs site (docs/docs.json and its pages), which the simulator's reader analytics speak of.
    writePlaygroundSite(server.workspace);
    // The values file the publish writes to, there from the start: with the Git extension on,
    // Quick Open's file list does not always see a file made later in time.
    const valuesFile = join(server.workspace, 'deploy', 'values.yaml');
    mkdirSync(join(server.workspace, 'deploy'), { recursive: true });
    writeFileSync(valuesFile, VALUES);
    browser = await launchBrowser(paths, chromium);
    page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(
      workbenchUrl(server, { extensionDevelopmentPath: REPO, extensionEnvironment: { DOCS_ADMIN_PLAYGROUND_KEY: sim.key, DOCS_ADMIN_PLAYGROUND_TRACK: demoTracked(sim).join(',') } }),
      { waitUntil: 'domcontentloaded' },
    );
    const icon = page.locator('.activitybar [aria-label*="Docs Admin"]');
    await icon.first().waitFor({ state: 'visible', timeout: 60_000 });
    // Before the extension runs (no view open, no command run: nothing has activated it), the
    // palette knows only the settings: the default environment's base URL and project id are set,
    // so it offers what needs the project; what needs a key, a job or a bundle waits for the extension.
    // Publish is enabled only in a trusted workspace, and the window sets its isWorkspaceTrusted
    // context key once workspace trust has initialised, which can come after the first palette:
    // read the palette again until it offers the set, or the workbench has had a minute.
    const needsProject = ['agent.ask', 'agentJob.track', 'automation.run', 'baseUrl.set', 'deployment.deploy', 'deployment.preview', 'deployment.track', 'deploymentType.show', 'environment.switch', 'export.start', 'key.set', 'logs.show', 'projectId.set', 'publish', 'readers.period', 'readers.refresh', 'refresh', 'site.open', 'site.set', 'walkthrough.open'];
    let beforeActivation: string[] = [];
    for (const until = Date.now() + 60_000; ; ) {
      beforeActivation = (await paletteRows(page, 'Docs Admin:')).map((row) => row.id).filter((id) => !/^docsAdmin\.\w+\.focus$/.test(id));
      if (JSON.stringify([...beforeActivation].sort()) === JSON.stringify(needsProject.map((c) => `docsAdmin.${c}`))) break;
      if (Date.now() > until) throw new Error(`UI check: before the extension runs, with a base URL and a project id, the palette shows ${beforeActivation.join(', ')}`);
    }
    console.log(`UI check: before the extension runs, the palette shows the ${beforeActivation.length} Docs Admin commands a set-up project needs`);
    await icon.first().click();
    const tree = await expectText(page, '.pane-body', /acme\/docs @ agent\/quickstart[\s\S]*active/, 'the agent job rows');
    await expectText(page, '.pane-body >> nth=1', /docs\.acme\.dev[\s\S]*(queued|running)/, 'the running export row');
    const status = await expectText(page, '.statusbar', /agent jobs?/, 'the status-bar item');
    await painted(page);
    await page.screenshot({ path: join(SHOTS, 'tree-and-status-bar.png') });
    await page.keyboard.press('F1');
    await page.keyboard.type('Docs Admin', { delay: 10 });
    await expectText(page, '.quick-input-widget', /Docs Admin: /, 'the commands in the palette');
    await painted(page);
    await page.screenshot({ path: join(SHOTS, 'command-palette.png') });
    // The tree in the dark, light and high-contrast themes: every status keeps its own icon shape.
    const settings = JSON.parse(readFileSync(join(server.userDataDir, 'User', 'settings.json'), 'utf8')) as Record<string, unknown>;
    const iconsSeen = [`Default Dark Modern: ${await expectStatusIcons(page, 'Default Dark Modern')}`];
    for (const [theme, file] of [['Default Light Modern', 'theme-light.png'], ['Default High Contrast', 'theme-high-contrast-dark.png'], ['Default High Contrast Light', 'theme-high-contrast-light.png']] as const) {
      await selectTheme(page, server, settings, theme);
      await expectText(page, '.pane-body', /acme\/docs/, `the rows in ${theme}`);
      iconsSeen.push(`${theme}: ${await expectStatusIcons(page, theme)}`);
      await page.screenshot({ path: join(SHOTS, file) });
    }
    console.log(`UI check: each status's icon, by theme: ${iconsSeen.join('; ')}`);
    await selectTheme(page, server, settings, 'Default Dark Modern');

    // Every row of the palette (its list draws only what fits: listQuickInput makes room), after the
    // themes, whose rows must be seen while the demo's jobs still run. What fits the moment: the
    // playground is set up and has a completed export and deployments, but no extracted bundle and
    // no air-gapped deployment; a row's own commands never show.
    const palette = (await paletteRows(page, 'Docs Admin')).map((row) => row.label);
    for (const title of ['Set Admin Key', 'Track Agent Job…', 'Ask Agent…', 'Start Static Export…', 'Switch Environment', 'Download Bundle…', 'Extract Bundle…', 'Show Deployment Logs']) {
      if (!palette.includes(`Docs Admin: ${title}`)) throw new Error(`UI check: the palette lacks "Docs Admin: ${title}" (it shows ${palette.join(', ')})`);
    }
    for (const title of ['Serve Bundle Locally', 'Import Bundle File…', 'Send to Agent', 'Copy Link', 'Review Changes', 'Open Preview']) {
      if (palette.includes(`Docs Admin: ${title}`)) throw new Error(`UI check: the palette shows "Docs Admin: ${title}", which does not fit the moment`);
    }
    console.log(`UI check: the palette shows ${palette.filter((label) => !/: Focus on .* View$/.test(label)).length} Docs Admin commands`);

    // Ask Agent from a page: the composer beside it, prefilled with the page and the selected
    // lines; Ctrl+Enter asks, and Enter sends; the new job's row appears.
    await runCommand(page, 'View: Close All Editor Groups');
    mkdirSync(join(server.workspace, 'docs'), { recursive: true });
    writeFileSync(join(server.workspace, 'docs', 'quickstart.mdx'), '# Quickstart\n\nInstall the CLI with npm.\n<Tip>Node 20 or later.</Tip>\n\nThen run it.\n');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-widget input').fill('quickstart.mdx');
    await expectText(page, '.quick-input-widget .monaco-list', /quickstart\.mdx/, 'the page in Quick Open');
    await page.keyboard.press('Enter');
    await expectText(page, '.editor-instance', /Install\sthe\sCLI/, 'the page in the editor');
    await page.keyboard.press('Control+G');
    await page.keyboard.type('3');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    // From the palette, without the Escape that runCommand presses first (it would drop the selection).
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').fill('>Docs Admin: Ask Agent…');
    await expectText(page, '.quick-input-widget .monaco-list', /Docs Admin: Ask Agent…/, '"Docs Admin: Ask Agent…" in the palette');
    await page.keyboard.press('Enter');
    await expectText(page, '.editor-instance >> nth=1', /Page:\sdocs\/quickstart\.[\s\S]*Selected\slines\s3-4/, 'the composer with the page and the selection');
    await page.keyboard.type('Say which Node versions are tested, and link the install guide.', { delay: 5 });
    await expectText(page, '.editor-instance >> nth=1', /install\s+guide/, 'the request in the composer');
    // Back to the top, where the Send CodeLens sits (the view keeps only what is on screen).
    await page.keyboard.press('Control+Home');
    await expectText(page, '.editor-instance >> nth=1 >> .codelens-decoration', /Send\sto\sagent/, 'the Send CodeLens');
    await painted(page);
    await page.screenshot({ path: join(SHOTS, 'ask-agent-composer.png') });
    await page.keyboard.press('Control+Enter');
    // Ctrl+Enter asks first (a link could run the same command), showing the prompt; Enter sends.
    await expectText(page, '.monaco-dialog-box', /Send this prompt to the agent\?[\s\S]*Say which Node versions are tested/, 'the question before sending');
    await page.keyboard.press('Enter');
    await expectText(page, '.pane-body', /acme\/docs @ docs-agent\/[\s\S]*active/, 'the new job row');
    await painted(page);
    await page.screenshot({ path: join(SHOTS, 'ask-agent-new-row.png') });
    // Ask Agent… again, a send that may have arrived, and a real reload (uiComposer.ts).
    const composerSeen = await checkComposerAfterSend(page, sim, server, /Say\s+which\s+Node\s+versions\s+are\s+tested/);
    console.log(`UI check: ${composerSeen}`);

    // Readers: the quickstart's signals on its first line; the Readers view; Ask Agent About This
    // on an unanswered question, the question quoted in the composer.
    await runCommand(page, 'View: Close All Editor Groups');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-widget input').fill('quickstart.mdx');
    await expectText(page, '.quick-input-widget .monaco-list', /quickstart\.mdx/, 'the page in Quick Open');
    await page.keyboard.press('Enter');
    const lens = await expectText(page, '.editor-instance .codelens-decoration', /\d+ open comments? · \d+ unanswered questions? · [\d.]+k? views \(\d+ % AI\)/, 'the page\'s reader signals on its first line', 30_000);
    // Room for the Readers view: the job views and the Deployments view folded for a moment (the tree draws only the rows on screen).
    const header = (name: string) => page!.locator('.sidebar .pane-header', { hasText: name }).first();
    for (const name of ['Agent Jobs', 'Static Exports', 'Deployments']) if ((await header(name).getAttribute('aria-expanded')) === 'true') await header(name).click();
    if ((await header('Readers').getAttribute('aria-expanded')) !== 'true') await header('Readers').click();
    await expectText(page, '.sidebar', /Pages[\s\S]*docs\/quickstart\.mdx[\s\S]*Unanswered questions[\s\S]*Searches that found nothing useful/, 'the Readers view', 30_000);
    // The group's row (level 1), not a page whose description counts its unanswered questions.
    const questionsGroup = page.locator('.sidebar .monaco-list-row[aria-level="1"]', { hasText: /^\s*Unanswered questions/ }).first();
    if ((await questionsGroup.getAttribute('aria-expanded')) !== 'true') await questionsGroup.click();
    // The quickstart's row under Unanswered questions: the second (the first is under Pages).
    const rows = page.locator('.sidebar .monaco-list-row[aria-level="2"]', { hasText: 'docs/quickstart.mdx' });
    await until('the quickstart under Unanswered questions', async () => (await rows.count()) >= 2);
    const questionRow = rows.nth(1);
    if ((await questionRow.getAttribute('aria-expanded')) !== 'true') await questionRow.click();
    await expectText(page, '.sidebar', /How do I install the CLI on Windows\?/, 'the unanswered questions of the quickstart');
    await settled(page, 900, 650);
    await page.screenshot({ path: join(SHOTS, 'readers-view.png') });
    await page.locator('.sidebar .monaco-list-row', { hasText: 'How do I install the CLI on Windows?' }).first().click({ button: 'right' });
    await pickFromMenu(page, 'Ask Agent About This');
    // The cursor waits at the end, under the quoted question and the instruction's line.
    await expectText(page, '.editor-instance >> nth=1', /could\s+not\s+answer[\s\S]*>\s+How\s+do\s+I\s+install\s+the\s+CLI\s+on\s+Windows\?[\s\S]*My\s+instruction:/, 'the composer with the question quoted');
    await page.keyboard.type('Add a Windows section to the quickstart.', { delay: 5 });
    // The composer alone, wide, from its top: the page it is about.
    await runCommand(page, 'View: Close Editors in Other Groups');
    await until('one editor group left', async () => (await page!.locator('.editor-instance').count()) === 1);
    await page.locator('.editor-instance .view-lines').first().click();
    await page.keyboard.press('Control+Home');
    // Monaco keeps its lines' elements in any order: each part is looked for on its own.
    for (const [pattern, what] of [
      [/Page:\s+docs\/quickstart\.mdx\s+\(\/quickstart\s+on\s+the\s+site\)/, 'the page the draft is about'],
      [/>\s+How\s+do\s+I\s+install\s+the\s+CLI\s+on\s+Windows\?/, 'the question, quoted'],
      [/Add\s+a\s+Windows\s+section/, 'the instruction typed'],
    ] as const) await expectText(page, '.editor-instance', pattern, what);
    await settled(page, 900, 650);
    await page.screenshot({ path: join(SHOTS, 'readers-ask-agent.png') });
    await runCommand(page, 'Docs Admin: Discard Prompt Draft');
    // From the palette it asks first (a link could run the same command): Discard.
    await expectText(page, '.monaco-dialog-box', /Discard this prompt draft\?/, 'the question before discarding the draft');
    await page.locator('.monaco-dialog-box .dialog-buttons .monaco-button', { hasText: /^\s*Discard\s*$/ }).first().click();
    await expectGone(page, '.monaco-dialog-box', 'the question before discarding closed');
    for (const name of ['Agent Jobs', 'Static Exports', 'Deployments']) if ((await header(name).getAttribute('aria-expanded')) !== 'true') await header(name).click();
    if ((await header('Readers').getAttribute('aria-expanded')) === 'true') await header('Readers').click();
    console.log(`UI check: reader signals seen on the page ("${lens.replace(/\s+/g, " ").trim()}"), the Readers view, and Ask Agent About This`);

    // The walkthrough: the steps the playground has done are ticked off, the last is open.
    await runCommand(page, 'Docs Admin: Get Started');
    await expectText(page, '.gettingStartedContainer', /Get started with Docs Admin[\s\S]*Set your admin key/, 'the walkthrough');
    const steps = page.locator('.getting-started-step');
    const ticks = async () => {
      const done: string[] = [];
      for (let i = 0; i < (await steps.count()); i++) done.push(`${(await steps.nth(i).innerText()).split('\n')[0] ?? ''}: ${(await steps.nth(i).getAttribute('aria-checked')) ?? '?'}`);
      return done.join(', ');
    };
    const wanted = 'Connect to your project: true, Set your admin key: true, Follow an agent job: true, Ask the agent: true, See what readers say: true, Start a static export: true, Deploy and preview: true, Publish to a self-hosted deployment: false';
    await until('the walkthrough\'s steps ticked off as done', async () => (await ticks()) === wanted).catch(async () => {
      throw new Error(`UI check: the walkthrough's steps are not ticked off as done (${await ticks()})`);
    });
    await painted(page);
    await page.screenshot({ path: join(SHOTS, 'walkthrough.png') });

    // Publish: export, bundle, the values file, the rollout in a terminal.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-widget input').fill('values.yaml');
    await expectText(page, '.quick-input-widget .monaco-list', /values\.yaml/, 'the values file in Quick Open');
    await page.keyboard.press('Enter');
    await expectText(page, '.editor-instance', /staticExport/, 'the values file in the editor');
    // One export at a time in the status bar: the demo's (held queued so far) ends first.
    sim.stepJob('exp-demo-running', 26 * 60_000);
    sim.release('exp-demo-running');
    await runCommand(page, 'Docs Admin: Refresh');
    await until('the demo export ended', async () => !/Export/.test(await page!.locator('.statusbar').first().innerText()));
    // The publish's export is held by the simulator at 40 % while its progress is read and shown.
    sim.setExportDefaults({ queuedMs: 0, durationMs: 150_000, held: true });
    let publishedExport: string | undefined;
    const stopStepping = sim.onExchange(({ request, reply }) => {
      if (request.route !== 'export.start') return;
      publishedExport = (JSON.parse(reply.body) as { jobId: string }).jobId;
      sim.stepJob(publishedExport, 60_000);
    });
    await runCommand(page, 'Docs Admin: Publish Static Export…');
    await page.locator('.quick-input-widget input').fill('docs.acme.dev');
    await page.keyboard.press('Enter');
    await expectText(page, '.quick-input-widget .monaco-list', /deploy\/values\.yaml/, 'the values file to publish to');
    await page.keyboard.press('Enter');
    // Toasts do not always render headless; the notification centre lists the progress too.
    await expectText(page, '.statusbar', /Export \d+%/, 'the export in the status bar', 30_000);
    await runCommand(page, 'Notifications: Show Notifications');
    await expectText(page, '.notifications-center', /Publishing docs\.acme\.dev: Waiting for the export: [1-9]\d*%/, 'the publish progress', 30_000);
    await painted(page);
    await page.screenshot({ path: join(SHOTS, 'publish-progress.png') });
    // Seen: the export runs on to its end.
    stopStepping();
    sim.setExportDefaults({ held: false });
    if (publishedExport === undefined) throw new Error('UI check: the publish started no export');
    sim.stepJob(publishedExport, 90_000);
    sim.release(publishedExport);
    await page.keyboard.press('Escape');
    // The terminal draws its text on a canvas: look for the task's terminal in the panel.
    await expectText(page, '.part.panel', /Roll out the docs deployment/, 'the rollout task in a terminal', 60_000);
    await expectText(page, '.editor-instance', /bundleUrl:\s*"?https:/, 'the new bundle link in the values file', 10_000);
    if (!/enabled: true/.test(readFileSync(valuesFile, 'utf8'))) throw new Error('UI check: the values file on disk was not updated');
    await painted(page);
    await page.screenshot({ path: join(SHOTS, 'publish-done.png') });

    // Review Changes: the demo job's branch, from the workspace's clone, in the multi-file diff editor.
    await runCommand(page, 'View: Hide Panel');
    // The view container may be open already (a click on its icon would close it).
    // (Ask Agent's job above works on docs-agent/quickstart-…: the demo job is "@ agent/quickstart".)
    if ((await page.locator('.sidebar .pane-body .monaco-list-row', { hasText: '@ agent/quickstart' }).count()) === 0) await icon.first().click();
    await expectText(page, '.sidebar .pane-body', /@ agent\/quickstart[^\n]*\n?[^\n]*in acme-docs/, 'the agent job row naming the open repository', 60_000);
    const jobRow = page.locator('.sidebar .pane-body .monaco-list-row', { hasText: '@ agent/quickstart' }).first();
    await jobRow.click({ button: 'right' });
    await pickFromMenu(page, 'Review Changes');
    await expectText(page, '.tabs-container', /Agent job acme\/docs @ agent\/quickstart \(agent-rewrite-quickstart\) \(3 files\)/, 'the review\'s tab', 30_000);
    await expectText(page, '.editor-instance', /first-page\.md[\s\S]*legacy-setup\.md[\s\S]*quickstart\.md|quickstart\.md/, 'the changed files in the multi-file diff', 30_000);
    // Out of the way of the rows (their tooltips) and the diff.
    await settled(page, 660, 640);
    await page.screenshot({ path: join(SHOTS, 'review-changes.png') });

    // Deployments: Preview Agent Branch on the demo job's row, then the Deployments view with a
    // deployment of each status, and a failed one's logs in their read-only editor.
    await runCommand(page, 'View: Close All Editor Groups');
    await jobRow.click({ button: 'right' });
    await pickFromMenu(page, 'Preview Agent Branch');
    await expectText(page, '.sidebar .pane-body', /@ agent\/quickstart[^\n]*\n?[^\n]*preview ready/, 'the agent row saying its preview is ready', 60_000);
    // Room for the Deployments view: the Static Exports view folded, the Deployments view open.
    const exportsHeader = page.locator('.sidebar .pane-header', { hasText: 'Static Exports' }).first();
    if ((await exportsHeader.getAttribute('aria-expanded')) === 'true') await exportsHeader.click();
    const deployments = page.locator('.sidebar .pane-header', { hasText: 'Deployments' }).first();
    if ((await deployments.getAttribute('aria-expanded')) !== 'true') await deployments.click();
    // Running first, then newest: the agent's preview and a running deployment are both on screen.
    const deploymentRows = await expectText(page, '.sidebar .pane:has(.pane-header:has-text("Deployments")) .pane-body', /^(?=[\s\S]*Preview of agent\/quickstart)(?=[\s\S]*(deploying|queued))/, 'the Deployments view with the agent\'s preview and a running deployment', 30_000);
    await expectText(page, '.statusbar', /Deploying · |deployments/, 'the running deployment in the status bar');
    await settled(page, 660, 640);
    await page.screenshot({ path: join(SHOTS, 'deployments.png') });
    // The failed demo preview's logs, picked from the palette (its row may be below the view's fold).
    await runCommand(page, 'Docs Admin: Show Deployment Logs');
    await page.locator('.quick-input-widget input').fill('agent/fr');
    await expectText(page, '.quick-input-widget .monaco-list', /Preview of agent\/fr/, 'the failed preview in the pick list');
    await page.keyboard.press('Enter');
    await expectText(page, '.editor-instance', /Error:\s+guides\/install\.mdx:12:3:\s+Unknown\s+component/, 'the failure line in the logs (the lines wrap)', 30_000);
    await settled(page, 660, 640);
    await page.screenshot({ path: join(SHOTS, 'deployment-logs.png') });
    console.log(`UI check: the Deployments view shows ${deploymentRows.split('\n').filter((l) => /^(Production|Preview of)/.test(l)).length} deployments`);

    console.log(`UI check: tree rows, readers, status bar ("${status.split('\n').find((l) => /agent job/.test(l)) ?? ''}"), palette, themes, Ask Agent, walkthrough, a publish, a review, a preview and the deployments with their logs seen; ${tree.split('\n').length} lines in the view; screenshots in ${SHOTS}`);
  } catch (error) {
    // What the page showed when it failed, to see why.
    await page?.screenshot({ path: join(SHOTS, 'failure.png') }).catch(() => undefined);
    console.error(`UI check failed; what it knew then:\n${failureReport(sim, server?.userDataDir)}`);
    throw error;
  } finally {
    await browser?.close().catch(() => undefined);
    await server?.dispose();
    repository?.remove();
    await sim.stop();
    pki.remove();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
