/**
 * What the core knows of the admin API's resources, after validation at the boundary.
 * Tolerant reader: unknown statuses are kept (`status: 'unknown'`, `rawStatus` holds the
 * server's word), extra fields are dropped, optional fields may be absent.
 */

export const AGENT_JOB_STATUSES = ['active', 'completed', 'archived', 'failed'] as const;
export type KnownAgentJobStatus = (typeof AGENT_JOB_STATUSES)[number];
export type AgentJobStatus = KnownAgentJobStatus | 'unknown';

/**
 * An agent job as far as the server said. The vendor's admin API 2.0.0 requires none of the
 * fields, so only `id` and `status` are always here (they are what tracking needs): a GET or a
 * follow-up answer without an id is the job asked about; a create or a follow-up answer without
 * a status is `active` (the job runs); a GET answer without one is `unknown`, with no `rawStatus`.
 * Everything else is absent when the server did not give it.
 */
export interface AgentJob {
  id: string;
  status: AgentJobStatus;
  /** The status exactly as the server sent it; absent when the answer had none. */
  rawStatus?: string;
  /** The repository (absent when not given) and the branch (null when none or not given). */
  source: { repository?: string; ref: string | null };
  model?: string;
  prLink: string | null;
  /** ISO 8601, as sent. */
  createdAt?: string;
  archivedAt: string | null;
}

export const EXPORT_JOB_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type KnownExportJobStatus = (typeof EXPORT_JOB_STATUSES)[number];
export type ExportJobStatus = KnownExportJobStatus | 'unknown';

export interface ExportJob {
  jobId: string;
  status: ExportJobStatus;
  rawStatus: string;
  /** Percent, 0 to 100, when the server reports it. */
  progress?: number;
  /** Pages exported so far, when the server reports it. */
  pageCount?: number;
  domain?: string;
  createdAt?: string;
  updatedAt?: string;
  /** The server's reason, when the job failed. */
  error?: string;
}

export interface StartExportRequest {
  /** A bare hostname: no scheme, no path, no trailing slash. */
  domain: string;
  version?: string;
  paths?: string[];
}

export interface Bundle {
  bundleUrl: string;
  jobId?: string;
  sizeBytes?: number;
  /** ISO 8601, when the server gives it. */
  expiresAt?: string;
  /** The server's `Date` header (epoch ms), for clock-skew correction. */
  serverDate?: number;
}

/** Options every API call accepts. */
export interface CallOptions {
  signal?: AbortSignal;
}
