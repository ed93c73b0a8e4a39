/**
 * The GitHub Action's entry (`action.yml` runs it as dist/action/index.js): reads the inputs,
 * masks the key before anything else is printed, runs the operation, sets the outputs as they
 * become known, writes the job summary, and exits as the CLI does (0 success, 1 the job failed,
 * 2 usage, 3 auth, 4 not found, 5 network, server or timeout, 6 bad bundle, 7 the request was
 * refused), a failure shown as
 * one error annotation. Nothing it prints holds the key or a link's signature; text from the
 * server passes through `forTerminal` (the log) or `forMarkdown` (the summary).
 */
import * as l10n from '@vscode/l10n';
import { isMainThread, workerData } from 'node:worker_threads';
import { isSiteWorker } from '../core/site/workerData';
import { adminKeyForms } from '../core/jobs/jobInput';
import type { Logger } from '../core/log';
import { redactSecrets } from '../core/redact';
import { forTerminal } from '../core/untrusted';
import { EXIT, exitCodeOf, UsageError } from '../cli/exit';
import { checkOperation } from './checkOperation';
import { actionClient } from './actionClient';
import type { Report } from './operationContext';
import { runOperation } from './operations';
import { checkOutput } from './outputs';
import { processIo, Runner, type RunnerIo } from './runner';
import { OPERATIONS, type Operation } from './spec';
import { summaryMarkdown } from './jobSummary';

export interface ActionOptions {
  signal: AbortSignal;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

function operationInput(runner: Runner): Operation {
  const value = runner.input('operation');
  const operation = OPERATIONS.find((o) => o === value);
  if (operation === undefined) throw new UsageError(l10n.t('The operation input is "{0}": use publish, export, agent, deploy, preview, report or check.', value));
  return operation;
}

function timeoutInput(runner: Runner): number {
  const text = runner.input('timeout');
  const seconds = Number(text);
  if (text === '' || !Number.isFinite(seconds) || seconds <= 0) throw new UsageError(l10n.t('The timeout input takes a positive number of seconds, not "{0}".', text));
  return seconds * 1000;
}

export async function runAction(io: RunnerIo, options: ActionOptions): Promise<number> {
  const runner = new Runner(io);
  // Before anything else reaches the log: from here on the runner shows the key as ***. The key
  // sent is the input cleaned ("Bearer " and invisible characters taken off): masked bare, and as given.
  const key = runner.input('api-key');
  const { secrets } = adminKeyForms(key);
  for (const secret of secrets) runner.mask(secret);
  const safe = (text: string) => forTerminal(redactSecrets(text, secrets));
  const line = (text: string) => runner.log(safe(text));
  const log: Logger = {
    trace: () => undefined,
    debug: (m) => runner.debug(safe(m)),
    info: (m) => runner.debug(safe(m)),
    warn: (m) => runner.warning(safe(m)),
    error: (m) => runner.warning(safe(m)),
  };
  const report: Report = {};
  let close: (() => Promise<void>) | undefined;
  try {
    const operation = operationInput(runner);
    report.operation = operation;
    const timeoutMs = timeoutInput(runner);
    if (operation === 'check') {
      // The site's files only: no key, no API.
      await checkOperation({
        root: runner.input('root'),
        workspace: io.env.GITHUB_WORKSPACE ?? process.cwd(),
        raw: (text) => runner.log(text),
        line,
        workerScript: __filename,
        signal: options.signal,
        report: (site) => (report.site = site),
      });
      return EXIT.ok;
    }
    if (key === '') throw new UsageError(l10n.t('The api-key input is empty: pass the admin key from a secret (api-key: ${{ secrets.DOCS_ADMIN_API_KEY }}).'));
    const client = await actionClient(runner, key, log, operation === 'agent' || operation === 'deploy' || operation === 'preview' || operation === 'report');
    close = () => client.close();
    await runOperation(operation, {
      client,
      report,
      line,
      output: (name, value) => {
        // Later steps read outputs, often pasted into a shell script: a value that is not what it should be is not set.
        const checked = checkOutput(name, value);
        if (checked.ok) runner.output(name, checked.value);
        else runner.warning(safe(l10n.t('The {0} output was not set: {1}.', name, checked.reason)));
      },
      input: (name) => runner.input(name),
      timeoutMs,
      env: io.env,
      log,
      signal: options.signal,
      ...(options.sleep === undefined ? {} : { sleep: options.sleep }),
    });
    return EXIT.ok;
  } catch (error) {
    const message = redactSecrets(error instanceof Error ? error.message : String(error), secrets);
    report.failure = message;
    runner.error(forTerminal(message), report.operation === undefined ? l10n.t('Docs Admin failed') : l10n.t('Docs Admin {0} failed', report.operation));
    return exitCodeOf(error);
  } finally {
    runner.summary(summaryMarkdown(report));
    await close?.();
  }
}

// The site check's parse workers run this same file (workerData says so).
if (!isMainThread && isSiteWorker(workerData)) void import('../core/site/worker.js');

if (require.main === module && isMainThread) {
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  process.once('SIGTERM', () => controller.abort());
  void runAction(processIo(), { signal: controller.signal }).then((code) => {
    process.exitCode = code;
  });
}
