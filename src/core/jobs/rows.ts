/** Tracked jobs as rows: their order and what each shows, with its last error and link expiry. */
import * as l10n from '@vscode/l10n';
import { presentDeployment } from '../deployments/deploymentLabels';
import { formatAge, presentAgentJob, presentExportJob, type Presentation } from './jobLabels';
import { isTerminal, type TrackedJob } from './trackedJob';

/** Running first, then newest. */
export function compareJobs(a: TrackedJob, b: TrackedJob): number {
  const running = (j: TrackedJob) => (isTerminal(j) ? 1 : 0);
  const created = (j: TrackedJob) => {
    const at = j.snapshot?.createdAt === undefined ? NaN : Date.parse(j.snapshot.createdAt);
    return Number.isNaN(at) ? j.addedAt : at;
  };
  return running(a) - running(b) || created(b) - created(a);
}

export function presentTracked(job: TrackedJob, error: string | undefined, now: number, expiry?: string): Presentation {
  let p: Presentation;
  if (job.kind === 'deployment') {
    p = presentDeployment(job, now, (iso) => formatAge(iso, now));
  } else if (job.snapshot === undefined) {
    p = {
      label: job.kind === 'export' ? (job.domain ?? job.id) : job.id,
      description: error === undefined ? l10n.t('loading…') : '',
      icon: 'loading~spin',
      color: undefined,
      contextValue: `${job.kind === 'agent' ? 'agentJob' : 'exportJob'}.loading`,
      details: [l10n.t('Job: {0}', job.id)],
    };
  } else {
    p = job.kind === 'agent' ? presentAgentJob(job.snapshot, now) : presentExportJob({ ...job.snapshot, ...(job.snapshot.domain === undefined && job.domain !== undefined ? { domain: job.domain } : {}) }, now);
  }
  if (expiry !== undefined) p = { ...p, description: `${p.description} · ${expiry}`, details: [...p.details, l10n.t('Bundle link: {0}', expiry)] };
  if (error !== undefined) {
    const short = error.split('. ')[0] ?? error;
    return { ...p, description: short, icon: 'warning', color: 'problemsWarningIcon.foreground', details: [...p.details, l10n.t('Last error: {0}', error)] };
  }
  return p;
}
