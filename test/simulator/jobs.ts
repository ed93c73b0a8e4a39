/**
 * Agent and export jobs whose status is a function of the simulator's clock: nothing ticks,
 * every answer is computed from the job's own time (jobTime.ts: held by a test, or moving at
 * the time scale), its duration and its outcome.
 */
import { JobTime } from './jobTime';
import type { AgentJobField, AgentJobSeed, ExportDefaults, ExportJobSeed } from './types';

export interface AgentJobRecord {
  id: string;
  projectId: string;
  repository: string;
  ref: string | null;
  model: string;
  createdAt: number;
  /** The current run's time (the create's, or the latest follow-up's). */
  run: JobTime;
  /** Whether a run has ended with the pull request opened (it stays through follow-ups). */
  prOpened: boolean;
  durationMs: number;
  outcome: 'pr' | 'no-changes' | 'failed';
  /** The prompt and every follow-up, as received. */
  prompts: string[];
  fixedStatus: string | undefined;
  archivedAt: number | undefined;
  prNumber: number;
  /** Fields its answers leave out. */
  omit: readonly AgentJobField[];
}

export interface ExportJobRecord {
  jobId: string;
  domain: string;
  createdAt: number;
  time: JobTime;
  queuedMs: number;
  durationMs: number;
  outcome: 'completed' | 'failed';
  error: string;
  pages: number;
  version: string | undefined;
  progressCurve: readonly (readonly [number, number])[] | undefined;
}

/** The share of the work done at share `t` of the running time, along `curve` (the last point of a jump wins). */
export function alongCurve(curve: readonly (readonly [number, number])[] | undefined, t: number): number {
  if (curve === undefined || curve.length === 0) return t;
  let done = 0;
  for (let i = 0; i < curve.length; i++) {
    const [t1, p1] = curve[i] ?? [0, 0];
    if (t1 > t) {
      const [t0, p0] = curve[i - 1] ?? [0, 0];
      return t1 === t0 ? p0 : p0 + ((p1 - p0) * (t - t0)) / (t1 - t0);
    }
    done = p1;
  }
  return done;
}

const iso = (ms: number) => new Date(ms).toISOString();

export class JobStore {
  readonly agents = new Map<string, AgentJobRecord>();
  readonly exports = new Map<string, ExportJobRecord>();
  private seq = 0;

  constructor(
    private readonly now: () => number,
    private readonly timeScale: number,
    private readonly projectId: string,
  ) {}

  private nextId(prefix: string): string {
    this.seq++;
    return `${prefix}_${this.now().toString(36)}${this.seq.toString(36).padStart(3, '0')}`;
  }

  addAgent(seed: AgentJobSeed = {}): AgentJobRecord {
    const now = this.now();
    const createdAt = seed.createdAt ?? now;
    const record: AgentJobRecord = {
      id: seed.id ?? this.nextId('agent'),
      projectId: seed.projectId ?? this.projectId,
      repository: seed.repository ?? 'https://github.com/acme/docs',
      ref: seed.ref === undefined ? 'main' : seed.ref,
      model: seed.model ?? 'docs-agent-1',
      createdAt,
      run: new JobTime(createdAt, this.now, this.timeScale, seed.held === true ? now : undefined),
      prOpened: false,
      durationMs: seed.durationMs ?? 5 * 60_000,
      outcome: seed.outcome ?? 'pr',
      prompts: seed.prompt === undefined ? [] : [seed.prompt],
      fixedStatus: seed.status,
      archivedAt: seed.status === 'archived' ? this.now() : undefined,
      prNumber: 100 + this.agents.size + 1,
      omit: seed.omit ?? [],
    };
    this.agents.set(`${record.projectId}\u0000${record.id}`, record);
    return record;
  }

  findAgent(projectId: string, id: string): AgentJobRecord | undefined {
    return this.agents.get(`${projectId}\u0000${id}`);
  }

  /** A follow-up: the job runs again from now (held, when `held`), for its duration, and keeps its pull request. */
  continueAgent(record: AgentJobRecord, prompt: string, held = false): void {
    record.prOpened = this.prOpened(record);
    record.prompts.push(prompt);
    record.run.restart(held);
    record.fixedStatus = undefined;
  }

  /** The pull request is opened at the end of a run (the first, as a rule) and stays. */
  private prOpened(record: AgentJobRecord): boolean {
    return record.outcome === 'pr' && (record.prOpened || record.run.elapsed() >= record.durationMs);
  }

  archiveAgent(projectId: string, id: string): AgentJobRecord | undefined {
    const record = this.findAgent(projectId, id);
    if (record) record.archivedAt = this.now();
    return record;
  }

  agentJson(record: AgentJobRecord): Record<string, unknown> {
    let status: string;
    if (record.archivedAt !== undefined) status = 'archived';
    else if (record.fixedStatus !== undefined) status = record.fixedStatus;
    else if (record.run.elapsed() < record.durationMs) status = 'active';
    else status = record.outcome === 'failed' ? 'failed' : 'completed';
    const opened = this.prOpened(record);
    const json: Record<string, unknown> = {
      id: record.id,
      status,
      source: { repository: record.repository, ref: record.ref },
      model: record.model,
      prLink: opened && status !== 'failed' ? `${record.repository}/pull/${record.prNumber}` : null,
      createdAt: iso(record.createdAt),
      archivedAt: record.archivedAt === undefined ? null : iso(record.archivedAt),
    };
    for (const field of record.omit) {
      const [top, inner] = field.split('.') as [string, string | undefined];
      if (inner === undefined) delete json[top];
      else delete (json[top] as Record<string, unknown>)[inner];
    }
    return json;
  }

  addExport(seed: ExportJobSeed, defaults: ExportDefaults, version?: string): ExportJobRecord {
    const now = this.now();
    const createdAt = seed.createdAt ?? now;
    const record: ExportJobRecord = {
      jobId: seed.jobId ?? this.nextId('exp'),
      domain: seed.domain ?? 'docs.acme.dev',
      createdAt,
      time: new JobTime(createdAt, this.now, this.timeScale, (seed.held ?? defaults.held ?? false) ? now : undefined),
      queuedMs: seed.queuedMs ?? defaults.queuedMs,
      durationMs: seed.durationMs ?? defaults.durationMs,
      outcome: seed.outcome ?? defaults.outcome,
      error: seed.error ?? defaults.error ?? 'Rendering failed: page /reference/api timed out',
      pages: seed.pages ?? defaults.pages,
      version,
      progressCurve: seed.progressCurve,
    };
    this.exports.set(record.jobId, record);
    return record;
  }

  exportStatus(record: ExportJobRecord): 'queued' | 'running' | 'completed' | 'failed' {
    const elapsed = record.time.elapsed();
    if (elapsed < record.queuedMs) return 'queued';
    if (elapsed < record.queuedMs + record.durationMs) return 'running';
    return record.outcome;
  }

  exportJson(record: ExportJobRecord): Record<string, unknown> {
    const status = this.exportStatus(record);
    const elapsed = record.time.elapsed();
    // A failing job stops at 60 %; a running one moves linearly, or along its curve.
    const fraction =
      status === 'queued' ? 0 : status === 'completed' ? 1 : status === 'failed' ? 0.6 : alongCurve(record.progressCurve, (elapsed - record.queuedMs) / record.durationMs);
    const endedAt = record.time.clockAt(record.queuedMs + record.durationMs);
    const terminal = status === 'completed' || status === 'failed';
    return {
      jobId: record.jobId,
      domain: record.domain,
      status,
      progress: Math.round(Math.min(1, Math.max(0, fraction)) * 1000) / 10,
      pageCount: Math.floor(Math.min(1, Math.max(0, fraction)) * record.pages),
      createdAt: iso(record.createdAt),
      updatedAt: iso(terminal ? endedAt : this.now()),
      ...(status === 'failed' ? { error: record.error } : {}),
      ...(record.version === undefined ? {} : { version: record.version }),
    };
  }
}
