/**
 * The action's `deploy` and `preview` operations: start a deployment of the project's deployment
 * branch, or a preview of a branch, with the core's rules (paced, a 429 waited out once when it
 * fits in the timeout, never sent twice after a timeout or a 5xx), then follow it to its end.
 * Outputs (`status-id`, `status`, `preview-url`) are checked before they are written: a value
 * from the server that is not what its name promises is left out, with a warning.
 */
import * as l10n from '@vscode/l10n';
import { parsePreviewBranch } from '../core/deployments/input';
import { lastLines } from '../core/deployments/logs';
import { DeploymentTriggers } from '../core/deployments/triggers';
import { DEPLOYMENT_STATUSES, type Deployment } from '../core/deployments/types';
import { waitForDeployment } from '../core/jobs/wait';
import { checkOpenableLink } from '../core/links';
import { JobFailedError, UsageError } from '../cli/exit';
import type { OperationContext } from './operations';

const STATUS_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,199}$/;

/** The value, when it is what the output's name promises; undefined (and a warning) otherwise. */
export function checkedOutput(name: 'status-id' | 'status' | 'preview-url', value: string): string | undefined {
  switch (name) {
    case 'status-id':
      return STATUS_ID.test(value) ? value : undefined;
    case 'status':
      return (DEPLOYMENT_STATUSES as readonly string[]).includes(value) ? value : undefined;
    case 'preview-url': {
      const verdict = checkOpenableLink(value);
      return verdict.ok && !/[\s\p{Cc}\p{Cf}]/u.test(value) ? verdict.url.href : undefined;
    }
  }
}

/** The checked value, or undefined with a warning in the log (then the output is not written). */
function checked(ctx: OperationContext, name: 'status-id' | 'status' | 'preview-url', value: string): string | undefined {
  const ok = checkedOutput(name, value);
  if (ok === undefined) ctx.log.warn(`The server's ${name} was not written to the step's outputs: it is not a valid ${name}.`);
  return ok;
}

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
        const value = checked(ctx, 'status', d.rawStatus);
        if (value !== undefined) ctx.output('status', value);
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
  const id = checked(ctx, 'status-id', statusId);
  if (id !== undefined) ctx.output('status-id', id);
  ctx.line(l10n.t('Deployment {0} queued.', statusId));
  if (ctx.input('wait') !== 'false') await follow(ctx, statusId);
}

export async function previewOperation(ctx: OperationContext): Promise<void> {
  const input = ctx.input('branch');
  if (input === '') throw new UsageError(l10n.t('The branch input is required by the preview operation: the branch to preview (say ${{ github.head_ref }}).'));
  const branch = parsePreviewBranch(input);
  if (!branch.ok) throw new UsageError(l10n.t('The branch input: {0}', branch.reason));
  ctx.report.branch = branch.branch;
  const started = await triggers(ctx).preview(branch.branch, { signal: ctx.signal, onWait: onWait(ctx) });
  ctx.report.jobId = started.statusId;
  const id = checked(ctx, 'status-id', started.statusId);
  if (id !== undefined) ctx.output('status-id', id);
  const url = started.previewUrl === undefined ? undefined : checked(ctx, 'preview-url', started.previewUrl);
  if (url !== undefined) {
    ctx.report.previewUrl = url;
    ctx.output('preview-url', url);
  }
  ctx.line(l10n.t('Preview of {0} queued (status id {1}).', branch.branch, started.statusId));
  if (ctx.input('wait') !== 'false') await follow(ctx, started.statusId);
}
