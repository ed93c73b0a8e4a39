/** Tracked jobs as rows: their order and what each shows, with its last error and link expiry. */
import { presentAgentJob, presentExportJob, type Presentation } from './present';
import type { TrackedJob } from './registry';
import { isTerminal } from './present';

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
  if (job.snapshot === undefined) {
    p = {
      label: job.kind === 'export' ? (job.domain ?? job.id) : job.id,
      description: error === undefined ? 'loading…' : '',
      icon: 'loading~spin',
      color: undefined,
      contextValue: `${job.kind === 'agent' ? 'agentJob' : 'exportJob'}.loading`,
      details: [`Job: ${job.id}`],
    };
  } else {
    p = job.kind === 'agent' ? presentAgentJob(job.snapshot, now) : presentExportJob({ ...job.snapshot, ...(job.snapshot.domain === undefined && job.domain !== undefined ? { domain: job.domain } : {}) }, now);
  }
  if (expiry !== undefined) p = { ...p, description: `${p.description} · ${expiry}`, details: [...p.details, `Bundle link: ${expiry}`] };
  if (error !== undefined) {
    const short = error.split('. ')[0] ?? error;
    return { ...p, description: short, icon: 'warning', color: 'problemsWarningIcon.foreground', details: [...p.details, `Last error: ${error}`] };
  }
  return p;
}
