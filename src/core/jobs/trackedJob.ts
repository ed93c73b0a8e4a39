/**
 * A tracked job, its key and whether it has ended: light (no validation library, no I/O), so
 * storage, the registry, the views and the commands share them without loading each other.
 */
import type { AgentJob, ExportJob } from '../api/apiTypes';
import { isDeploymentTerminal, type DeploymentSnapshot, type DeployTarget } from '../deployments/deploymentTypes';

export type TrackedJob =
  /** `reopenedAt`: when a follow-up last made the job active again (epoch ms). */
  | { kind: 'agent'; id: string; addedAt: number; reopenedAt?: number; snapshot?: AgentJob }
  | { kind: 'export'; id: string; addedAt: number; domain?: string; snapshot?: ExportJob }
  /** A deployment or preview, by its status id; `target` unknown when it was tracked by its id alone. */
  | { kind: 'deployment'; id: string; addedAt: number; target?: DeployTarget; snapshot?: DeploymentSnapshot };

/** What the registry stores of a job's last reading. */
export type JobSnapshot = AgentJob | ExportJob | DeploymentSnapshot;

export type JobKind = TrackedJob['kind'];

/** `agent:<id>`, `export:<id>` or `deployment:<statusId>`: one job of one environment. */
export type JobKey = `${JobKind}:${string}`;

export function jobKey(job: Pick<TrackedJob, 'kind' | 'id'>): JobKey {
  return `${job.kind}:${job.id}`;
}

/** The kind and id of a key; undefined for a text that is not one (stored data, say). */
export function parseJobKey(key: string): { kind: JobKind; id: string } | undefined {
  const colon = key.indexOf(':');
  const kind = key.slice(0, colon);
  const id = key.slice(colon + 1);
  return colon > 0 && id !== '' && (kind === 'agent' || kind === 'export' || kind === 'deployment') ? { kind, id } : undefined;
}

export function isAgentTerminal(job: Pick<AgentJob, 'status'>): boolean {
  return job.status === 'completed' || job.status === 'failed' || job.status === 'archived';
}

export function isExportTerminal(job: Pick<ExportJob, 'status'>): boolean {
  return job.status === 'completed' || job.status === 'failed';
}

/** Whether a tracked job has reached a status it never leaves (unknown statuses are not). */
export function isTerminal(job: TrackedJob): boolean {
  if (job.snapshot === undefined) return false;
  switch (job.kind) {
    case 'agent':
      return isAgentTerminal(job.snapshot);
    case 'export':
      return isExportTerminal(job.snapshot);
    case 'deployment':
      return isDeploymentTerminal(job.snapshot);
  }
}

/** When a job was last made active again (0: never): a later reopening outranks an earlier end. */
export function reopenedAt(job: TrackedJob): number {
  return job.kind === 'agent' ? (job.reopenedAt ?? 0) : 0;
}
