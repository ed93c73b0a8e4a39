/**
 * Runs a suite (a compiled module exporting `run()`) inside a real VS Code extension host
 * (code-server), with headless Chromium as the window, offline; resolves with its exit code.
 * Nothing it started survives it. The integration tests and the activation benchmark use it.
 */
import { resolve } from 'node:path';
import { format } from 'node:util';
import { launchBrowser, type Browser } from './browser';
import { findChromium } from './chromium';
import { startCodeServer, type CodeServer } from './codeServer';
import { ensureHost } from './install';
import { isNoise, verbose, workbenchUrl } from './workbench';

export const REPO = resolve(__dirname, '..', '..', '..');

export interface SuiteRun {
  /** Absolute path of the compiled suite module. */
  suite: string;
  /** Shown in the last line: "integration: exit 0 after …". */
  label: string;
  /** More variables for the extension host. */
  env?: Record<string, string>;
  /** Workbench user settings. */
  settings?: Record<string, unknown>;
  quiet?: boolean;
}

export async function runSuite(run: SuiteRun): Promise<number> {
  const timeoutMs = Number(process.env.DOCS_ADMIN_TEST_HOST_TIMEOUT_MS ?? 300_000);
  const paths = ensureHost();
  const chromium = findChromium();
  const started = Date.now();
  const serverLog: string[] = [];
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  try {
    server = await startCodeServer({
      paths,
      ...(run.settings === undefined ? {} : { settings: run.settings }),
      onOutput: (line) => {
        serverLog.push(line);
        if (verbose()) console.log(`[code-server] ${line}`);
      },
    });
    browser = await launchBrowser(paths, chromium);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const result = new Promise<number>((resolveExit) => {
      void page.exposeFunction('codeAutomationExit', (code: number) => resolveExit(Number(code)));
    });
    await page.exposeFunction('codeAutomationLog', (type: string, args: unknown[]) => {
      // The workbench forwards console calls with their printf-style arguments.
      const text = format(...(Array.isArray(args) ? args : [args]));
      if (verbose() || (!isNoise(text) && run.quiet !== true)) (type === 'error' ? console.error : console.log)(text);
    });
    page.on('pageerror', (error) => {
      if (verbose()) console.error(`[workbench] ${error.message}`);
    });
    page.on('console', (message) => {
      if (verbose()) console.log(`[workbench:${message.type()}] ${message.text()}`);
    });
    const environment: Record<string, string> = { DOCS_ADMIN_INTEGRATION: '1', ...run.env };
    for (const [key, value] of Object.entries(process.env)) if (key.startsWith('DOCS_ADMIN_TEST_') && value !== undefined) environment[key] = value;
    await page.goto(workbenchUrl(server, { extensionDevelopmentPath: REPO, extensionTestsPath: run.suite, extensionEnvironment: environment }), { waitUntil: 'domcontentloaded' });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<number>((resolveTimeout) => {
      timer = setTimeout(() => {
        console.error(`The integration suite did not finish within ${timeoutMs / 1000} s.`);
        resolveTimeout(124);
      }, timeoutMs);
    });
    const code = await Promise.race([result, timeout]);
    clearTimeout(timer);
    if (code !== 0 && !verbose()) {
      console.error('code-server (last lines; DOCS_ADMIN_TEST_HOST_VERBOSE=1 shows everything):');
      for (const line of serverLog.filter((l) => !isNoise(l)).slice(-30)) console.error(`  ${line}`);
    }
    console.log(`${run.label}: exit ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s in VS Code (code-server) ${paths.dir.split('code-server-')[1]?.split('_')[0] ?? ''}`);
    return code;
  } finally {
    await browser?.close().catch(() => undefined);
    await server?.stop();
  }
}
