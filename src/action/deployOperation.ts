/**
 * The action's `deploy` and `preview` operations: start a deployment of the project's deployment
 * branch, or a preview of a branch, with the core's rules (paced, a 429 waited out once when it
 * fits in the timeout, never sent twice after a timeout or a 5xx), then follow it to its end.
 * Outputs (`status-id`, `status`, `preview-url`) are checked before they are written, as every
 * output is (outputs.ts, through `ctx.output`): a value from the server that is not what its
 * name promises is left out, with a warning.
 */
import * as l10n from '@vscode/l10n';
import { PreviewWithoutIdError } from '../core/deployments/deploymentSchemas';
import { parsePreviewBranch } from '../core/deployments/deploymentInput';
import { lastLines } from '../core/deployments/logs';
import { DeploymentTriggers } from '../core/deployments/triggers';
import type { Deployment } from '../core/deployments/deploymentTypes';
import { waitForDeployment } from '../core/jobs/wait';
import { JobFailedError, UsageError } from '../cli/exit';
import type { OperationContext } from './operationContext';
import { checkOutput } from './outputs';

function triggers(ctx: OperationContext): DeploymentTriggers {
  return new DeploymentTriggers({ client: ctx.client, maxRateLimitWaitMs: ctx.timeoutMs, ...(ctx.sleep === undefined ? {} : { sleep: ctx.sleep }) });
}

const onWait = (ctx: OperationContext) => (ms: number, why: 'paced' | 'rateLimited') =>
  ctx.line(why === 'paced' ? l10n.t("Waiting {0} s to stay within the platform's rate limit.", Math.ceil(ms / 1000)) : l10n.t('Rate limited (429); trying again in {0} s.', Math.ceil(ms / 1000)));

/** Follows the deployment to its end, logging each status and each new log line; a failure fails the step. */
async function follow(ctx: OperationContext, statusId: string): Promise<void> {
  let status = '';
  let shown = 0;
  const done = await waitForDeployment(ctx.client, statusId, {
    signal: ctx.signal,
    timeoutMs: ctx.timeoutMs,
    ...(ctx.sleep === undefined ? {} : { sleep: ctx.sleep }),
    onUpdate: (d: Deployment) => {
      ctx.report.deployment = d;
      if (d.rawStatus !== status) {
        ctx.output('status', d.rawStatus);
        ctx.line(`${d.id}: ${d.rawStatus}`);
      }
      status = d.rawStatus;
      for (const line of lastLines(d.logs.slice(shown), Infinity)) ctx.line(`  ${line}`);
      shown = Math.max(shown, d.logs.length);
    },
  });
  ctx.report.deployment = done;
  if (done.status === 'failure') throw new JobFailedError(done.summary === undefined ? l10n.t('The deployment {0} failed.', done.id) : l10n.t('The deployment {0} failed: {1}', done.id, done.summary));
}

export async function deployOperation(ctx: OperationContext): Promise<void> {
  const { statusId } = await triggers(ctx).deploy({ signal: ctx.signal, onWait: onWait(ctx) });
  ctx.report.jobId = statusId;
  ctx.output('status-id', statusId);
  ctx.line(l10n.t('Deployment {0} queued.', statusId));
  if (ctx.input('wait') !== 'false') await follow(ctx, statusId);
}

export async function previewOperation(ctx: OperationContext): Promise<void> {
  const input = ctx.input('branch');
  if (input === '') throw new UsageError(l10n.t('The branch input is required by the preview operation: the branch to preview (say ${{ github.head_ref }}).'));
  const branch = parsePreviewBranch(input);
  if (!branch.ok) throw new UsageError(l10n.t('The branch input: {0}', branch.reason));
  ctx.report.branch = branch.branch;
  let started;
  try {
    started = await triggers(ctx).preview(branch.branch, { signal: ctx.signal, onWait: onWait(ctx) });
  } catch (error) {
    if (!(error instanceof PreviewWithoutIdError)) throw error;
    // Queued, with its URL but no status id (the vendor's document allows it): the URL is set, nothing to follow.
    ctx.output('preview-url', error.previewUrl);
    const url = checkOutput('preview-url', error.previewUrl);
    if (url.ok) ctx.report.previewUrl = url.value;
    ctx.line(l10n.t('Preview of {0} queued, but the answer gives no status id, so it cannot be followed: open its URL, or follow it on the dashboard.', branch.branch));
    return;
  }
  ctx.report.jobId = started.statusId;
  ctx.output('status-id', started.statusId);
  if (started.previewUrl !== undefined) {
    ctx.output('preview-url', started.previewUrl);
    // The summary links it only when it passed as an output.
    const url = checkOutput('preview-url', started.previewUrl);
    if (url.ok) ctx.report.previewUrl = url.value;
  }
  ctx.line(l10n.t('Preview of {0} queued (status id {1}).', branch.branch, started.statusId));
  if (ctx.input('wait') !== 'false') await follow(ctx, started.statusId);
}
