/**
 * Runs a suite (a compiled module exporting `run()`) inside a real VS Code extension host
 * (code-server), with headless Chromium as the window, offline; resolves with its exit code.
 * Nothing it started survives it. The integration tests and the activation benchmark use it.
 * The "Docs Admin" channel logs at trace level; after the suite, every log file of the run and
 * everything it printed is scanned for the keys and signatures its simulators handed out (see
 * logScan.ts), and a hit fails the run.
 *
 * A run may load another copy of the extension (`extension`), give code-server more arguments
 * (`serverArgs`: the display language), run a `prepare` suite first in a window of its own (it
 * installs a language pack, which takes effect in the next window), and let the suite read what
 * the window shows (`screenFile`, see screen.ts).
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { format } from 'node:util';
import { failedTests } from '../support/failedTests';
import { launchBrowser, type Browser, type Page } from './browser';
import { findChromium } from './chromium';
import { startCodeServer, type CodeServer } from './codeServer';
import { ensureHost } from './install';
import { describeScan, readSecrets, scanRun, SECRETS_FILE_VARIABLE } from './logScan';
import { SCREEN_FILE_VARIABLE, watchScreen } from './screen';
import { isNoise, verbose, workbenchUrl } from './workbench';

export const REPO = resolve(__dirname, '..', '..', '..');
const EXTENSION_ID = 'docs-admin.docs-admin';

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
  /**
   * Fail unless the "Docs Admin" channel's log holds debug lines: proof that the scan for
   * secrets read what the extension logged (at trace level).
   */
  requireChannelLog?: boolean;
  /** The extension folder to load; the repository when absent. */
  extension?: string;
  /** More code-server arguments (`--locale <language>`). */
  serverArgs?: string[];
  /** A suite run first, in a window of its own, in the same server and profile; a failure stops the run. */
  prepare?: string;
  /** After the preparing suite, before the next window opens: waits in its page for what it must leave behind (its state stored). */
  afterPrepare?: (page: Page) => Promise<void>;
  /** Texts the window shows are written here while the suite runs (its path reaches the suite as DOCS_ADMIN_TEST_SCREEN_FILE). */
  screenFile?: string;
}

export async function runSuite(run: SuiteRun): Promise<number> {
  // A guard against a hung window, not a speed goal, so not a limit on the whole suite (a loaded
  // machine takes longer, and still passes): the window counts as hung when its extension host
  // prints nothing for this long (mocha prints each test as it ends, and no test may run longer
  // than two minutes).
  const silenceMs = Number(process.env.DOCS_ADMIN_TEST_HOST_TIMEOUT_MS ?? 300_000);
  const paths = ensureHost();
  const chromium = findChromium();
  const started = Date.now();
  const serverLog: string[] = [];
  /** Everything the extension host printed (mocha's report included), for the secrets scan. */
  const hostLog: string[] = [];
  const secretsDir = mkdtempSync(join(tmpdir(), 'docs-admin-secrets-'));
  const secretsFile = join(secretsDir, 'secrets.json');
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  try {
    server = await startCodeServer({
      paths,
      ...(run.settings === undefined ? {} : { settings: run.settings }),
      ...(run.serverArgs === undefined ? {} : { args: run.serverArgs }),
      onOutput: (line) => {
        serverLog.push(line);
        if (verbose()) console.log(`[code-server] ${line}`);
      },
    });
    browser = await launchBrowser(paths, chromium);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // Each window's suite ends with codeAutomationExit(code).
    let onExit: (code: number) => void = () => undefined;
    /** Something came from the window: it is not hung. */
    let heard: () => void = () => undefined;
    await page.exposeFunction('codeAutomationExit', (code: number) => onExit(Number(code)));
    await page.exposeFunction('codeAutomationLog', (type: string, args: unknown[]) => {
      // The workbench forwards console calls with their printf-style arguments.
      const text = format(...(Array.isArray(args) ? args : [args]));
      heard();
      hostLog.push(text);
      if (verbose() || (!isNoise(text) && run.quiet !== true)) (type === 'error' ? console.error : console.log)(text);
    });
    page.on('pageerror', (error) => {
      if (verbose()) console.error(`[workbench] ${error.message}`);
    });
    page.on('console', (message) => {
      if (verbose()) console.log(`[workbench:${message.type()}] ${message.text()}`);
    });
    const environment: Record<string, string> = { DOCS_ADMIN_INTEGRATION: '1', [SECRETS_FILE_VARIABLE]: secretsFile, ...run.env };
    if (run.screenFile !== undefined) environment[SCREEN_FILE_VARIABLE] = run.screenFile;
    for (const [key, value] of Object.entries(process.env)) if (key.startsWith('DOCS_ADMIN_TEST_') && value !== undefined) environment[key] = value;
    // CI reaches the suite: there a skipped test fails the run (test/support/skipped.ts).
    if (process.env.CI !== undefined) environment.CI = process.env.CI;
    const host = server;
    /** Opens the workbench on a suite and resolves with its exit code. */
    const runWindow = async (suite: string, watch?: string): Promise<number> => {
      const result = new Promise<number>((resolveExit) => {
        onExit = resolveExit;
      });
      // The "Docs Admin" channel at trace level: everything the extension can log reaches its log file.
      const payload = { extensionDevelopmentPath: run.extension ?? REPO, extensionTestsPath: suite, extensionEnvironment: environment, logLevel: `${EXTENSION_ID}:trace` };
      await page.goto(workbenchUrl(host, payload), { waitUntil: 'domcontentloaded' });
      const stopWatching = watch === undefined ? undefined : watchScreen(page, watch);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<number>((resolveTimeout) => {
        heard = () => {
          clearTimeout(timer);
          timer = setTimeout(() => {
            console.error(`The ${run.label} suite printed nothing for ${silenceMs / 1000} s: the window is hung.`);
            resolveTimeout(124);
          }, silenceMs);
        };
        heard();
      });
      try {
        return await Promise.race([result, timeout]);
      } finally {
        heard = () => undefined;
        clearTimeout(timer);
        await stopWatching?.();
      }
    };
    let code = run.prepare === undefined ? 0 : await runWindow(run.prepare);
    if (code !== 0) console.error(`${run.label}: the preparing suite (${run.prepare ?? ''}) failed with ${code}.`);
    else {
      await run.afterPrepare?.(page);
      code = await runWindow(run.suite, run.screenFile);
    }
    // The window closed, then code-server and every process it started (the extension hosts) gone:
    // nothing writes to the user data any more, and the scan reads it whole.
    await browser.close().catch(() => undefined);
    browser = undefined;
    await server.stop();
    // No secret in anything the run wrote or printed.
    const scan = scanRun(
      server.userDataDir,
      [...serverLog.map((text) => ({ source: 'code-server output', text })), ...hostLog.map((text) => ({ source: 'extension host console', text }))],
      readSecrets(secretsFile),
      [server.userDataDir, server.workspace],
    );
    if (scan.leaks.length > 0) {
      console.error(describeScan(scan));
      const keep = process.env.DOCS_ADMIN_TEST_HOST_KEEP_LOGS;
      if (keep !== undefined) cpSync(join(server.userDataDir, 'logs'), keep, { recursive: true });
      console.error(keep === undefined ? 'DOCS_ADMIN_TEST_HOST_KEEP_LOGS=<dir> keeps the log files.' : `The log files are in ${keep}.`);
      code ||= 1;
    } else if (run.requireChannelLog === true && !/\[debug\]/.test(scan.channel)) {
      console.error(`The "Docs Admin" log holds no debug line (log files: ${scan.files.join(', ') || 'none'}): the secrets scan read nothing the extension logged.`);
      code ||= 1;
    } else {
      console.log(`log scan: ${scan.files.length} log files and the run's output hold none of ${scan.keys} keys and ${scan.signatures} signatures, nor any bearer token or S3 signature; ${scan.diskFiles} files on disk hold none of ${scan.contacts} reader contacts`);
    }
    // A failed run's log files (the "Docs Admin" channel's at trace level) say what the extension did.
    const keepLogs = process.env.DOCS_ADMIN_TEST_HOST_KEEP_LOGS;
    if (code !== 0 && scan.leaks.length === 0) {
      if (keepLogs !== undefined) cpSync(join(server.userDataDir, 'logs'), keepLogs, { recursive: true });
      console.error(keepLogs === undefined ? 'DOCS_ADMIN_TEST_HOST_KEEP_LOGS=<dir> keeps the log files of a failed run.' : `The log files are in ${keepLogs}.`);
    }
    if (code !== 0 && !verbose()) {
      console.error('code-server (last lines; DOCS_ADMIN_TEST_HOST_VERBOSE=1 shows everything):');
      for (const line of serverLog.filter((l) => !isNoise(l)).slice(-30)) console.error(`  ${line}`);
    }
    // Which tests failed, last: a CI log is read from its end (mocha's report is far above).
    const failed = failedTests(hostLog);
    if (failed.length > 0) console.error(`${run.label}: ${failed.length} failed test(s):\n  ${failed.join('\n  ')}`);
    console.log(`${run.label}: exit ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s in VS Code (code-server) ${paths.dir.split('code-server-')[1]?.split('_')[0] ?? ''}`);
    return code;
  } finally {
    await browser?.close().catch(() => undefined);
    await server?.dispose();
    rmSync(secretsDir, { recursive: true, force: true });
  }
}
