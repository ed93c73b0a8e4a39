/**
 * The export job a command works on, and its bundle link: the job behind a row or a job key with
 * the session's link cache, a link with enough time left, and how that time reads.
 */
import * as vscode from 'vscode';
import type { BundleLinks, IssuedLink } from '../../core/bundle/links/linkCache';
import type { JobKey } from '../../core/jobs/trackedJob';
import { requireService, type Deps } from '../commandKit/commandToolkit';
import { readConfig } from '../session/extensionConfig';
import { formatDuration } from '../../core/formatUnits';

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

/**
 * For Copy and Open Bundle Link: the known link when it has at least the configured minutes
 * left, else a new one that has not expired.
 */
export async function freshLink(deps: Deps, key: JobKey, signal?: AbortSignal): Promise<IssuedLink> {
  const { id, links } = exportJobOf(deps, key);
  return links.freshToHandOn(id, readConfig().linkMinimumMs, signal === undefined ? {} : { signal });
}
