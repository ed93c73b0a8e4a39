/** The simulator's public types: options, seeds, faults and the request log. */
import type { AnalyticsRoute } from './analytics';

export const DEMO_KEY = 'da_sim_demo_3f9c2a7e51b84d06';

export interface KeySpec {
  key: string;
  /** A read-only key: POSTs answer 403 (scope). */
  readOnly?: boolean;
  /** Calls from outside the key's IP allow-list: everything answers 403. */
  ipBlocked?: boolean;
}

export interface ExportDefaults {
  queuedMs: number;
  durationMs: number;
  outcome: 'completed' | 'failed';
  pages: number;
  error?: string;
  /** Exports started through the API are held where they start (queued, or running at 0 %) until a test releases them. */
  held?: boolean;
}

/** What a job created through the API (`POST /v2/agent/{projectId}/job`) becomes. */
export interface AgentDefaults {
  /** Simulated time each run (the create, and each follow-up) takes. */
  durationMs: number;
  outcome: 'pr' | 'no-changes' | 'failed';
  repository: string;
  /** The branch the agent works on; `{id}` is replaced by the job's id. */
  ref: string;
  /** Agent creates and follow-ups allowed per project per (simulated) hour, shared. */
  hourlyLimit: number;
  /** Whether a 429 of that limit carries `Retry-After` (the real service may or may not). */
  retryAfter: boolean;
  /** Each run (a create, a follow-up) is held active until a test releases the job. */
  held?: boolean;
}

export interface SimulatorOptions {
  host?: string;
  port?: number;
  projectId?: string;
  keys?: KeySpec[];
  staticExportEnabled?: boolean;
  timeScale?: number;
  linkTtlSeconds?: number;
  clockSkewMs?: number;
  exportDefaults?: Partial<ExportDefaults>;
  agentDefaults?: Partial<AgentDefaults>;
  /** How deployments and previews started through the API behave, and the two rate limits. */
  deploymentDefaults?: Partial<DeploymentDefaults>;
  /** `false`: the preview route answers 403 (previews are not in the plan). */
  previewsEnabled?: boolean;
  /** Serve both origins over TLS with this key and certificate (https: URLs). */
  tls?: { key: string | Buffer; cert: string | Buffer };
  /** Serve the storage origin over TLS with this key and certificate (its links are https:), whatever `tls` says of the API. */
  storageTls?: { key: string | Buffer; cert: string | Buffer };
}

export interface AgentJobSeed {
  id?: string;
  projectId?: string;
  repository?: string;
  ref?: string | null;
  model?: string;
  createdAt?: number;
  durationMs?: number;
  outcome?: 'pr' | 'no-changes' | 'failed';
  /** The prompt it was created with (recorded only). */
  prompt?: string;
  /** A status that never moves: `archived`, or any unknown word. */
  status?: string;
  /**
   * Fields its answers leave out (the vendor's admin API 2.0.0 requires none): `source` whole,
   * or `source.repository` / `source.ref` alone, `model`, `createdAt`, `prLink`, `archivedAt`.
   */
  omit?: AgentJobField[];
  /** Held where it is when added (active, for a job added now) until a test releases it. */
  held?: boolean;
}

export type AgentJobField = 'source' | 'source.repository' | 'source.ref' | 'model' | 'createdAt' | 'prLink' | 'archivedAt';

export interface ExportJobSeed {
  jobId?: string;
  domain?: string;
  createdAt?: number;
  queuedMs?: number;
  durationMs?: number;
  outcome?: 'completed' | 'failed';
  error?: string;
  pages?: number;
  /**
   * How progress moves while running: points (share of the running time, share of the work),
   * from (0, 0) to (1, 1), joined by straight lines. Two points at one time are a jump, a flat
   * stretch a stall. Linear without it.
   */
  progressCurve?: readonly (readonly [number, number])[];
  /** Held where it is when added (queued, or running at 0 % without `queuedMs`) until a test releases it. */
  held?: boolean;
}

export type RouteName =
  | 'agent.get'
  | 'agent.create'
  | 'agent.message'
  | 'export.start'
  | 'export.status'
  | 'export.bundle'
  | 'deploy.trigger'
  | 'deploy.status'
  | 'preview.trigger'
  | 'automation.trigger'
  | 'storage.get'
  | 'site.get'
  | AnalyticsRoute;

/** What a deployment or preview started through the API becomes (simulated ms), and the rate limits. */
export interface DeploymentDefaults {
  queuedMs: number;
  /** The run, during which the logs grow line by line. */
  durationMs: number;
  outcome: 'success' | 'failure';
  /** Deployment and automation triggers per 10 simulated seconds, shared. */
  triggerLimit: number;
  /** Preview triggers per simulated minute. */
  previewLimit: number;
  /** Deployments and previews started through the API are held where they start until a test releases them. */
  held?: boolean;
  /** More of what those deployments are (their commit, author, logs, summary: hostile text, say). */
  seed?: Omit<DeploymentSeed, 'id' | 'projectId' | 'kind' | 'branch' | 'createdAt'>;
}

export interface DeploymentSeed {
  /** The status id (24 hex digits by default, as the platform's). */
  id?: string;
  projectId?: string;
  /** `preview` when a branch is given. */
  kind?: 'production' | 'preview';
  branch?: string;
  createdAt?: number;
  queuedMs?: number;
  durationMs?: number;
  outcome?: 'success' | 'failure';
  commit?: { sha?: string; ref?: string; message?: string; filesChanged?: { added?: string[]; modified?: string[]; removed?: string[] } };
  /** `null`: no author (as the document allows). */
  author?: { name: string; avatarUrl: string; githubUserId: number } | null;
  source?: string;
  subdomain?: string;
  /** The lines of a successful run (a failing one stops after `failAt` of them and adds `failureLines`). */
  logs?: string[];
  failAt?: number;
  failureLines?: string[];
  summary?: string;
  /** Held where it is when added (queued, or running with its first log line without `queuedMs`) until a test releases it. */
  held?: boolean;
}

export interface AutomationSeed {
  /** 24 hex digits (the platform's); anything else answers 400. */
  id?: string;
  projectId?: string;
  active?: boolean;
  /** Only automations with a custom schedule can be triggered. */
  customSchedule?: boolean;
}

export type FaultSpec =
  /** `retryAfterDateSeconds`: a `Retry-After` HTTP date that many seconds after the simulator's clock, made for each answer. */
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string>; retryAfterDateSeconds?: number }
  | { kind: 'delay'; ms: number }
  /** The answer waits until the test opens the gate of that name (`sim.openGate(name)`). */
  | { kind: 'gate'; name: string }
  | { kind: 'malformed'; body: string; contentType?: string; status?: number }
  | { kind: 'oversized'; bytes: number; chunked?: boolean }
  | { kind: 'reset' }
  /** `reset: true` drops the connection with a TCP RST (ECONNRESET) instead of a FIN. */
  | { kind: 'truncate'; afterBytes: number; reset?: boolean }
  | { kind: 'stall'; afterBytes: number }
  | { kind: 'redirect'; status: 301 | 302 | 307 | 308; location: string }
  | { kind: 'ignoreRange' };

export type Fault = FaultSpec & { route: RouteName | '*'; times?: number | null };

/** An API request and the whole answer the simulator gave it (see `Simulator.onExchange`). */
export interface Exchange {
  request: RequestLogEntry;
  reply: { status: number; headers: Record<string, string>; body: string };
}

export interface RequestLogEntry {
  at: number;
  origin: 'api' | 'storage';
  method: string;
  path: string;
  query: string;
  route: RouteName | 'unknown';
  headers: Record<string, string>;
  body: string;
  /** 0 when the connection was reset without an answer. */
  status: number;
  /** Body bytes written, for an answer streamed as it is made (the `oversized` fault). */
  sentBytes?: number;
}
