/**
 * Validation at the boundary. Tolerant reader: extra fields are dropped, the real service's
 * richer shapes are accepted, an unknown status is kept as `unknown` with the server's word;
 * a missing identity field (an export's id or status, a bundle's link) is an invalid response
 * that names the field. An agent job needs none: its id can come from the request.
 */
import * as l10n from '@vscode/l10n';
import * as z from 'zod/mini';
import { InvalidResponseError } from './apiErrors';
import { JOB_ID } from './jobId';
import {
  AGENT_JOB_STATUSES,
  EXPORT_JOB_STATUSES,
  type AgentJob,
  type Bundle,
  type ExportJob,
  type ExportJobStatus,
} from './apiTypes';


/** A number, or a string holding one (some gateways stringify numbers). */
const looseNumber = z.union([z.number(), z.pipe(z.string().check(z.regex(/^-?\d+(\.\d+)?$/)), z.transform(Number))]).check(z.refine(Number.isFinite));
const nonEmpty = () => z.string().check(z.minLength(1));
/** An optional string: `null` reads as absent. */
const optionalString = z.pipe(z.nullish(z.string()), z.transform((v) => v ?? undefined));
const nullableString = z.pipe(z.nullish(z.string()), z.transform((v) => v ?? null));
/** A job id as the server answers it: one that is no id (link or shell syntax, a path) is refused here. */
const jobId = () => z.string().check(z.regex(JOB_ID));
/** An optional job id: `null` reads as absent; one that is there is an id. */
const optionalJobId = z.pipe(z.nullish(jobId()), z.transform((v) => v ?? undefined));

/**
 * The vendor's admin API 2.0.0 requires no field of an AgentJob: every one may be missing (and
 * `null` reads as missing). Only a field of the wrong type is a wrong shape, or an id that is no
 * job id (issue 27).
 */
const agentJobSchema = z.object({
  id: optionalJobId,
  status: optionalString,
  source: z.nullish(z.object({ repository: optionalString, ref: nullableString })),
  model: optionalString,
  prLink: nullableString,
  createdAt: optionalString,
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
  jobId: optionalJobId,
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
export function issueClause(field: string, issue: z.core.$ZodIssue | undefined): string {
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
  // With the input, a field of the wrong type is told apart from a missing one.
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.length ? issue.path.join('.') : l10n.t('(the body)');
  throw wrongShape(what, issueClause(field, issue), status);
}

function knownOr<T extends string>(known: readonly T[], raw: string): T | 'unknown' {
  return (known as readonly string[]).includes(raw) ? (raw as T) : 'unknown';
}

/**
 * What the client knows of an agent job before the answer: the id it asked about (a GET, a
 * follow-up), and the status a job has after a create or a follow-up (it runs: `active`).
 */
export interface AgentJobContext {
  id?: string;
  status?: 'active';
}

/** A string with something in it, or undefined. */
function given(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/**
 * An agent job from an answer: every vendor-valid shape is accepted. The id comes from the
 * answer, else from `context`; without either (a create whose answer has no id) it is an
 * invalid response that says so.
 */
export function parseAgentJob(value: unknown, status: number, context: AgentJobContext = {}): AgentJob {
  const job = parse(agentJobSchema, value, 'agentJob', status);
  const id = given(job.id) ?? context.id;
  if (id === undefined) throw wrongShape('agentJob', l10n.t('field "{0}" is missing', 'id'), status);
  const raw = given(job.status) ?? context.status;
  const out: AgentJob = { id, status: raw === undefined ? 'unknown' : knownOr(AGENT_JOB_STATUSES, raw), source: { ref: given(job.source?.ref ?? undefined) ?? null }, prLink: job.prLink, archivedAt: job.archivedAt };
  if (raw !== undefined) out.rawStatus = raw;
  const repository = given(job.source?.repository);
  if (repository !== undefined) out.source.repository = repository;
  const model = given(job.model);
  if (model !== undefined) out.model = model;
  const createdAt = given(job.createdAt);
  if (createdAt !== undefined) out.createdAt = createdAt;
  return out;
}

/**
 * The id an answer holds, whatever else is wrong with it: a create that answered 2xx made a
 * job, and its id must not be lost to a field of the wrong type elsewhere.
 */
export function answeredId(value: unknown, status: number): string | undefined {
  const id = typeof value === 'object' && value !== null ? (value as Record<string, unknown>).id : undefined;
  if (typeof id !== 'string') return undefined;
  // An id that is no id (link or shell syntax, a path, blank) is refused here, naming the field: it is never followed.
  parse(z.object({ id: jobId() }), value, 'agentJob', status);
  return given(id);
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
