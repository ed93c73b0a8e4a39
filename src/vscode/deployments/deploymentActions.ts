/**
 * What the deployment commands share: the triggers of the active environment (one per API
 * client, so pacing and the one-request-in-flight rule hold across commands and rows), starting
 * a deployment or a preview with progress and Cancel (Cancel only while it waits: once sent, a
 * trigger cannot be taken back), and the tracked deployment of a row.
 */
import * as vscode from 'vscode';
import type { DeploymentTriggers, TriggerOptions } from '../../core/deployments/triggers';
import type { DeployTarget } from '../../core/deployments/deploymentTypes';
import type { TrackedJob } from '../../core/jobs/trackedJob';
import { isJobNode, requireService, type Deps } from '../commandKit/commandToolkit';
import { withCancellableProgress } from '../ui/cancellableProgress';

/** The triggers of the active environment's client. */
export function triggersOf(deps: Pick<Deps, 'session' | 'triggers'>): DeploymentTriggers {
  requireService(deps);
  const client = deps.session.client;
  if (client === undefined) throw new Error(vscode.l10n.t('Set the base URL and project id of the "{0}" environment first (Docs Admin: Set Base URL, Docs Admin: Set Project ID).', deps.session.environment.name));
  return deps.triggers.of(client);
}

export type DeploymentJob = Extract<TrackedJob, { kind: 'deployment' }>;

/**
 * Runs a trigger in a notification: what it waits for (the client's pacing, a 429) shows as its
 * message, and Cancel works until the request is sent. Undefined when cancelled.
 */
export function triggerWithProgress<T>(deps: Pick<Deps, 'ui'>, title: string, run: (options: TriggerOptions) => Promise<T>): Promise<T | undefined> {
  return withCancellableProgress(deps.ui, title, (progress, signal) =>
    run({
      signal,
      onWait: (ms, why) =>
        progress.report({
          message:
            why === 'paced'
              ? vscode.l10n.t("waiting {0} s to stay within the platform's rate limit…", Math.ceil(ms / 1000))
              : vscode.l10n.t('rate limited (429): sending again in {0} s…', Math.ceil(ms / 1000)),
        }),
    }),
  );
}

/** Tracks a deployment just started, and selects its row. */
export async function trackStarted(deps: Deps, statusId: string, target: DeployTarget): Promise<DeploymentJob> {
  const job = (await requireService(deps).trackDeployment(statusId, target)) as DeploymentJob;
  deps.reveal(deps.nodes.of(`deployment:${statusId}`, 'deployment'));
  await deps.setup.update();
  return job;
}

/** A preview of `branch`: started (paced, once), tracked, its row selected. Undefined when cancelled. */
export async function startPreview(deps: Deps, branch: string, agentJobId?: string): Promise<DeploymentJob | undefined> {
  const triggers = triggersOf(deps);
  const started = await triggerWithProgress(deps, vscode.l10n.t('Starting a preview of {0}…', branch), (options) => triggers.preview(branch, options));
  if (started === undefined) return undefined;
  const target: DeployTarget = { kind: 'preview', branch, ...(started.previewUrl === undefined ? {} : { previewUrl: started.previewUrl }), ...(agentJobId === undefined ? {} : { agentJobId }) };
  deps.log.info(`Preview of ${JSON.stringify(branch)} queued: status ${started.statusId}`);
  return trackStarted(deps, started.statusId, target);
}

/** A row's deployment (or the one a notification names). */
export function deploymentOf(deps: Pick<Deps, 'session' | 'nodes'>, node: unknown): DeploymentJob {
  if (!isJobNode(deps, node) || node.kind !== 'deployment') throw new Error(vscode.l10n.t('Pick a deployment in the Deployments view.'));
  const job = requireService(deps).get(node.key);
  if (job?.kind !== 'deployment') throw new Error(vscode.l10n.t('That deployment is no longer tracked.'));
  return job;
}

/** Asks which tracked deployment (for a command run from the palette); undefined when dismissed. */
export async function pickDeployment(deps: Pick<Deps, 'session' | 'ui'>, title: string, filter: (job: DeploymentJob) => boolean = () => true): Promise<DeploymentJob | undefined> {
  const { presentTracked } = await import('../../core/jobs/rows.js');
  const service = requireService(deps);
  const jobs = service.list().filter((j): j is DeploymentJob => j.kind === 'deployment' && filter(j)).sort((a, b) => b.addedAt - a.addedAt);
  if (jobs.length === 0) throw new Error(vscode.l10n.t('No deployment is tracked in "{0}": run Deploy Docs, Preview Branch… or Track Deployment… first.', deps.session.environment.name));
  const items = jobs.map((job) => {
    const p = presentTracked(job, service.errorOf(`deployment:${job.id}`), Date.now());
    // Server text (a branch, a commit message): no icon syntax.
    return { label: p.label.replace(/\$\(/g, '\\$('), description: p.description.replace(/\$\(/g, '\\$('), job };
  });
  return (await deps.ui.quickPick(items, { title, ignoreFocusOut: true }))?.job;
}
