/** A tracked job and its key: light, so views and commands can use them without the registry. */
import type { AgentJob, ExportJob } from '../api/types';

export type TrackedJob =
  | { kind: 'agent'; id: string; addedAt: number; snapshot?: AgentJob }
  | { kind: 'export'; id: string; addedAt: number; domain?: string; snapshot?: ExportJob };

export type JobKey = `${TrackedJob['kind']}:${string}`;

export function jobKey(job: Pick<TrackedJob, 'kind' | 'id'>): JobKey {
  return `${job.kind}:${job.id}`;
}
