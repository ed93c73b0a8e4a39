/**
 * Deployments, preview deployments and automations (shared/spec/platform-api.md, and the vendor's
 * openapi.json): triggers that answer 202, statuses that move `queued` -> `in_progress` ->
 * `success` | `failure` with the simulator's clock (scaled like the jobs), logs that grow line by
 * line while a deployment runs, the two rate limits in simulated time, and the plan toggle for
 * previews. Nothing ticks: every answer is computed from the deployment's start.
 */
import { createHash, randomBytes } from 'node:crypto';
import { JobTime } from './jobTime';
import type { AutomationSeed, DeploymentDefaults, DeploymentSeed } from './types';

export interface DeploymentRecord {
  id: string;
  projectId: string;
  kind: 'production' | 'preview';
  branch: string;
  createdAt: number;
  /** Its own time (held by a test, or moving at the time scale). */
  time: JobTime;
  queuedMs: number;
  durationMs: number;
  outcome: 'success' | 'failure';
  commit: { sha: string; ref: string; message: string; filesChanged: { added: string[]; modified: string[]; removed: string[] } };
  author: { name: string; avatarUrl: string; githubUserId: number } | null;
  source: string;
  subdomain: string;
  /** The lines a successful run writes; a failing run stops at `failAt` with `failureLines`. */
  lines: string[];
  failAt: number;
  failureLines: string[];
  summary: { success: string; failure: string };
}

export interface AutomationRecord {
  id: string;
  projectId: string;
  active: boolean;
  customSchedule: boolean;
  runs: { instanceId: string; jobId: string; at: number }[];
}

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

const iso = (ms: number) => new Date(ms).toISOString();
/** The platform's ids are Mongo object ids: 24 hex digits. */
const objectId = () => randomBytes(12).toString('hex');
const AUTOMATION_ID = /^[0-9a-f]{24}$/;

/** A host name's worth of a branch: `docs-agent/fix links` -> `docs-agent-fix-links`. */
export function branchSlug(branch: string): string {
  return (
    branch
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'branch'
  );
}

const DEFAULT_LINES = (repository: string, sha: string, ref: string, pages: number) => [
  `Deploying ${repository}@${sha.slice(0, 7)} (${ref})`,
  'Cloning the repository',
  'Installing dependencies',
  'Validating docs.json',
  `Building ${pages} pages`,
  'Checking internal links',
  'Optimising images',
  'Uploading assets',
  'Updating the search index',
  'Deployment complete',
];

export class DeploymentStore {
  readonly deployments = new Map<string, DeploymentRecord>();
  readonly automations = new Map<string, AutomationRecord>();
  /** Simulated times of the triggers per organisation: deployments and automations share one limit, previews have their own. */
  private readonly triggers: number[] = [];
  private readonly previews: number[] = [];
  /** The preview URL of each branch (a redeploy keeps it). */
  private readonly previewUrls = new Map<string, string>();
  previewsEnabled = true;
  defaults: DeploymentDefaults;

  constructor(
    private readonly now: () => number,
    private readonly timeScale: number,
    private readonly projectId: string,
    private readonly siteOrigin: () => string,
    defaults: Partial<DeploymentDefaults> = {},
  ) {
    this.defaults = { queuedMs: 3_000, durationMs: 60_000, outcome: 'success', triggerLimit: 10, previewLimit: 5, ...defaults };
  }

  add(seed: DeploymentSeed = {}): DeploymentRecord {
    const kind = seed.kind ?? (seed.branch === undefined ? 'production' : 'preview');
    const branch = seed.branch ?? 'main';
    const sha = seed.commit?.sha ?? createHash('sha1').update(objectId()).digest('hex');
    const repository = 'acme/docs';
    const now = this.now();
    const createdAt = seed.createdAt ?? now;
    const record: DeploymentRecord = {
      id: seed.id ?? objectId(),
      projectId: seed.projectId ?? this.projectId,
      kind,
      branch,
      createdAt,
      time: new JobTime(createdAt, this.now, this.timeScale, seed.held === true ? now : undefined),
      queuedMs: seed.queuedMs ?? this.defaults.queuedMs,
      durationMs: seed.durationMs ?? this.defaults.durationMs,
      outcome: seed.outcome ?? this.defaults.outcome,
      commit: {
        sha,
        ref: seed.commit?.ref ?? branch,
        message: seed.commit?.message ?? (kind === 'preview' ? `Update the docs on ${branch}` : 'Merge pull request #128 from acme/quickstart'),
        filesChanged: { added: [], modified: ['quickstart.mdx'], removed: [], ...seed.commit?.filesChanged },
      },
      author: seed.author === undefined ? { name: 'Ada Lovelace', avatarUrl: 'https://avatars.example.com/u/1', githubUserId: 1 } : seed.author,
      source: seed.source ?? 'api',
      subdomain: seed.subdomain ?? 'acme',
      lines: seed.logs ?? DEFAULT_LINES(repository, sha, seed.commit?.ref ?? branch, 42),
      failAt: seed.failAt ?? 5,
      failureLines: seed.failureLines ?? ['Error: guides/install.mdx:12:3: Unknown component <Stepss>. Did you mean <Steps>?', 'Build failed: 1 error in 1 page'],
      summary: {
        success: seed.summary ?? (kind === 'preview' ? `Preview of ${branch} deployed` : 'Deployed 1 changed page'),
        failure: seed.summary ?? 'Build failed: 1 error in guides/install.mdx',
      },
    };
    this.deployments.set(record.id, record);
    return record;
  }

  addAutomation(seed: AutomationSeed = {}): AutomationRecord {
    const record: AutomationRecord = { id: seed.id ?? objectId(), projectId: seed.projectId ?? this.projectId, active: seed.active ?? true, customSchedule: seed.customSchedule ?? true, runs: [] };
    this.automations.set(record.id, record);
    return record;
  }

  status(record: DeploymentRecord): 'queued' | 'in_progress' | 'success' | 'failure' {
    const elapsed = record.time.elapsed();
    if (elapsed < record.queuedMs) return 'queued';
    if (elapsed < record.queuedMs + record.durationMs) return 'in_progress';
    return record.outcome;
  }

  /** The whole script of a run: a failing one stops where it fails. */
  private script(record: DeploymentRecord): string[] {
    return record.outcome === 'failure' ? [...record.lines.slice(0, record.failAt), ...record.failureLines] : record.lines;
  }

  /** The status as `GET /v1/project/update-status/{statusId}` answers it now. */
  json(record: DeploymentRecord): Record<string, unknown> {
    const status = this.status(record);
    const script = this.script(record);
    const running = (record.time.elapsed() - record.queuedMs) / record.durationMs;
    // One line at the start, then line by line over the run; all of them at the end.
    const shown = status === 'queued' ? 0 : status === 'in_progress' ? Math.min(script.length - 1, 1 + Math.floor(running * (script.length - 1))) : script.length;
    const endedAt = record.time.clockAt(record.queuedMs + record.durationMs);
    const done = status === 'success' || status === 'failure';
    const site = `${this.siteOrigin()}/site/${record.subdomain}`;
    return {
      _id: record.id,
      projectId: record.projectId,
      createdAt: iso(record.createdAt),
      ...(done ? { endedAt: iso(endedAt) } : {}),
      status,
      summary: status === 'queued' ? 'Waiting for a builder' : status === 'in_progress' ? 'Building' : status === 'success' ? record.summary.success : record.summary.failure,
      logs: script.slice(0, shown),
      subdomain: record.subdomain,
      ...(status === 'success' ? { screenshot: `${site}/screenshot.png`, screenshotLight: `${site}/screenshot-light.png`, screenshotDark: `${site}/screenshot-dark.png` } : {}),
      author: record.author,
      commit: record.commit,
      source: record.source,
    };
  }

  /** The preview URL of a branch: the same one for every redeploy of it. */
  previewUrl(branch: string): string {
    let url = this.previewUrls.get(branch);
    if (url === undefined) {
      url = `${this.siteOrigin()}/previews/${branchSlug(branch)}-${createHash('sha1').update(branch).digest('hex').slice(0, 6)}/`;
      this.previewUrls.set(branch, url);
    }
    return url;
  }

  /** The preview URLs handed out, by branch (the storage origin serves a page at each). */
  previewBranchOf(slug: string): string | undefined {
    for (const [branch, url] of this.previewUrls) if (url.endsWith(`/previews/${slug}/`)) return branch;
    return undefined;
  }

  /** Within `limit` requests per `windowMs` (simulated), or the 429 that says when to come back. */
  private limited(uses: number[], limit: number, windowMs: number, what: string): Answer | undefined {
    const now = this.now();
    while (uses.length > 0 && (uses[0] ?? 0) <= now - windowMs) uses.shift();
    if (uses.length < limit) {
      uses.push(now);
      return undefined;
    }
    const retryAfter = Math.max(1, Math.ceil(((uses[0] ?? now) + windowMs - now) / 1000));
    return { status: 429, body: { error: `Rate limit exceeded: ${what}` }, headers: { 'retry-after': String(retryAfter) } };
  }

  triggerDeployment(projectId: string): Answer {
    const limited = this.limited(this.triggers, this.defaults.triggerLimit, 10_000, `${this.defaults.triggerLimit} deployment and automation triggers per 10 seconds`);
    if (limited !== undefined) return limited;
    const record = this.add({ source: 'api', ...(this.defaults.held === true ? { held: true } : {}), ...this.defaults.seed, projectId, kind: 'production' });
    return { status: 202, body: { statusId: record.id } };
  }

  triggerPreview(projectId: string, headers: Record<string, string>, body: string): Answer {
    if (!this.previewsEnabled) return { status: 403, body: { error: 'Preview deployments are not available on your current plan.' } };
    if (!(headers['content-type'] ?? '').toLowerCase().startsWith('application/json')) return { status: 400, body: { error: 'Content-Type must be application/json' } };
    let branch: unknown;
    try {
      branch = ((JSON.parse(body) ?? {}) as { branch?: unknown }).branch;
    } catch {
      return { status: 400, body: { error: 'Request body is not valid JSON' } };
    }
    if (typeof branch !== 'string' || branch.length < 1) return { status: 400, body: { error: 'The `branch` field is required.' } };
    const limited = this.limited(this.previews, this.defaults.previewLimit, 60_000, `${this.defaults.previewLimit} preview deployments per minute`);
    if (limited !== undefined) return limited;
    const record = this.add({ source: 'api', ...(this.defaults.held === true ? { held: true } : {}), ...this.defaults.seed, projectId, kind: 'preview', branch });
    return { status: 202, body: { statusId: record.id, previewUrl: this.previewUrl(branch) } };
  }

  triggerAutomation(projectId: string, automationId: string): Answer {
    if (!AUTOMATION_ID.test(automationId)) return { status: 400, body: { error: 'Invalid automation ID' } };
    const record = this.automations.get(automationId);
    if (record === undefined || record.projectId !== projectId) return { status: 404, body: { error: 'Automation not found' } };
    if (!record.active) return { status: 400, body: { error: 'Automation is not active' } };
    if (!record.customSchedule) return { status: 400, body: { error: 'Only automations with a custom schedule can be triggered' } };
    const limited = this.limited(this.triggers, this.defaults.triggerLimit, 10_000, `${this.defaults.triggerLimit} deployment and automation triggers per 10 seconds`);
    if (limited !== undefined) return limited;
    const run = { instanceId: objectId(), jobId: objectId(), at: this.now() };
    record.runs.push(run);
    return { status: 202, body: { schemaId: record.id, instanceId: run.instanceId, jobId: run.jobId } };
  }

  statusAnswer(statusId: string): Answer {
    const record = this.deployments.get(statusId);
    return record === undefined ? { status: 404, body: { error: 'Update status not found' } } : { status: 200, body: this.json(record) };
  }
}
