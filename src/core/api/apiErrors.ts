import * as l10n from '@vscode/l10n';
import { sentences, type Translator } from '../l10n';
import { isPermanent, type NetFailure } from '../net/failure';
import { conflictMessage, notFoundMessage, type ApiSubject } from './subjects';

export type { ApiSubject } from './subjects';

/**
 * Typed errors a person can act on. Every message says what happened and what to do; none
 * carries the key (server-provided text is redacted before it is quoted).
 */

export type ApiErrorKind =
  | 'auth'
  | 'forbidden'
  | 'notFound'
  | 'conflict'
  | 'rateLimited'
  | 'server'
  | 'rejected'
  | 'network'
  | 'timeout'
  | 'invalidResponse'
  | 'redirect'
  | 'invalidInput';

export abstract class ApiError extends Error {
  abstract readonly kind: ApiErrorKind;
  /** The HTTP status, when the server answered. */
  readonly status: number | undefined;
  /** The server's own `error` message, redacted, when it gave one. */
  readonly serverMessage: string | undefined;
  /**
   * What happened, without the advice to try again: for a message that must not say so (a request
   * that may have been acted on, which is never sent again blindly). Undefined: the message.
   */
  readonly fact: string | undefined;

  constructor(message: string, options: { status?: number; serverMessage?: string; cause?: unknown; fact?: string } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = options.status;
    this.serverMessage = options.serverMessage;
    this.fact = options.fact;
  }
}

/** 401, or no key at all: missing, wrong or expired. */
export class AuthError extends ApiError {
  readonly kind = 'auth';
  constructor(readonly reason: 'missing' | 'rejected', serverMessage?: string) {
    super(
      reason === 'missing'
        ? l10n.t("No admin key is set. Create one on the dashboard's API keys page (organization settings) and set it.")
        : serverMessage
          ? l10n.t("The admin key was rejected (401: {0}). It may be wrong, expired or revoked: create a new one on the dashboard's API keys page and set it again.", serverMessage)
          : l10n.t("The admin key was rejected (401). It may be wrong, expired or revoked: create a new one on the dashboard's API keys page and set it again."),
      { ...(reason === 'rejected' ? { status: 401 } : {}), ...(serverMessage === undefined ? {} : { serverMessage }) },
    );
  }
}

export type ForbiddenCause = 'plan' | 'scope' | 'ipAllowList';

/** What a plan may lack: static export (enterprise), preview deployments, the API's deployments and automations, or reader analytics (paid plans). */
export type PlanFeature = 'staticExport' | 'previews' | 'deployments' | 'automations' | 'analytics';

/** The plan cause, and what fixes it, in two sentences. */
function planSentences(feature: PlanFeature): string {
  switch (feature) {
    case 'staticExport':
      return l10n.t("The cause: the organization's plan does not include static export. To fix it, it needs an enterprise plan: ask an owner of the organization to upgrade it.");
    case 'previews':
      return l10n.t("The cause: the organization's plan does not include preview deployments. To fix it, ask an owner of the organization to move to a plan that has them.");
    case 'deployments':
      return l10n.t("The cause: the organization's plan does not include deployments through the API. To fix it, ask an owner of the organization to move to a paid plan.");
    case 'automations':
      return l10n.t("The cause: the organization's plan does not include running automations through the API. To fix it, ask an owner of the organization to move to a paid plan.");
    case 'analytics':
      return l10n.t("The cause: the organization's plan does not include reader analytics. To fix it, it needs a paid plan: ask an owner of the organization to upgrade it.");
  }
}

/** The one cause of a 403, and what fixes it, in two sentences. */
function causeSentences(cause: ForbiddenCause, feature: PlanFeature): string {
  switch (cause) {
    case 'plan':
      return planSentences(feature);
    case 'scope':
      return l10n.t("The cause: the key is read-only or lacks the scope for this call. To fix it, create a read-write admin key on the dashboard's API keys page and set it.");
    case 'ipAllowList':
      return l10n.t("The cause: the key's IP allow-list does not include this machine's address. To fix it, add this address to the key's allow-list on the dashboard's API keys page, or use a key without one.");
  }
}

/** One of several possible causes of a 403, and what fixes it: an item of a list. */
function causeItem(cause: ForbiddenCause, feature: PlanFeature): string {
  switch (cause) {
    case 'plan':
      return feature === 'staticExport'
        ? l10n.t("the organization's plan does not include static export (to fix it, it needs an enterprise plan: ask an owner of the organization to upgrade it)")
        : feature === 'previews'
          ? l10n.t("the organization's plan does not include preview deployments (to fix it, ask an owner of the organization to move to a plan that has them)")
          : feature === 'analytics'
            ? l10n.t("the organization's plan does not include reader analytics (to fix it, it needs a paid plan: ask an owner of the organization to upgrade it)")
            : l10n.t("the organization's plan does not include this part of the API (to fix it, ask an owner of the organization to move to a paid plan)");
    case 'scope':
      return l10n.t("the key is read-only or lacks the scope for this call (to fix it, create a read-write admin key on the dashboard's API keys page and set it)");
    case 'ipAllowList':
      return l10n.t("the key's IP allow-list does not include this machine's address (to fix it, add this address to the key's allow-list on the dashboard's API keys page, or use a key without one)");
  }
}

/** 403: the key is valid but may not do this. */
export class ForbiddenError extends ApiError {
  readonly kind = 'forbidden';
  /** `feature`: what the plan may lack, for the call that was refused. */
  constructor(readonly causes: readonly ForbiddenCause[], serverMessage?: string, readonly feature: PlanFeature = 'staticExport') {
    const [only] = causes;
    const why =
      causes.length === 1 && only !== undefined
        ? causeSentences(only, feature)
        : l10n.t('Possible causes: {0}.', causes.map((c) => causeItem(c, feature)).join(l10n.t({ message: '; or ', comment: ['Between two possible causes of a refusal, in a list.'] })));
    const denied = serverMessage ? l10n.t('Access denied (403: {0}).', serverMessage) : l10n.t('Access denied (403).');
    super(sentences(denied, why), { status: 403, ...(serverMessage === undefined ? {} : { serverMessage }) });
  }
}


export class NotFoundError extends ApiError {
  readonly kind = 'notFound';
  constructor(readonly subject: ApiSubject, serverMessage?: string) {
    super(notFoundMessage(subject, serverMessage), { status: 404, ...(serverMessage === undefined ? {} : { serverMessage }) });
  }
}


/** 409: for the bundle, the export job has not completed yet. */
export class ConflictError extends ApiError {
  readonly kind = 'conflict';
  constructor(readonly subject: ApiSubject, serverMessage?: string) {
    super(conflictMessage(subject, serverMessage), { status: 409, ...(serverMessage === undefined ? {} : { serverMessage }) });
  }
}


export class RateLimitedError extends ApiError {
  readonly kind = 'rateLimited';
  constructor(readonly retryAfterMs: number | undefined) {
    super(
      retryAfterMs === undefined
        ? l10n.t('The server is rate limiting requests (429). Wait a little before trying again.')
        : l10n.t('The server is rate limiting requests (429). Wait {0} s before trying again.', Math.ceil(retryAfterMs / 1000)),
      { status: 429 },
    );
  }
}

/** The reason phrases of the 5xx statuses a gateway or service answers most (HTTP's own words: not translated). */
const SERVER_STATUS: Record<number, string> = {
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export class ServerError extends ApiError {
  readonly kind = 'server';
  constructor(status: number, serverMessage?: string) {
    const phrase = SERVER_STATUS[status];
    const answered = phrase === undefined ? String(status) : `${status} ${phrase}`;
    super(
      serverMessage
        ? l10n.t("The server failed ({0}: {1}). This is on the service's side; try again in a few minutes.", answered, serverMessage)
        : l10n.t("The server failed ({0}). This is on the service's side; try again in a few minutes.", answered),
      {
        status,
        ...(serverMessage === undefined ? {} : { serverMessage }),
        fact: serverMessage ? l10n.t('The server failed ({0}: {1}).', answered, serverMessage) : l10n.t('The server failed ({0}).', answered),
      },
    );
  }
}

/** Another 4xx: the server refused the request as sent (400, 415, ...). */
export class RequestRejectedError extends ApiError {
  readonly kind = 'rejected';
  constructor(status: number, serverMessage?: string) {
    super(
      serverMessage ? l10n.t('The server refused the request ({0}: {1}).', status, serverMessage) : l10n.t('The server refused the request ({0}).', status),
      { status, ...(serverMessage === undefined ? {} : { serverMessage }) },
    );
  }
}

export type NetworkCause = 'refused' | 'reset' | 'dns' | 'tls' | 'certificate' | 'proxy' | 'other';

/** A duration as a person reads it: `300 ms`, `30 s`; `english` for the log. */
export function formatWait(ms: number, l10n: Translator): string {
  return ms < 1_000 ? l10n.t('{0} ms', Math.round(ms)) : l10n.t('{0} s', Math.round(ms / 1_000));
}

function unreachable(reason: NetworkCause, host: string): string {
  switch (reason) {
    case 'refused':
      return l10n.t('Could not reach the server: the connection to {0} was refused. Check the base URL, and that the service is up.', host);
    case 'reset':
      return l10n.t('Could not reach the server: the connection to {0} was dropped. Try again; if it persists, check your network, proxy or VPN.', host);
    case 'dns':
      return l10n.t('Could not reach the server: the host name {0} could not be resolved. Check the base URL and your network or proxy.', host);
    case 'tls':
      return l10n.t("Could not reach the server: the TLS connection to {0} failed. Check your proxy settings, and that the system trusts the server's certificate.", host);
    case 'certificate':
      return l10n.t('Could not reach the server: the certificate of {0} was refused.', host);
    case 'proxy':
      return l10n.t('Could not reach the server: the proxy failed.');
    case 'other':
      return l10n.t('Could not reach the server: the network request to {0} failed. Check your network and proxy settings, then try again.', host);
  }
}

export class NetworkError extends ApiError {
  readonly kind = 'network';
  /**
   * `failure` (with its message, see core/net/failure.ts): a certificate or a proxy problem the
   * settings must fix; the cause is then `certificate` or `proxy`.
   */
  constructor(
    readonly reason: NetworkCause,
    host: string,
    cause?: unknown,
    readonly failure?: { failure: NetFailure; message: string },
  ) {
    super(failure === undefined ? unreachable(reason, host) : failure.message, { cause, ...(reason === 'reset' && failure === undefined ? { fact: l10n.t('The connection to {0} was dropped before an answer came.', host) } : {}) });
  }

  /** Whether the request certainly never reached the server (safe to send again). */
  get neverSent(): boolean {
    return this.reason === 'refused' || this.reason === 'dns' || this.failure?.failure.kind === 'proxyUnreachable';
  }

  /** Whether sending again cannot help until a setting changes (a certificate, proxy credentials). */
  get permanent(): boolean {
    return this.failure !== undefined && isPermanent(this.failure.failure);
  }
}

export class TimeoutError extends ApiError {
  readonly kind = 'timeout';
  /** `connect`: no connection; `request`: no answer (headers); `body`: the answer stopped coming. */
  constructor(readonly phase: 'connect' | 'request' | 'body', ms: number, host: string) {
    const wait = formatWait(ms, l10n);
    super(
      phase === 'connect'
        ? l10n.t('Could not connect to {0} within {1}. Check the base URL and your network or proxy.', host, wait)
        : phase === 'request'
          ? l10n.t('The server at {0} did not answer within {1}. Try again; if it persists, the service may be overloaded.', host, wait)
          : l10n.t('The server at {0} stopped sending its answer (nothing more came for {1}). Try again; if it persists, a proxy or the network may be cutting the connection.', host, wait),
      phase === 'connect'
        ? {}
        : { fact: phase === 'request' ? l10n.t('The server at {0} did not answer within {1}.', host, wait) : l10n.t('The server at {0} stopped sending its answer (nothing more came for {1}).', host, wait) },
    );
  }
}

export class InvalidResponseError extends ApiError {
  readonly kind = 'invalidResponse';
  /**
   * `problem`: the sentence that says what was wrong ("The server's answer could not be used:
   * ..."); `advice`: the one that says what to do (by default: check that the base URL is the
   * admin API's, else the answer was damaged on the way or the service misbehaves).
   */
  constructor(problem: string, status?: number, advice = l10n.t('Check that the base URL points at the admin API; if it does, try again later.')) {
    super(sentences(problem, advice), status === undefined ? {} : { status });
  }
}

export class RedirectError extends ApiError {
  readonly kind = 'redirect';
}

/** Bad input caught before any request (an empty id, say). */
export class InvalidInputError extends ApiError {
  readonly kind = 'invalidInput';
}
