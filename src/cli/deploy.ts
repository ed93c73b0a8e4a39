/**
 * `docs-admin deploy`, `deploy status`, `preview` and `automation run`: the platform's deployments,
 * branch previews and automations, with the core's rules (paced, a 429 waited out once, never
 * sent twice after a timeout or a 5xx). Exit 0 on success, 1 when a followed deployment failed
 * (its last log lines on stderr), the other codes as every command.
 */
import * as l10n from '@vscode/l10n';
import { DeploymentTriggers, type TriggerOptions } from '../core/deployments/triggers';
import { parseAutomationId, parsePreviewBranch, parseStatusId } from '../core/deployments/deploymentInput';
import { PreviewWithoutIdError } from '../core/deployments/deploymentSchemas';
import { lastLines } from '../core/deployments/logs';
import type { Deployment } from '../core/deployments/deploymentTypes';
import { waitForDeployment } from '../core/jobs/wait';
import type { Parsed } from './args';
import { print, progressLine, waitOptions, type Context } from './context';
import { describeDeployment } from './describe';
import { EXIT, JobFailedError, UsageError } from './exit';

function triggerOptions(ctx: Context): TriggerOptions {
  return {
    signal: ctx.io.signal,
    onWait: (ms, why) =>
      ctx.io.err(
        `${why === 'paced' ? l10n.t("Waiting {0} s to stay within the platform's rate limit.", Math.ceil(ms / 1000)) : l10n.t('Rate limited (429): waiting {0} s, then sending once more.', Math.ceil(ms / 1000))}\n`,
      ),
  };
}

/** Follows a deployment to its end; a failure puts its last log lines on stderr and exits 1. */
async function follow(parsed: Parsed, ctx: Context, statusId: string, previewUrl?: string): Promise<number> {
  const client = await ctx.api();
  const line = progressLine(ctx);
  const done = await waitForDeployment(
    client,
    statusId,
    waitOptions<Deployment>(parsed, ctx, (d) => line.show(l10n.t('{0}: {1} · {2} log lines', d.id, d.rawStatus, d.logs.length))),
  );
  line.done();
  // A preview's stdout is its URL alone (a script reads it): the description goes to stderr.
  if (previewUrl !== undefined && !ctx.json) ctx.io.err(`${describeDeployment(done, previewUrl)}\n`);
  else print(ctx, previewUrl === undefined ? done : { ...done, previewUrl }, describeDeployment(done, previewUrl));
  if (done.status === 'failure') {
    const tail = lastLines(done.logs);
    if (tail.length > 0) ctx.io.err(`${l10n.t('The last {0} log lines:', tail.length)}\n${tail.map((l) => `  ${l}`).join('\n')}\n`);
    throw new JobFailedError(done.summary === undefined ? l10n.t('The deployment {0} failed.', done.id) : l10n.t('The deployment {0} failed: {1}', done.id, done.summary));
  }
  return EXIT.ok;
}

export async function run(parsed: Parsed, ctx: Context): Promise<number> {
  const wait = parsed.options.wait === true;
  switch (parsed.spec.name) {
    case 'deploy status': {
      const id = parseStatusId(parsed.args[0] ?? '', ctx.secrets);
      if (!id.ok) throw new UsageError(id.reason);
      if (wait) return follow(parsed, ctx, id.id);
      const client = await ctx.api();
      const d = await client.getDeploymentStatus(id.id, { signal: ctx.io.signal });
      print(ctx, d, describeDeployment(d));
      return EXIT.ok;
    }
    case 'deploy': {
      const client = await ctx.api();
      const { statusId } = await new DeploymentTriggers({ client }).deploy(triggerOptions(ctx));
      if (!wait) {
        print(ctx, { statusId }, statusId);
        return EXIT.ok;
      }
      // The id first, so a script (or a person) has it even if the wait is cut short.
      if (!ctx.json) ctx.io.err(`${l10n.t('Deployment {0} queued.', statusId)}\n`);
      return follow(parsed, ctx, statusId);
    }
    case 'preview': {
      const branch = parsePreviewBranch(parsed.args[0] ?? '');
      if (!branch.ok) throw new UsageError(branch.reason);
      const client = await ctx.api();
      let started;
      try {
        started = await new DeploymentTriggers({ client }).preview(branch.branch, triggerOptions(ctx));
      } catch (error) {
        if (!(error instanceof PreviewWithoutIdError)) throw error;
        // Queued, with an address but no status id (the vendor's document allows it): the URL is what stdout promises.
        print(ctx, { previewUrl: error.previewUrl }, error.previewUrl);
        ctx.io.err(`${l10n.t('The platform queued the preview of {0} ({1}), but its answer gives no status id, so it cannot be followed from here: open the URL, or follow it on the dashboard.', branch.branch, error.status ?? 202)}\n`);
        return EXIT.ok;
      }
      if (!wait) {
        print(ctx, started, started.previewUrl ?? started.statusId);
        if (!ctx.json) ctx.io.err(`${l10n.t('Preview of {0} queued (status id {1}).', branch.branch, started.statusId)}\n`);
        return EXIT.ok;
      }
      if (!ctx.json) ctx.io.err(`${l10n.t('Preview of {0} queued (status id {1}).', branch.branch, started.statusId)}\n`);
      const code = await follow(parsed, ctx, started.statusId, started.previewUrl ?? '');
      if (!ctx.json && started.previewUrl !== undefined) ctx.io.out(`${started.previewUrl}\n`);
      return code;
    }
    case 'automation run': {
      const id = parseAutomationId(parsed.args[0] ?? '', ctx.secrets);
      if (!id.ok) throw new UsageError(id.reason);
      const client = await ctx.api();
      const started = await new DeploymentTriggers({ client }).runAutomation(id.id, triggerOptions(ctx));
      const runId = started.instanceId ?? started.jobId;
      // stdout holds ids only (a script reads it): no id, nothing there, and a word on stderr.
      if (runId === undefined && !ctx.json) ctx.io.err(`${l10n.t('The automation started, but the answer gives no run id.')}\n`);
      else print(ctx, started, runId ?? '');
      return EXIT.ok;
    }
    default:
      throw new UsageError(l10n.t('"{0}" is not implemented.', parsed.spec.name));
  }
}
