/** What a finished job says in a notification, and which actions fit: pure, tested without an editor. */
import { isTerminal, repositoryName } from './present';
import type { Transition } from './service';

export interface Notice {
  severity: 'info' | 'error';
  message: string;
  actions: { title: string; command: string }[];
}

/** What a finished job says, and which actions fit. Pure, for tests; undefined when silent. */
export function noticeFor(t: Transition, setting: 'all' | 'failures' | 'none'): Notice | undefined {
  if (setting === 'none' || !isTerminal(t.job) || t.job.snapshot === undefined) return undefined;
  const failed = t.to === 'failed';
  if (setting === 'failures' && !failed) return undefined;
  const logs = { title: 'Show Logs', command: 'docsAdmin.logs.show' };
  if (t.job.kind === 'agent') {
    const snap = t.job.snapshot;
    const name = `${repositoryName(snap.source.repository)}${snap.source.ref === null ? '' : ` @ ${snap.source.ref}`}`;
    if (failed) return { severity: 'error', message: `Agent job on ${name} failed.`, actions: [logs] };
    if (t.to === 'archived') return { severity: 'info', message: `Agent job on ${name} was archived.`, actions: [] };
    return snap.prLink === null
      ? { severity: 'info', message: `Agent job on ${name} completed with no changes.`, actions: [] }
      : { severity: 'info', message: `Agent job on ${name} opened a pull request.`, actions: [{ title: 'Open Pull Request', command: 'docsAdmin.agentJob.openPullRequest' }] };
  }
  const domain = t.job.domain ?? t.job.snapshot.domain ?? t.job.id;
  if (failed) {
    const why = t.job.snapshot.error === undefined ? '' : `: ${t.job.snapshot.error}`;
    return { severity: 'error', message: `Static export of ${domain} failed${why}`, actions: [{ title: 'Retry', command: 'docsAdmin.export.retry' }, logs] };
  }
  const pages = t.job.snapshot.pageCount === undefined ? '' : ` (${t.job.snapshot.pageCount} pages)`;
  return { severity: 'info', message: `Static export of ${domain} completed${pages}.`, actions: [{ title: 'Copy Bundle Link', command: 'docsAdmin.export.copyBundleLink' }] };
}
