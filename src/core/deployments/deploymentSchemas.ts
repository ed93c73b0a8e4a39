/**
 * Validation of the deployment routes' answers at the boundary. The vendor's document leaves
 * every field optional: a tolerant reader accepts any of them missing or null, drops extra ones,
 * and keeps an unknown status as `unknown`. What cannot be done without is a field that names
 * the thing: a trigger's `statusId`, a status's `status`.
 */
import * as l10n from '@vscode/l10n';
import * as z from 'zod/mini';
import { InvalidResponseError } from '../api/apiErrors';
import { JOB_ID } from '../api/jobId';
import { issueClause } from '../api/jobSchemas';
import { checkOpenableLink, type LinkPolicy } from '../links';
import { DEPLOYMENT_STATUSES, type AutomationTriggered, type Deployment, type DeploymentStatus, type DeployTriggered, type PreviewTriggered } from './deploymentTypes';

/** An optional string: `null` reads as absent. */
const optionalString = z.pipe(z.nullish(z.string()), z.transform((v) => v ?? undefined));
const names = z.pipe(z.nullish(z.array(z.string())), z.transform((v) => v ?? []));

const statusSchema = z.object({
  _id: optionalString,
  projectId: optionalString,
  createdAt: optionalString,
  endedAt: optionalString,
  status: optionalString,
  summary: optionalString,
  logs: z.pipe(z.nullish(z.array(z.pipe(z.nullish(z.string()), z.transform((v) => v ?? '')))), z.transform((v) => v ?? [])),
  subdomain: optionalString,
  screenshot: optionalString,
  screenshotLight: optionalString,
  screenshotDark: optionalString,
  author: z.nullish(z.object({ name: optionalString, avatarUrl: optionalString, githubUserId: z.nullish(z.number()) })),
  commit: z.nullish(
    z.object({
      sha: optionalString,
      ref: optionalString,
      message: optionalString,
      filesChanged: z.nullish(z.object({ added: names, modified: names, removed: names })),
    }),
  ),
  source: optionalString,
});

/** A status id is sent back in a path and shown on a row: an id, as a job id is (api/jobId.ts). */
const statusId = () => z.string().check(z.regex(JOB_ID));
const deployTriggerSchema = z.object({ statusId: z.optional(statusId()) });
const previewTriggerSchema = z.object({ statusId: z.optional(statusId()), previewUrl: optionalString });
const automationSchema = z.object({ schemaId: optionalString, instanceId: optionalString, jobId: optionalString });

type Resource = 'deployment' | 'deployTrigger' | 'previewTrigger' | 'automationRun';

function parse<T>(schema: z.ZodMiniType<T>, value: unknown, what: Resource, status: number): T {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.length ? issue.path.join('.') : l10n.t('(the body)');
  const clause = issue?.code === 'invalid_format' && issue.format === 'regex' ? l10n.t('field "{0}" is not an id', field) : issueClause(field, issue);
  const problem =
    what === 'deployment'
      ? l10n.t("The server's answer could not be used: the deployment status has the wrong shape: {0}.", clause)
      : what === 'automationRun'
        ? l10n.t("The server's answer could not be used: the automation run has the wrong shape: {0}.", clause)
        : l10n.t("The server's answer could not be used: the deployment's trigger answer has the wrong shape: {0}.", clause);
  return failWith(problem, status);
}

function failWith(problem: string, status: number): never {
  throw new InvalidResponseError(problem, status, l10n.t('Check that the base URL points at the admin API; if it does, the API has changed in a way this version of Docs Admin does not know: look for an update.'));
}

/**
 * A status read by `statusId` (its id is the one it was asked by: `_id` only repeats it). The
 * document requires no field: a status left out reads as `unknown` with an empty word (the row
 * says the status was not given).
 */
export function parseDeployment(value: unknown, status: number, statusId: string): Deployment {
  const d = parse(statusSchema, value, 'deployment', status);
  const raw = d.status ?? '';
  const known = (DEPLOYMENT_STATUSES as readonly string[]).includes(raw);
  const out: Deployment = { id: statusId, status: (known ? raw : 'unknown') as DeploymentStatus, rawStatus: raw, logs: d.logs, author: null };
  for (const field of ['projectId', 'createdAt', 'endedAt', 'summary', 'subdomain', 'screenshot', 'screenshotLight', 'screenshotDark', 'source'] as const) {
    const v = d[field];
    if (v !== undefined) out[field] = v;
  }
  if (d.author !== undefined && d.author !== null) {
    out.author = {};
    if (d.author.name !== undefined) out.author.name = d.author.name;
    if (d.author.avatarUrl !== undefined) out.author.avatarUrl = d.author.avatarUrl;
    if (d.author.githubUserId !== undefined && d.author.githubUserId !== null) out.author.githubUserId = d.author.githubUserId;
  }
  if (d.commit !== undefined && d.commit !== null) {
    const { sha, ref, message, filesChanged } = d.commit;
    out.commit = {
      ...(sha === undefined ? {} : { sha }),
      ...(ref === undefined ? {} : { ref }),
      ...(message === undefined ? {} : { message }),
      ...(filesChanged === undefined || filesChanged === null ? {} : { filesChanged }),
    };
  }
  return out;
}

/**
 * A preview the platform took (2xx) whose answer gives its URL but no status id (the vendor's
 * document makes both optional): it is queued and has an address, but cannot be followed. A front
 * end shows the URL and says so; this is no failure.
 */
export class PreviewWithoutIdError extends InvalidResponseError {
  constructor(
    readonly previewUrl: string,
    status: number,
  ) {
    super(l10n.t('The platform queued the preview ({0}), but its answer gives no status id, so it cannot be followed from here.', status), status, l10n.t('Open its URL ({0}), or follow it on the dashboard.', previewUrl));
    this.name = 'PreviewWithoutIdError';
  }
}

/** A trigger the platform took (2xx) whose answer gives no status id: it was queued, and cannot be followed from here. */
function queuedUnfollowable(what: 'deployment' | 'preview', status: number, previewUrl?: string): never {
  if (what === 'preview' && previewUrl !== undefined) throw new PreviewWithoutIdError(previewUrl, status);
  throw new InvalidResponseError(
    what === 'deployment'
      ? l10n.t('The platform queued the deployment ({0}), but the answer does not say its status id, so it cannot be followed from here. Follow it on the dashboard; do not deploy again for it.', status)
      : l10n.t('The platform queued the preview ({0}), but the answer does not say its status id, so it cannot be followed from here. Follow it on the dashboard.', status),
    status,
    l10n.t('The answer is logged.'),
  );
}

export function parseDeployTriggered(value: unknown, status: number): DeployTriggered {
  const t = parse(deployTriggerSchema, value, 'deployTrigger', status);
  if (t.statusId === undefined) return queuedUnfollowable('deployment', status);
  return { statusId: t.statusId };
}

/**
 * A preview's URL as the editor would open it (links.ts: https:, or loopback http: from a
 * loopback API; no blanks, line breaks or invisible characters), or undefined: a URL that is not
 * one is server text, not an address, and is not kept (`dropped` hears why).
 */
export function checkedPreviewUrl(url: string | undefined, policy: LinkPolicy, dropped?: (reason: string) => void): string | undefined {
  if (url === undefined) return undefined;
  const verdict = checkOpenableLink(url, policy);
  // Kept as given (trimmed): a later check (the Action's outputs) reads what the server sent, not the parser's encoding of it.
  if (verdict.ok) return url.trim();
  dropped?.(verdict.reason);
  return undefined;
}

export function parsePreviewTriggered(value: unknown, status: number, policy: LinkPolicy, dropped?: (reason: string) => void): PreviewTriggered {
  const p = parse(previewTriggerSchema, value, 'previewTrigger', status);
  const previewUrl = checkedPreviewUrl(p.previewUrl, policy, dropped);
  if (p.statusId === undefined) return queuedUnfollowable('preview', status, previewUrl);
  return previewUrl === undefined ? { statusId: p.statusId } : { statusId: p.statusId, previewUrl };
}

export function parseAutomationTriggered(value: unknown, status: number): AutomationTriggered {
  const a = parse(automationSchema, value, 'automationRun', status);
  const out: AutomationTriggered = {};
  if (a.schemaId !== undefined) out.schemaId = a.schemaId;
  if (a.instanceId !== undefined) out.instanceId = a.instanceId;
  if (a.jobId !== undefined) out.jobId = a.jobId;
  return out;
}
