/**
 * Validation at the boundary. Tolerant reader: extra fields are dropped, the real service's
 * richer shapes are accepted, an unknown status is kept as `unknown` with the server's word;
 * a missing identity field (id, status, link) is an invalid response that names the field.
 */
import * as l10n from '@vscode/l10n';
import * as z from 'zod/mini';
import { InvalidResponseError } from './errors';
import { JOB_ID } from './jobId';
import {
  AGENT_JOB_STATUSES,
  EXPORT_JOB_STATUSES,
  type AgentJob,
  type AgentJobStatus,
  type Bundle,
  type ExportJob,
  type ExportJobStatus,
} from './types';


/** A number, or a string holding one (some gateways stringify numbers). */
const looseNumber = z.union([z.number(), z.pipe(z.string().check(z.regex(/^-?\d+(\.\d+)?$/)), z.transform(Number))]).check(z.refine(Number.isFinite));
const nonEmpty = () => z.string().check(z.minLength(1));
/** An optional string: `null` reads as absent. */
const optionalString = z.pipe(z.nullish(z.string()), z.transform((v) => v ?? undefined));
const nullableString = z.pipe(z.nullish(z.string()), z.transform((v) => v ?? null));
/** A job id as the server answers it: one that is no id (link or shell syntax, a path) is refused here. */
const jobId = () => z.string().check(z.regex(JOB_ID));

const agentJobSchema = z.object({
  id: jobId(),
  status: nonEmpty(),
  source: z.object({ repository: nonEmpty(), ref: nullableString }),
  model: z.pipe(z.nullish(z.string()), z.transform((v) => v ?? '')),
  prLink: nullableString,
  createdAt: nonEmpty(),
  archivedAt: nullableString,
});

const exportJobSchema = z.object({
  jobId: jobId(),
  status: z.optional(nonEmpty()),
  progress: z.nullish(looseNumber),
  pageCount: z.nullish(looseNumber),
  domain: optionalString,
  createdAt: optionalString,
  updatedAt: optionalString,
  error: optionalString,
});

const bundleSchema = z.object({
  bundleUrl: z.url({ protocol: /^https?$/ }),
  jobId: z.pipe(z.nullish(jobId()), z.transform((v) => v ?? undefined)),
  sizeBytes: z.nullish(looseNumber),
  expiresAt: optionalString,
});

/** What is wrong with a field, in English words for the log (zod/mini carries codes, not messages). */
export function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (issue === undefined) return 'is invalid';
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is missing' : `is not a ${issue.expected}`;
    case 'too_small':
      return 'is empty';
    case 'invalid_format':
      if (issue.format === 'regex') return 'is not a job id';
      return issue.format === 'url' ? 'is not an http(s) link' : `is not a valid ${issue.format}`;
    case 'invalid_union':
      return 'has the wrong type';
    default:
      return 'is invalid';
  }
}

/** What is wrong with a field, as a whole clause: `field "status" is missing`. */
function issueClause(field: string, issue: z.core.$ZodIssue | undefined): string {
  switch (issue?.code) {
    case 'invalid_type':
      return issue.input === undefined ? l10n.t('field "{0}" is missing', field) : l10n.t('field "{0}" is not a {1}', field, issue.expected);
    case 'too_small':
      return l10n.t('field "{0}" is empty', field);
    case 'invalid_format':
      if (issue.format === 'regex') return l10n.t('field "{0}" is not a job id (letters, digits, "-", "_", "." and ":")', field);
      return issue.format === 'url' ? l10n.t('field "{0}" is not an http(s) link', field) : l10n.t('field "{0}" is not a valid {1}', field, issue.format);
    case 'invalid_union':
      return l10n.t('field "{0}" has the wrong type', field);
    default:
      return l10n.t('field "{0}" is invalid', field);
  }
}

type Resource = 'agentJob' | 'exportJob' | 'bundle';

function wrongShape(what: Resource, issue: string, status: number): InvalidResponseError {
  const problem =
    what === 'agentJob'
      ? l10n.t("The server's answer could not be used: the agent job has the wrong shape: {0}.", issue)
      : what === 'exportJob'
        ? l10n.t("The server's answer could not be used: the export job has the wrong shape: {0}.", issue)
        : l10n.t("The server's answer could not be used: the bundle has the wrong shape: {0}.", issue);
  const advice = l10n.t('Check that the base URL points at the admin API; if it does, the API has changed in a way this version of Docs Admin does not know: look for an update.');
  return new InvalidResponseError(problem, status, advice);
}

function parse<T>(schema: z.ZodMiniType<T>, value: unknown, what: Resource, status: number): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.length ? issue.path.join('.') : l10n.t('(the body)');
  throw wrongShape(what, issueClause(field, issue), status);
}

function knownOr<T extends string>(known: readonly T[], raw: string): T | 'unknown' {
  return (known as readonly string[]).includes(raw) ? (raw as T) : 'unknown';
}

export function parseAgentJob(value: unknown, status: number): AgentJob {
  const job = parse(agentJobSchema, value, 'agentJob', status);
  const state: AgentJobStatus = knownOr(AGENT_JOB_STATUSES, job.status);
  return { ...job, status: state, rawStatus: job.status };
}

/** An export job; a start response with only `{jobId}` reads as `queued`. */
export function parseExportJob(value: unknown, status: number, defaultStatus?: 'queued'): ExportJob {
  const job = parse(exportJobSchema, value, 'exportJob', status);
  const raw = job.status ?? defaultStatus;
  if (raw === undefined) throw wrongShape('exportJob', l10n.t('field "{0}" is missing', 'status'), status);
  const state: ExportJobStatus = knownOr(EXPORT_JOB_STATUSES, raw);
  const out: ExportJob = { jobId: job.jobId, status: state, rawStatus: raw };
  if (job.progress !== undefined && job.progress !== null) out.progress = Math.min(100, Math.max(0, job.progress));
  if (job.pageCount !== undefined && job.pageCount !== null) out.pageCount = Math.max(0, Math.round(job.pageCount));
  if (job.domain !== undefined) out.domain = job.domain;
  if (job.createdAt !== undefined) out.createdAt = job.createdAt;
  if (job.updatedAt !== undefined) out.updatedAt = job.updatedAt;
  if (job.error !== undefined) out.error = job.error;
  return out;
}

export function parseBundle(value: unknown, status: number, serverDate: number | undefined): Bundle {
  const bundle = parse(bundleSchema, value, 'bundle', status);
  const out: Bundle = { bundleUrl: bundle.bundleUrl };
  if (bundle.jobId !== undefined) out.jobId = bundle.jobId;
  if (bundle.sizeBytes !== undefined && bundle.sizeBytes !== null) out.sizeBytes = bundle.sizeBytes;
  if (bundle.expiresAt !== undefined) out.expiresAt = bundle.expiresAt;
  if (serverDate !== undefined) out.serverDate = serverDate;
  return out;
}
