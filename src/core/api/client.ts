/**
 * The admin API client: the contract's four endpoints and the agent's create and follow-up
 * (field notes), typed errors, validated answers.
 * Base URL, project id and the key are inputs; nothing here knows about VS Code.
 */
import * as l10n from '@vscode/l10n';
import { loopbackHttpFor } from '../links';
import { redactSecrets } from '../redact';
import {
  AuthError,
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  InvalidResponseError,
  NotFoundError,
  RateLimitedError,
  RequestRejectedError,
  ServerError,
  type ApiError,
  type ApiSubject,
  type ForbiddenCause,
  type PlanFeature,
} from './apiErrors';
import { retryAfterOf } from './retryAfter';
import { answeredId, parseAgentJob, parseBundle, parseExportJob } from './jobSchemas';
import { Transport, type HttpResponse, type TransportOptions } from './transport';
import type { AgentJob, Bundle, CallOptions, ExportJob, StartExportRequest } from './apiTypes';
import { parseAutomationTriggered, parseDeployment, parseDeployTriggered, parsePreviewTriggered } from '../deployments/deploymentSchemas';
import type { AutomationTriggered, Deployment, DeployTriggered, PreviewTriggered } from '../deployments/deploymentTypes';

export interface ApiClientOptions extends TransportOptions {
  projectId: string;
}

type Area = 'agent' | 'export' | PlanFeature;

type Segment = 'projectId' | 'jobId' | 'exportJobId' | 'statusId' | 'automationId';

function segment(value: string, what: Segment): string {
  if (value.trim() === '') {
    throw new InvalidInputError(
      what === 'projectId'
        ? l10n.t('The project id is empty.')
        : what === 'jobId'
          ? l10n.t('The job id is empty.')
          : what === 'statusId'
            ? l10n.t('The deployment status id is empty.')
            : what === 'automationId'
              ? l10n.t('The automation id is empty.')
              : l10n.t('The export job id is empty.'),
    );
  }
  // URL parsing resolves "." and ".." (even as %2E%2E), which would ask for another path.
  if (value === '.' || value === '..') {
    throw new InvalidInputError(
      what === 'projectId'
        ? l10n.t('The project id "{0}" is not an id; it was not sent. Check the project id.', value)
        : what === 'jobId' || what === 'statusId' || what === 'automationId'
          ? l10n.t('The id "{0}" is not an id; it was not sent. Check it.', value)
          : l10n.t('The export job id "{0}" is not an id; it was not sent. Check the export job id.', value),
    );
  }
  return encodeURIComponent(value);
}

export class AdminApiClient {
  private readonly transport: Transport;

  constructor(private readonly options: ApiClientOptions) {
    this.transport = new Transport(options);
  }

  /** The API's origin: the only place the key is ever sent. */
  get origin(): string {
    return this.transport.origin;
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  /** GET /v2/agent/<projectId>/job/<id> */
  async getAgentJob(id: string, options: CallOptions = {}): Promise<AgentJob> {
    const path = `v2/agent/${segment(this.options.projectId, 'projectId')}/job/${segment(id, 'jobId')}`;
    const res = await this.call('GET', path, undefined, options, 'agent', { kind: 'agentJob', id, projectId: this.options.projectId });
    return parseAgentJob(this.json(res), res.status, { id });
  }

  /**
   * POST /v2/agent/<projectId>/job: a new agent job (201, status `active`). The prompt is sent
   * unchanged; an empty or blank one is refused here, before any request. Never retried once it
   * may have reached the server (see Transport.send): a create that timed out may still exist.
   * A 2xx made the job: an answer with its id is a job to follow, even when another field of it
   * has the wrong type (logged); one without an id says the job exists and where to find it.
   */
  async createAgentJob(prompt: string, options: CallOptions = {}): Promise<AgentJob> {
    const path = `v2/agent/${segment(this.options.projectId, 'projectId')}/job`;
    const res = await this.call('POST', path, { prompt: checkedPrompt(prompt) }, options, 'agent', { kind: 'agentEndpoint', projectId: this.options.projectId });
    const body = this.json(res);
    const id = answeredId(body, res.status);
    if (id === undefined) {
      throw new InvalidResponseError(
        l10n.t('The agent took the prompt and created a job ({0}), but the answer does not say its id, so it cannot be followed from here.', res.status),
        res.status,
        l10n.t('Find the new job on the dashboard; sending the prompt again would make a second job.'),
      );
    }
    try {
      return parseAgentJob(body, res.status, { status: 'active' });
    } catch (error) {
      if (!(error instanceof InvalidResponseError)) throw error;
      this.options.log?.warn(`Agent job ${id} was created (${res.status}), but its answer could not be read whole: ${error.message} It is followed by its id.`);
      return { id, status: 'active', rawStatus: 'active', source: { ref: null }, prLink: null, archivedAt: null };
    }
  }

  /** POST /v2/agent/<projectId>/job/<id>/message: a follow-up instruction; the job, active again. */
  async sendAgentMessage(id: string, prompt: string, options: CallOptions = {}): Promise<AgentJob> {
    const path = `v2/agent/${segment(this.options.projectId, 'projectId')}/job/${segment(id, 'jobId')}/message`;
    const res = await this.call('POST', path, { prompt: checkedPrompt(prompt) }, options, 'agent', { kind: 'agentJob', id, projectId: this.options.projectId });
    return parseAgentJob(this.json(res), res.status, { id, status: 'active' });
  }

  /**
   * GET /v1/analytics/<projectId>/<resource>?<query>: reader analytics (see core/analytics, which
   * builds `resource` from fixed names and validates the answer). The same key, base URL and
   * origin binding as every other call; values of `query` that are undefined are left out.
   */
  async getAnalytics(resource: string, query: Record<string, string | number | undefined>, options: CallOptions = {}): Promise<{ value: unknown; status: number }> {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, String(value));
    const qs = search.toString();
    const path = `v1/analytics/${segment(this.options.projectId, 'projectId')}/${resource}${qs === '' ? '' : `?${qs}`}`;
    const res = await this.call('GET', path, undefined, options, 'analytics', { kind: 'analytics', projectId: this.options.projectId });
    return { value: this.json(res), status: res.status };
  }

  /** POST /v1/static-export/jobs: the job, queued (the real service answers 202 with all of it). */
  async startExport(input: StartExportRequest, options: CallOptions = {}): Promise<ExportJob> {
    if (input.domain.trim() === '') throw new InvalidInputError(l10n.t('The domain is empty.'));
    const body: Record<string, unknown> = { domain: input.domain };
    if (input.version !== undefined) body.version = input.version;
    if (input.paths !== undefined) body.paths = input.paths;
    const res = await this.call('POST', 'v1/static-export/jobs', body, options, 'export', { kind: 'exportEndpoint' });
    const job = parseExportJob(this.json(res), res.status, 'queued');
    return job.domain === undefined ? { ...job, domain: input.domain } : job;
  }

  /** GET /v1/static-export/jobs/<jobId> */
  async getExportJob(jobId: string, options: CallOptions = {}): Promise<ExportJob> {
    const res = await this.call('GET', `v1/static-export/jobs/${segment(jobId, 'exportJobId')}`, undefined, options, 'export', { kind: 'exportJob', id: jobId });
    return parseExportJob(this.json(res), res.status);
  }

  /** POST /v1/static-export/jobs/<jobId>/bundle (no body): a fresh presigned link. */
  async generateBundle(jobId: string, options: CallOptions = {}): Promise<Bundle> {
    const res = await this.call('POST', `v1/static-export/jobs/${segment(jobId, 'exportJobId')}/bundle`, undefined, options, 'export', { kind: 'exportBundle', id: jobId });
    const date = res.headers.date;
    const serverDate = typeof date === 'string' ? Date.parse(date) : NaN;
    return parseBundle(this.json(res), res.status, Number.isNaN(serverDate) ? undefined : serverDate);
  }

  /** POST /v1/project/update/<projectId> (no body): a deployment of the deployment branch, queued. */
  async triggerDeployment(options: CallOptions = {}): Promise<DeployTriggered> {
    const projectId = this.options.projectId;
    const res = await this.call('POST', `v1/project/update/${segment(projectId, 'projectId')}`, undefined, options, 'deployments', { kind: 'deployEndpoint', projectId });
    return parseDeployTriggered(this.json(res), res.status);
  }

  /** POST /v1/project/preview/<projectId> `{branch}`: a preview of the branch (a new one, or its redeploy). */
  async triggerPreview(branch: string, options: CallOptions = {}): Promise<PreviewTriggered> {
    if (branch.trim() === '') throw new InvalidInputError(l10n.t('The branch is empty: name the branch to preview. Nothing was sent.'));
    const projectId = this.options.projectId;
    const res = await this.call('POST', `v1/project/preview/${segment(projectId, 'projectId')}`, { branch }, options, 'previews', { kind: 'deployEndpoint', projectId });
    // The URL is kept only as a link the editor would open, as the API's own address allows (links.ts).
    return parsePreviewTriggered(this.json(res), res.status, loopbackHttpFor(this.options.baseUrl), (reason) => this.options.log?.warn(`The preview URL in the answer was not kept: ${reason}.`));
  }

  /** GET /v1/project/update-status/<statusId>: a deployment's (or a preview's) status and logs. */
  async getDeploymentStatus(statusId: string, options: CallOptions = {}): Promise<Deployment> {
    const res = await this.call('GET', `v1/project/update-status/${segment(statusId, 'statusId')}`, undefined, options, 'deployments', { kind: 'deployment', id: statusId });
    return parseDeployment(this.json(res), res.status, statusId);
  }

  /** POST /v1/workflow/<projectId>/<automationId>/trigger (no body): an automation's run, now. */
  async triggerAutomation(automationId: string, options: CallOptions = {}): Promise<AutomationTriggered> {
    const projectId = this.options.projectId;
    const path = `v1/workflow/${segment(projectId, 'projectId')}/${segment(automationId, 'automationId')}/trigger`;
    const res = await this.call('POST', path, undefined, options, 'automations', { kind: 'automation', id: automationId, projectId });
    return parseAutomationTriggered(this.json(res), res.status);
  }

  private async call(method: 'GET' | 'POST', path: string, body: unknown, options: CallOptions, area: Area, what: ApiSubject): Promise<HttpResponse> {
    const key = await this.transport.key();
    if (key === undefined) throw new AuthError('missing');
    const res = await this.transport.send({ method, path, body, signal: options.signal }, key);
    if (res.status >= 200 && res.status < 300) return res;
    throw this.error(res, key, area, what);
  }

  private error(res: HttpResponse, key: string, area: Area, what: ApiSubject): ApiError {
    const message = this.serverMessage(res, key);
    switch (true) {
      case res.status === 401:
        return new AuthError('rejected', message);
      case res.status === 403:
        return new ForbiddenError(forbiddenCauses(message, area), message, area === 'agent' || area === 'export' ? 'staticExport' : area);
      case res.status === 404:
        return new NotFoundError(what, message);
      case res.status === 409:
        return new ConflictError(what, message);
      case res.status === 429:
        return new RateLimitedError(retryAfterOf(res.headers, Date.now()));
      case res.status >= 500:
        return new ServerError(res.status, message ?? (looksLikeHtml(res) ? l10n.t('an HTML error page, perhaps from a proxy') : undefined));
      default:
        return new RequestRejectedError(res.status, message);
    }
  }

  /** The server's `error` (or `message`) text, redacted and shortened; undefined when absent. */
  private serverMessage(res: HttpResponse, key: string): string | undefined {
    if (looksLikeHtml(res)) return undefined;
    try {
      const value = JSON.parse(res.text) as unknown;
      const body = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
      const text = body?.error ?? body?.message;
      if (typeof text !== 'string' || text.trim() === '') return undefined;
      // The analytics routes say what was wrong with a parameter in `details: [{message}]`.
      const details = Array.isArray(body?.details) ? (body.details as unknown[]).map((d) => (typeof d === 'object' && d !== null ? (d as { message?: unknown }).message : undefined)).filter((m): m is string => typeof m === 'string' && m.trim() !== '') : [];
      const whole = details.length === 0 ? text : `${text} (${details.join('; ')})`;
      const clean = redactSecrets(whole.replace(/\s+/g, ' ').trim(), [key]);
      return clean.length > 300 ? `${clean.slice(0, 300)}…` : clean;
    } catch {
      return undefined;
    }
  }

  private json(res: HttpResponse): unknown {
    if (looksLikeHtml(res)) {
      throw new InvalidResponseError(
        l10n.t("The server's answer could not be used: an HTML page came back instead of JSON (status {0}): a proxy, captive portal or login page may be in the way, or the base URL is not the API's.", res.status),
        res.status,
        l10n.t('Check the base URL and your proxy settings (opening the base URL in a browser shows the page).'),
      );
    }
    if (res.text.trim() === '') throw new InvalidResponseError(l10n.t("The server's answer could not be used: the body is empty (status {0}).", res.status), res.status);
    try {
      return JSON.parse(res.text) as unknown;
    } catch {
      throw new InvalidResponseError(l10n.t("The server's answer could not be used: the body is not JSON (status {0}).", res.status), res.status);
    }
  }
}

function checkedPrompt(prompt: string): string {
  if (prompt.trim() === '') throw new InvalidInputError(l10n.t('The prompt is empty: write what the agent should do. Nothing was sent.'));
  return prompt;
}

function looksLikeHtml(res: HttpResponse): boolean {
  const type = res.headers['content-type'];
  return (typeof type === 'string' && /html/i.test(type)) || /^\s*</.test(res.text);
}

function forbiddenCauses(message: string | undefined, area: Area): ForbiddenCause[] {
  const text = message?.toLowerCase() ?? '';
  if (area === 'analytics') {
    if (/allow-?list|allowlist|\bip\b/.test(text)) return ['ipAllowList'];
    if (/analytics|plan|upgrade|not available/.test(text)) return ['plan'];
    // A GET: a read-only key may make it, so the key's scope is not among the causes.
    return ['plan', 'ipAllowList'];
  }
  if (/static export is not enabled|enterprise|plan/.test(text)) return ['plan'];
  if (/allow-?list|allowlist|\bip\b/.test(text)) return ['ipAllowList'];
  if (/scope|write access|read-only|permission/.test(text)) return ['scope'];
  return area === 'agent' ? ['scope', 'ipAllowList'] : ['plan', 'scope', 'ipAllowList'];
}
