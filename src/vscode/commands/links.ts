import * as vscode from 'vscode';
import type { Bundle } from '../../core/api';
import { bundleExpiry, timeLeftMs } from '../../core/bundle/expiry';
import { formatDuration } from '../../core/jobs/present';
import type { JobKey } from '../../core/jobs/registry';
import { checkOpenableLink } from '../../core/links';
import { redactUrl } from '../../core/redact';
import { command, isJobNode, requireService, type Deps } from './deps';

/** Opens a link only when it is https: (or loopback http:); says why otherwise. */
async function openSafely(deps: Deps, link: string | null | undefined, what: string): Promise<boolean> {
  const verdict = checkOpenableLink(link);
  if (!verdict.ok) {
    deps.log.warn(`Refused to open the ${what} (${redactUrl(String(link))}): ${verdict.reason}`);
    void vscode.window.showWarningMessage(`The ${what} was not opened: ${verdict.reason}.`);
    return false;
  }
  return vscode.env.openExternal(vscode.Uri.parse(verdict.url.href, true));
}

/**
 * Milliseconds the link has left on this machine's clock (from `expiresAt` or the link itself,
 * skew-corrected with the answer's `Date`); undefined when nothing says when it expires.
 */
export function linkTimeLeft(bundle: Bundle, receivedAt: number, now: number): number | undefined {
  const expiry = bundleExpiry(bundle);
  return expiry === undefined ? undefined : timeLeftMs(expiry, now, { serverDate: bundle.serverDate, receivedAt });
}

export function describeExpiry(left: number | undefined): string {
  if (left === undefined) return 'expiry not given';
  return left <= 0 ? 'link expired' : `link expires in ${formatDuration(left)}`;
}

/** The known link when it has at least a minute left, else a new one. */
async function freshBundle(deps: Deps, key: JobKey): Promise<{ bundle: Bundle; receivedAt: number }> {
  const service = requireService(deps);
  const job = service.get(key);
  if (job?.kind !== 'export') throw new Error('Pick an export job.');
  const known = deps.session.bundles.get(key);
  const left = known === undefined ? undefined : linkTimeLeft(known.bundle, known.receivedAt, Date.now());
  if (known !== undefined && left !== undefined && left > 60_000) return known;
  const client = deps.session.client;
  if (client === undefined) throw new Error('The environment is not set up.');
  const fresh = { bundle: await client.generateBundle(job.id), receivedAt: Date.now() };
  deps.session.bundles.set(key, fresh);
  service.refresh(key);
  return fresh;
}

export function registerLinkCommands(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.agentJob.openPullRequest', deps, async (node: unknown) => {
      if (!isJobNode(node)) throw new Error('Pick an agent job in the Docs Admin view.');
      const job = requireService(deps).get(node.key);
      if (job?.kind !== 'agent' || job.snapshot === undefined) throw new Error('That job has not been read yet.');
      if (job.snapshot.prLink === null) throw new Error('This job opened no pull request (it completed with no changes, or is still running).');
      return openSafely(deps, job.snapshot.prLink, 'pull request link');
    }),
    command('docsAdmin.agentJob.openRepository', deps, async (node: unknown) => {
      if (!isJobNode(node)) throw new Error('Pick an agent job in the Docs Admin view.');
      const job = requireService(deps).get(node.key);
      if (job?.kind !== 'agent' || job.snapshot === undefined) throw new Error('That job has not been read yet.');
      return openSafely(deps, job.snapshot.source.repository, 'repository link');
    }),
    command('docsAdmin.export.retry', deps, async (node: unknown) => {
      if (!isJobNode(node)) throw new Error('Pick an export job in the Docs Admin view.');
      const service = requireService(deps);
      const job = service.get(node.key);
      if (job?.kind !== 'export') throw new Error('Pick an export job.');
      const domain = job.domain ?? job.snapshot?.domain;
      if (domain === undefined) throw new Error('The domain of this export is not known; start a new export instead.');
      const started = await service.startExport(domain);
      return started.jobId;
    }),
    command('docsAdmin.export.copyBundleLink', deps, async (node: unknown) => {
      if (!isJobNode(node)) throw new Error('Pick a completed export in the Docs Admin view.');
      const { bundle, receivedAt } = await freshBundle(deps, node.key);
      await vscode.env.clipboard.writeText(bundle.bundleUrl);
      void vscode.window.showInformationMessage(`Bundle link copied (${describeExpiry(linkTimeLeft(bundle, receivedAt, Date.now()))}). It works for anyone who has it until then: share it with care.`);
      return true;
    }),
    command('docsAdmin.export.openBundleLink', deps, async (node: unknown) => {
      if (!isJobNode(node)) throw new Error('Pick a completed export in the Docs Admin view.');
      const { bundle } = await freshBundle(deps, node.key);
      return openSafely(deps, bundle.bundleUrl, 'bundle link');
    }),
  ];
}
