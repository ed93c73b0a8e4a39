/** The simulator's public types: options, seeds, faults and the request log. */

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
}

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
}

export type RouteName = 'agent.get' | 'agent.create' | 'agent.message' | 'export.start' | 'export.status' | 'export.bundle' | 'storage.get';

export type FaultSpec =
  /** `retryAfterDateSeconds`: a `Retry-After` HTTP date that many seconds after the simulator's clock, made for each answer. */
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string>; retryAfterDateSeconds?: number }
  | { kind: 'delay'; ms: number }
  | { kind: 'malformed'; body: string; contentType?: string; status?: number }
  | { kind: 'oversized'; bytes: number; chunked?: boolean }
  | { kind: 'reset' }
  /** `reset: true` drops the connection with a TCP RST (ECONNRESET) instead of a FIN. */
  | { kind: 'truncate'; afterBytes: number; reset?: boolean }
  | { kind: 'stall'; afterBytes: number }
  | { kind: 'redirect'; status: 301 | 302 | 307 | 308; location: string }
  | { kind: 'ignoreRange' };

export type Fault = FaultSpec & { route: RouteName | '*'; times?: number | null };

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
