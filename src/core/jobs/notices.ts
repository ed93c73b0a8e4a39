/** What a finished job says in a notification, and which actions fit: pure, tested without an editor. */
import * as l10n from '@vscode/l10n';
import { deploymentNotice } from '../deployments/deploymentLabels';
import { agentJobName } from './jobLabels';
import type { Transition } from './service';
import { isTerminal } from './trackedJob';

export interface Notice {
  severity: 'info' | 'error';
  message: string;
  actions: { title: string; command: string }[];
}

/** What a finished job says, and which actions fit. Pure, for tests; undefined when silent. */
export function noticeFor(t: Transition, setting: 'all' | 'failures' | 'none'): Notice | undefined {
  if (t.job.kind === 'deployment') return deploymentNotice(t.job, setting);
  if (setting === 'none' || !isTerminal(t.job) || t.job.snapshot === undefined) return undefined;
  const failed = t.to === 'failed';
  if (setting === 'failures' && !failed) return undefined;
  const logs = { title: l10n.t('Show Logs'), command: 'docsAdmin.logs.show' };
  if (t.job.kind === 'agent') {
    const snap = t.job.snapshot;
    const name = agentJobName(snap);
    if (snap.source.repository === undefined) {
      // The answer named no repository: the job by its id.
      if (failed) return { severity: 'error', message: l10n.t('Agent job {0} failed.', name), actions: [logs] };
      if (t.to === 'archived') return { severity: 'info', message: l10n.t('Agent job {0} was archived.', name), actions: [] };
      return snap.prLink === null
        ? { severity: 'info', message: l10n.t('Agent job {0} completed with no changes.', name), actions: [] }
        : { severity: 'info', message: l10n.t('Agent job {0} opened a pull request.', name), actions: [{ title: l10n.t('Open Pull Request'), command: 'docsAdmin.agentJob.openPullRequest' }] };
    }
    if (failed) return { severity: 'error', message: l10n.t('Agent job on {0} failed.', name), actions: [logs] };
    if (t.to === 'archived') return { severity: 'info', message: l10n.t('Agent job on {0} was archived.', name), actions: [] };
    return snap.prLink === null
      ? { severity: 'info', message: l10n.t('Agent job on {0} completed with no changes.', name), actions: [] }
      : { severity: 'info', message: l10n.t('Agent job on {0} opened a pull request.', name), actions: [{ title: l10n.t('Open Pull Request'), command: 'docsAdmin.agentJob.openPullRequest' }] };
  }
  const domain = t.job.domain ?? t.job.snapshot.domain ?? t.job.id;
  if (failed) {
    const error = t.job.snapshot.error;
    const message = error === undefined ? l10n.t('Static export of {0} failed', domain) : l10n.t('Static export of {0} failed: {1}', domain, error);
    return { severity: 'error', message, actions: [{ title: l10n.t('Retry'), command: 'docsAdmin.export.retry' }, logs] };
  }
  const pages = t.job.snapshot.pageCount;
  const message = pages === undefined ? l10n.t('Static export of {0} completed.', domain) : l10n.t('Static export of {0} completed ({1} pages).', domain, pages);
  return { severity: 'info', message, actions: [{ title: l10n.t('Copy Bundle Link'), command: 'docsAdmin.export.copyBundleLink' }] };
}
