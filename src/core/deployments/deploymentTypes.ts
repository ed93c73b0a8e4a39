/**
 * What the core knows of deployments, preview deployments and automation runs, after validation
 * at the boundary (platform-api.md; the vendor's openapi.json leaves every field optional).
 * Tolerant reader: an unknown status is kept as `unknown` with the server's word, an unknown
 * source as the server's word.
 */

export const DEPLOYMENT_STATUSES = ['queued', 'in_progress', 'success', 'failure'] as const;
export type KnownDeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];
export type DeploymentStatus = KnownDeploymentStatus | 'unknown';

export interface FilesChanged {
  added: string[];
  modified: string[];
  removed: string[];
}

export interface DeploymentCommit {
  sha?: string;
  ref?: string;
  message?: string;
  filesChanged?: FilesChanged;
}

export interface DeploymentAuthor {
  name?: string;
  avatarUrl?: string;
  githubUserId?: number;
}

/** `GET /v1/project/update-status/{statusId}`, read. */
export interface Deployment {
  /** The status id. */
  id: string;
  status: DeploymentStatus;
  /** The status exactly as the server sent it. */
  rawStatus: string;
  projectId?: string;
  /** ISO 8601, as sent. */
  createdAt?: string;
  /** ISO 8601; absent while it runs. */
  endedAt?: string;
  summary?: string;
  /** The log lines so far (server text). */
  logs: string[];
  subdomain?: string;
  screenshot?: string;
  screenshotLight?: string;
  screenshotDark?: string;
  author: DeploymentAuthor | null;
  commit?: DeploymentCommit;
  /** `api`, `github`, `dashboard`, … (the server's word). */
  source?: string;
}

/**
 * A deployment as the tracked-jobs registry keeps it (in the editor's storage, shared by its
 * windows): without its logs, which can be long (their count only: a new line is a change),
 * and with at most `MAX_STORED_FILES` names of each kind of changed file (their counts whole).
 */
export type DeploymentSnapshot = Omit<Deployment, 'logs' | 'commit'> & {
  logLines: number;
  commit?: Omit<DeploymentCommit, 'filesChanged'> & { filesChanged?: FilesChanged; filesCount?: { added: number; modified: number; removed: number } };
};

/** What a deployment deploys: production, a branch's preview, or (tracked by its status id alone) not known. */
export type DeployTarget = { kind: 'production' } | { kind: 'preview'; branch: string; previewUrl?: string; agentJobId?: string };

/** `POST /v1/project/update/{projectId}`: 202. */
export interface DeployTriggered {
  statusId: string;
}

/** `POST /v1/project/preview/{projectId}`: 202. */
export interface PreviewTriggered {
  statusId: string;
  /** Where the preview is served (server text: opened only when https). */
  previewUrl?: string;
}

/** `POST /v1/workflow/{projectId}/{automationId}/trigger`: 202. */
export interface AutomationTriggered {
  schemaId?: string;
  instanceId?: string;
  jobId?: string;
}

export const MAX_STORED_FILES = 50;

export function isDeploymentTerminal(d: Pick<Deployment, 'status'>): boolean {
  return d.status === 'success' || d.status === 'failure';
}

/** The registry's copy of a deployment: no logs, the file lists cut to `MAX_STORED_FILES`. */
export function toSnapshot(d: Deployment): DeploymentSnapshot {
  const { logs, commit, ...rest } = d;
  const snapshot: DeploymentSnapshot = { ...rest, logLines: logs.length };
  if (commit !== undefined) {
    const files = commit.filesChanged;
    snapshot.commit =
      files === undefined
        ? commit
        : {
            ...commit,
            filesChanged: { added: files.added.slice(0, MAX_STORED_FILES), modified: files.modified.slice(0, MAX_STORED_FILES), removed: files.removed.slice(0, MAX_STORED_FILES) },
            filesCount: { added: files.added.length, modified: files.modified.length, removed: files.removed.length },
          };
  }
  return snapshot;
}
