/**
 * Asking the agent: a new job from a prompt, or a follow-up to one, with the two rules every
 * front end (the editor, the CLI, the GitHub Action) must keep:
 * - a 429 created nothing, so it is safe to send again: one whose `Retry-After` is short enough
 *   (at most `maxRateLimitWaitMs`) is waited out and retried once; any other ends with
 *   `AgentRateLimitError`, which says when a retry can work;
 * - a request that timed out, was cut, or got a 5xx may have reached the service (a job may
 *   exist, a follow-up may have been taken): it is never sent again here; it ends with
 *   `AgentRequestMayHaveArrivedError`, which says so.
 * Nothing here shows UI or logs the prompt (a person's own text).
 */
import * as l10n from '@vscode/l10n';
import { AbortedError, abortableSleep } from '../abort';
import { sentences } from '../l10n';
import type { AdminApiClient } from '../api/client';
import { ApiError, InvalidResponseError, NetworkError, RateLimitedError, ServerError, TimeoutError } from '../api/apiErrors';
import type { AgentJob, CallOptions } from '../api/apiTypes';

/** A new job, or a follow-up instruction to an existing one. */
export type AgentRequest = { kind: 'create' } | { kind: 'message'; jobId: string };

/** The service's documented limit: creates and follow-ups together, per project, per hour. */
export const AGENT_HOURLY_LIMIT = 100;

/** The longest `Retry-After` a front end waits out by default before its one retry. */
export const DEFAULT_RATE_LIMIT_WAIT_MS = 60_000;

export interface AskOptions {
  signal?: AbortSignal;
  /** A 429 that asks for at most this long is waited out and sent once more (0: never). */
  maxRateLimitWaitMs?: number;
  /** Told before a 429 is waited out (a progress line, say). */
  onRateLimitWait?: (ms: number) => void;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
  /** What a person can check before sending again, in this front end's words (default: the dashboard). */
  advice?: CheckAdvice;
}

type AgentClient = Pick<AdminApiClient, 'createAgentJob' | 'sendAgentMessage'>;

/** Whether a prompt holds nothing but blanks (such a prompt is never sent). */
export function isBlankPrompt(prompt: string): boolean {
  return prompt.trim() === '';
}

/** A local time of day, as "14:05". */
function clockTime(at: number): string {
  const d = new Date(at);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/** The agent's hourly limit was hit; `retryAt` (epoch ms) when the server said when. Nothing was created or sent. */
export class AgentRateLimitError extends Error {
  readonly retryAt: number | undefined;

  constructor(
    readonly retryAfterMs: number | undefined,
    now: number,
    readonly retried: boolean,
  ) {
    const at = retryAfterMs === undefined ? undefined : now + retryAfterMs;
    super(
      at === undefined || retryAfterMs === undefined
        ? l10n.t("The agent's limit was hit ({0} new jobs and follow-ups per project per hour, 429); nothing was sent to the agent. The server did not say when it resets: try again later (at most an hour).", AGENT_HOURLY_LIMIT)
        : l10n.t(
            "The agent's limit was hit ({0} new jobs and follow-ups per project per hour, 429); nothing was sent to the agent. Try again after {1} (in {2} s).",
            AGENT_HOURLY_LIMIT,
            clockTime(at),
            Math.ceil(retryAfterMs / 1000),
          ),
    );
    this.name = 'AgentRateLimitError';
    this.retryAt = at;
  }
}

/**
 * What a person can check before sending again, as the front end says it (the editor's view,
 * the CLI's command): a sentence or two, ending with a full stop.
 */
export type CheckAdvice = (request: AgentRequest) => string;

/** The advice every front end can give: the dashboard shows every job of the project. */
export const DASHBOARD_ADVICE: CheckAdvice = (request) =>
  request.kind === 'create'
    ? l10n.t("Check the project's agent jobs on the dashboard before you send this prompt again.")
    : l10n.t('Check agent job {0} on the dashboard (it is active again if it took the follow-up) before you send it again.', request.jobId);

/**
 * The request may have reached the service although no answer says so: a new job may exist,
 * a follow-up may have been taken. It was not sent again. `taken`: the service answered 2xx (it
 * did act), but the answer could not be used.
 */
export class AgentRequestMayHaveArrivedError extends Error {
  readonly taken: boolean;

  constructor(
    readonly request: AgentRequest,
    readonly failure: Error,
    advice: CheckAdvice = DASHBOARD_ADVICE,
  ) {
    const taken = answered(failure);
    const what =
      request.kind === 'create'
        ? taken
          ? l10n.t('The request was not sent again.')
          : l10n.t('The agent job may have been created anyway, so the request was not sent again.')
        : taken
          ? l10n.t('The follow-up was not sent again.')
          : l10n.t('The follow-up may have reached agent job {0} anyway, so it was not sent again.', request.jobId);
    // What happened, without its "try again": this request is never sent again blindly.
    const happened = failure instanceof ApiError && failure.fact !== undefined ? failure.fact : failure.message;
    super(sentences(sentences(happened, what), advice(request)), { cause: failure });
    this.name = 'AgentRequestMayHaveArrivedError';
    this.taken = taken;
  }
}

/** A 2xx whose body could not be used: the service did act. */
function answered(error: unknown): boolean {
  return error instanceof InvalidResponseError && error.status !== undefined && error.status >= 200 && error.status < 300;
}

/**
 * Whether a failed request may still have been acted on: it was sent (or may have been) and no
 * refusal came back. A connection that was never made, and any 4xx, are not.
 */
export function mayHaveArrived(error: unknown): boolean {
  if (error instanceof ServerError || error instanceof AbortedError) return true;
  if (error instanceof TimeoutError) return error.phase !== 'connect';
  if (error instanceof NetworkError) return !error.neverSent;
  // A 2xx with a body that could not be read: the service did act.
  return answered(error);
}

/**
 * Sends the prompt (unchanged) as a new job or a follow-up and answers the job as the service
 * returned it. Throws `AgentRateLimitError`, `AgentRequestMayHaveArrivedError`, or the client's
 * typed errors (a blank prompt is an `InvalidInputError`, before any request).
 */
export async function askAgent(client: AgentClient, request: AgentRequest, prompt: string, options: AskOptions = {}): Promise<AgentJob> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? abortableSleep;
  const maxWait = options.maxRateLimitWaitMs ?? DEFAULT_RATE_LIMIT_WAIT_MS;
  const call: CallOptions = options.signal === undefined ? {} : { signal: options.signal };
  const send = () => (request.kind === 'create' ? client.createAgentJob(prompt, call) : client.sendAgentMessage(request.jobId, prompt, call));
  for (let attempt = 0; ; attempt++) {
    // Cancelled before sending: nothing can have arrived.
    if (options.signal?.aborted) throw new AbortedError();
    try {
      return await send();
    } catch (error) {
      if (error instanceof RateLimitedError) {
        const wait = error.retryAfterMs;
        if (attempt === 0 && wait !== undefined && wait <= maxWait && maxWait > 0) {
          options.onRateLimitWait?.(wait);
          await sleep(wait, options.signal);
          continue;
        }
        throw new AgentRateLimitError(wait, now(), attempt > 0);
      }
      if (mayHaveArrived(error)) throw new AgentRequestMayHaveArrivedError(request, error as Error, options.advice);
      throw error;
    }
  }
}
