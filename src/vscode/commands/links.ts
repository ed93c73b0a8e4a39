import * as vscode from 'vscode';
import type { BundleLinks, IssuedLink } from '../../core/bundle/linkCache';
import { formatDuration } from '../../core/jobs/present';
import { checkOpenableLink } from '../../core/links';
import { redactUrl } from '../../core/redact';
import { readConfig } from '../config';
import { command, isJobNode, requireService, type Deps } from './deps';
import type { JobKey } from '../../core/jobs/trackedJob';

type LinkKind = 'pullRequest' | 'repository' | 'bundle';

/** What the log calls each link (the log stays English). */
const LOGGED_AS: Record<LinkKind, string> = { pullRequest: 'pull request link', repository: 'repository link', bundle: 'bundle link' };

/** Why a link was not opened, in a whole sentence per kind of link. */
function notOpened(kind: LinkKind, reason: string): string {
  switch (kind) {
    case 'pullRequest':
      return vscode.l10n.t('The pull request link was not opened: {0}.', reason);
    case 'repository':
      return vscode.l10n.t('The repository link was not opened: {0}.', reason);
    case 'bundle':
      return vscode.l10n.t('The bundle link was not opened: {0}.', reason);
  }
}

/** Opens a link only when it is https: (or loopback http:); says why otherwise. */
async function openSafely(deps: Deps, link: string | null | undefined, kind: LinkKind): Promise<boolean> {
  const verdict = checkOpenableLink(link);
  if (!verdict.ok) {
    deps.log.warn(`Refused to open the ${LOGGED_AS[kind]} (${redactUrl(String(link))}): ${verdict.reason}`);
    void vscode.window.showWarningMessage(notOpened(kind, verdict.reason));
    return false;
  }
  return vscode.env.openExternal(vscode.Uri.parse(verdict.url.href, true));
}

/** "link expires in 59m": on an export's row, and in parentheses in messages about its link. */
export function describeExpiry(left: number | undefined): string {
  if (left === undefined) return vscode.l10n.t('expiry not given');
  return left <= 0 ? vscode.l10n.t('link expired') : vscode.l10n.t('link expires in {0}', formatDuration(left));
}

/** The export job behind a tree row or a job key, with the session's link cache. */
export function exportJobOf(deps: Deps, key: JobKey): { id: string; domain: string | undefined; completed: boolean; links: BundleLinks } {
  const job = requireService(deps).get(key);
  if (job?.kind !== 'export') throw new Error(vscode.l10n.t('Pick an export job in the Static Exports view.'));
  const links = deps.session.links;
  if (links === undefined) throw new Error(vscode.l10n.t('The environment is not set up.'));
  return { id: job.id, domain: job.domain ?? job.snapshot?.domain, completed: job.snapshot?.status === 'completed', links };
}

/** The known link when it has at least the configured minutes left, else a new one. */
export async function freshLink(deps: Deps, key: JobKey, signal?: AbortSignal): Promise<IssuedLink> {
  const { id, links } = exportJobOf(deps, key);
  return links.fresh(id, readConfig().linkMinimumMs, signal === undefined ? {} : { signal });
}

export function registerLinkCommands(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.agentJob.openPullRequest', deps, async (node: unknown) => {
      if (!isJobNode(node)) throw new Error(vscode.l10n.t('Pick an agent job in the Docs Admin view.'));
      const job = requireService(deps).get(node.key);
      if (job?.kind !== 'agent' || job.snapshot === undefined) throw new Error(vscode.l10n.t('That job has not been read yet.'));
      if (job.snapshot.prLink === null) throw new Error(vscode.l10n.t('This job opened no pull request (it completed with no changes, or is still running).'));
      return openSafely(deps, job.snapshot.prLink, 'pullRequest');
    }),
    command('docsAdmin.agentJob.openRepository', deps, async (node: unknown) => {
      if (!isJobNode(node)) throw new Error(vscode.l10n.t('Pick an agent job in the Docs Admin view.'));
      const job = requireService(deps).get(node.key);
      if (job?.kind !== 'agent' || job.snapshot === undefined) throw new Error(vscode.l10n.t('That job has not been read yet.'));
      return openSafely(deps, job.snapshot.source.repository, 'repository');
    }),
    command('docsAdmin.export.retry', deps, async (node: unknown) => {
      if (!isJobNode(node)) throw new Error(vscode.l10n.t('Pick an export job in the Docs Admin view.'));
      const service = requireService(deps);
      const job = service.get(node.key);
      if (job?.kind !== 'export') throw new Error(vscode.l10n.t('Pick an export job.'));
      const domain = job.domain ?? job.snapshot?.domain;
      if (domain === undefined) throw new Error(vscode.l10n.t('The domain of this export is not known; start a new export instead.'));
      const started = await service.startExport(domain);
      return started.jobId;
    }),
    command('docsAdmin.export.copyBundleLink', deps, async (node: unknown) => {
      if (!isJobNode(node)) throw new Error(vscode.l10n.t('Pick a completed export in the Docs Admin view.'));
      const link = await freshLink(deps, node.key);
      await vscode.env.clipboard.writeText(link.bundle.bundleUrl);
      const left = deps.session.links?.timeLeft(link);
      void vscode.window.showInformationMessage(vscode.l10n.t('Bundle link copied ({0}). It works for anyone who has it until then: share it with care.', describeExpiry(left)));
      return true;
    }),
    command('docsAdmin.export.openBundleLink', deps, async (node: unknown) => {
      if (!isJobNode(node)) throw new Error(vscode.l10n.t('Pick a completed export in the Docs Admin view.'));
      const link = await freshLink(deps, node.key);
      return openSafely(deps, link.bundle.bundleUrl, 'bundle');
    }),
  ];
}
