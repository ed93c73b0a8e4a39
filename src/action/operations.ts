/**
 * The action's operations, over the core: `export` (start, wait, generate the bundle link),
 * `publish` (the core's publish pipeline: export, wait, bundle, values file, rollout), `agent`
 * (create a job from a prompt, wait for it) and `report` (what readers said: report.ts). Each fills in the `Report` as it goes, so
 * the summary and the outputs show what was done even when a later step fails.
 */
import * as l10n from '@vscode/l10n';
import { resolve } from 'node:path';
import type { AgentJob, Bundle, ExportJob } from '../core/api/apiTypes';
import { askAgent } from '../core/agent/ask';
import { BundleLinks } from '../core/bundle/links/linkCache';
import { publish, stepTitle } from '../core/helm/publishPipeline';
import { valuesFile } from '../core/helm/valuesFile';
import { parseExportDomain } from '../core/jobs/jobInput';
import { agentStatusText } from '../core/jobs/jobLabels';
import { waitForAgentJob, waitForExportJob } from '../core/jobs/wait';
import { redactUrl } from '../core/redact';
import { describeAgent, describeExport } from '../cli/describe';
import { JobFailedError, UsageError } from '../cli/exit';
import { deployOperation, previewOperation } from './deployOperation';
import type { OperationContext } from './operationContext';
import { reportOperation } from './report';
import { rolloutRunner } from './rolloutInput';
import type { Operation } from './spec';

/** Logs an export's status line only when it changed. */
function progressLogger(ctx: OperationContext): (job: ExportJob) => void {
  let last = '';
  return (job) => {
    const text = describeExport(job).split('\n')[0] ?? '';
    if (text !== last) ctx.line(text);
    last = text;
  };
}

function domainInput(ctx: OperationContext): string {
  const domain = parseExportDomain(ctx.input('domain'));
  if (!domain.ok) throw new UsageError(l10n.t('The domain input: {0}', domain.reason));
  ctx.report.domain = domain.domain;
  return domain.domain;
}

/** The bundle's outputs: the link without its signature, and when it expires. */
function reportBundle(ctx: OperationContext, bundle: Bundle, receivedAt: number): void {
  const left = new BundleLinks(() => Promise.resolve(bundle)).timeLeft({ bundle, receivedAt });
  ctx.report.bundleUrl = redactUrl(bundle.bundleUrl);
  ctx.output('bundle-url', ctx.report.bundleUrl);
  if (left !== undefined) {
    ctx.report.expiresAt = new Date(receivedAt + left).toISOString();
    ctx.output('expires-at', ctx.report.expiresAt);
  }
}

function exportFailed(job: ExportJob): JobFailedError {
  return new JobFailedError(job.error === undefined ? l10n.t('The export {0} failed.', job.jobId) : l10n.t('The export {0} failed: {1}.', job.jobId, job.error));
}

async function exportOnly(ctx: OperationContext): Promise<void> {
  const domain = domainInput(ctx);
  const version = ctx.input('version');
  const started = await ctx.client.startExport({ domain, ...(version === '' ? {} : { version }) }, { signal: ctx.signal });
  ctx.report.jobId = started.jobId;
  ctx.output('job-id', started.jobId);
  ctx.line(l10n.t('Export {0} started for {1}.', started.jobId, domain));
  const done = await waitForExportJob(ctx.client, started.jobId, { signal: ctx.signal, timeoutMs: ctx.timeoutMs, onUpdate: progressLogger(ctx) });
  if (done.pageCount !== undefined) ctx.report.pages = done.pageCount;
  if (done.status !== 'completed') throw exportFailed(done);
  const links = new BundleLinks((id, o) => ctx.client.generateBundle(id, o));
  const issued = await links.issue(started.jobId, { signal: ctx.signal });
  reportBundle(ctx, issued.bundle, issued.receivedAt);
}

async function publishOperation(ctx: OperationContext): Promise<void> {
  const domain = domainInput(ctx);
  const values = ctx.input('values-file');
  if (values === '') throw new UsageError(l10n.t('The values-file input is required by the publish operation: the Helm values file to update.'));
  ctx.report.valuesFile = values;
  const version = ctx.input('version');
  const rollout = ctx.input('rollout-command');
  const result = await publish({
    client: ctx.client,
    domain,
    values: valuesFile(resolve(values)),
    ...(version === '' ? {} : { version }),
    ...(rollout === '' ? {} : { rollout: rolloutRunner(rollout, ctx.env, (text) => ctx.line(text)) }),
    signal: ctx.signal,
    log: ctx.log,
    wait: { timeoutMs: ctx.timeoutMs },
    onStep: (step, detail) => {
      if (step === 'wait' && detail !== undefined) {
        ctx.report.jobId = detail;
        ctx.output('job-id', detail);
      }
      ctx.line(detail === undefined || step === 'values' ? l10n.t('{0}…', stepTitle(step, l10n)) : l10n.t('{0} ({1})…', stepTitle(step, l10n), detail));
    },
    onProgress: progressLogger(ctx),
  });
  if (result.pageCount !== undefined) ctx.report.pages = result.pageCount;
  ctx.report.valuesChanged = result.valuesChanged;
  ctx.report.rolledOut = result.rolledOut;
  reportBundle(ctx, result.bundle, Date.now());
}

/**
 * Creates the job with the core's rules (core/agent/ask.ts), shared with the CLI and the editor:
 * a 429 (nothing was created) is waited out once, when the server says for how long and that
 * fits in the timeout; a create that timed out or got a 5xx may have made the job, so it is
 * never sent again, and the failure says so.
 */
function createAgentJob(ctx: OperationContext, prompt: string): Promise<AgentJob> {
  return askAgent(ctx.client, { kind: 'create' }, prompt, {
    signal: ctx.signal,
    maxRateLimitWaitMs: ctx.timeoutMs,
    onRateLimitWait: (ms) => ctx.line(l10n.t('The agent is rate limited (429); trying again in {0} s.', Math.ceil(ms / 1000))),
    ...(ctx.sleep === undefined ? {} : { sleep: ctx.sleep }),
  });
}

async function agentOperation(ctx: OperationContext): Promise<void> {
  const prompt = ctx.input('prompt');
  if (prompt === '') throw new UsageError(l10n.t('The prompt input is required by the agent operation: what the agent should do.'));
  const created = await createAgentJob(ctx, prompt);
  ctx.report.jobId = created.id;
  ctx.report.agent = created;
  ctx.output('job-id', created.id);
  ctx.line(l10n.t('Agent job {0} created.', created.id));
  let last = agentStatusText(created);
  const job = await waitForAgentJob(ctx.client, created.id, {
    signal: ctx.signal,
    timeoutMs: ctx.timeoutMs,
    onUpdate: (j) => {
      const status = agentStatusText(j);
      if (status !== last) ctx.line(`${j.id}: ${status}`);
      last = status;
    },
  });
  ctx.report.agent = job;
  if (job.prLink !== null) ctx.output('pr-link', job.prLink);
  ctx.line(describeAgent(job));
  if (job.status === 'failed') throw new JobFailedError(l10n.t('The agent job {0} failed.', job.id));
}

export function runOperation(operation: Operation, ctx: OperationContext): Promise<void> {
  switch (operation) {
    case 'export':
      return exportOnly(ctx);
    case 'publish':
      return publishOperation(ctx);
    case 'agent':
      return agentOperation(ctx);
    case 'deploy':
      return deployOperation(ctx);
    case 'preview':
      return previewOperation(ctx);
    case 'report':
      return reportOperation(ctx);
    case 'check':
      // Run by actionMain.ts before any API client exists (it needs none).
      return Promise.resolve();
  }
}
