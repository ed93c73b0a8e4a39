import { isPermanent, type NetFailure } from '../net/failure';

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
  | 'aborted'
  | 'invalidInput';

export abstract class ApiError extends Error {
  abstract readonly kind: ApiErrorKind;
  /** The HTTP status, when the server answered. */
  readonly status: number | undefined;
  /** The server's own `error` message, redacted, when it gave one. */
  readonly serverMessage: string | undefined;

  constructor(message: string, options: { status?: number; serverMessage?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = options.status;
    this.serverMessage = options.serverMessage;
  }
}

/** 401, or no key at all: missing, wrong or expired. */
export class AuthError extends ApiError {
  readonly kind = 'auth';
  constructor(readonly reason: 'missing' | 'rejected', serverMessage?: string) {
    super(
      reason === 'missing'
        ? 'No admin key is set. Create one on the dashboard\'s API keys page (organization settings) and set it.'
        : `The admin key was rejected (401${serverMessage ? `: ${serverMessage}` : ''}). It may be wrong, expired or revoked: create a new one on the dashboard's API keys page and set it again.`,
      { ...(reason === 'rejected' ? { status: 401 } : {}), ...(serverMessage === undefined ? {} : { serverMessage }) },
    );
  }
}

export type ForbiddenCause = 'plan' | 'scope' | 'ipAllowList';

const CAUSE_TEXT: Record<ForbiddenCause, string> = {
  plan: 'the organization\'s plan does not include static export (it needs an enterprise plan)',
  scope: 'the key is read-only or lacks the scope for this call (use a read-write admin key)',
  ipAllowList: 'the key\'s IP allow-list does not include this machine\'s address',
};

/** 403: the key is valid but may not do this. */
export class ForbiddenError extends ApiError {
  readonly kind = 'forbidden';
  constructor(readonly causes: readonly ForbiddenCause[], serverMessage?: string) {
    const [only] = causes;
    const why =
      causes.length === 1 && only !== undefined
        ? `The cause: ${CAUSE_TEXT[only]}.`
        : `Possible causes: ${causes.map((c) => CAUSE_TEXT[c]).join('; or ')}.`;
    super(`Access denied (403${serverMessage ? `: ${serverMessage}` : ''}). ${why}`, { status: 403, ...(serverMessage === undefined ? {} : { serverMessage }) });
  }
}

export class NotFoundError extends ApiError {
  readonly kind = 'notFound';
  constructor(readonly what: string, serverMessage?: string) {
    super(`${what} was not found (404${serverMessage ? `: ${serverMessage}` : ''}). Check the id and the project id.`, { status: 404, ...(serverMessage === undefined ? {} : { serverMessage }) });
  }
}

/** 409: for the bundle, the export job has not completed yet. */
export class ConflictError extends ApiError {
  readonly kind = 'conflict';
  constructor(message: string, serverMessage?: string) {
    super(`${message}${serverMessage ? ` (409: ${serverMessage})` : ' (409)'}`, { status: 409, ...(serverMessage === undefined ? {} : { serverMessage }) });
  }
}

export class RateLimitedError extends ApiError {
  readonly kind = 'rateLimited';
  constructor(readonly retryAfterMs: number | undefined) {
    super(
      `The server is rate limiting requests (429). ${retryAfterMs === undefined ? 'Wait a little' : `Wait ${Math.ceil(retryAfterMs / 1000)} s`} before trying again.`,
      { status: 429 },
    );
  }
}

export class ServerError extends ApiError {
  readonly kind = 'server';
  constructor(status: number, serverMessage?: string) {
    super(`The server failed (${status}${serverMessage ? `: ${serverMessage}` : ''}). This is on the service's side; try again in a few minutes.`, { status, ...(serverMessage === undefined ? {} : { serverMessage }) });
  }
}

/** Another 4xx: the server refused the request as sent (400, 415, ...). */
export class RequestRejectedError extends ApiError {
  readonly kind = 'rejected';
  constructor(status: number, serverMessage?: string) {
    super(`The server refused the request (${status}${serverMessage ? `: ${serverMessage}` : ''}).`, { status, ...(serverMessage === undefined ? {} : { serverMessage }) });
  }
}

export type NetworkCause = 'refused' | 'reset' | 'dns' | 'tls' | 'certificate' | 'proxy' | 'other';

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
    const text: Record<NetworkCause, string> = {
      refused: `the connection to ${host} was refused (is the base URL right, and the service up?)`,
      reset: `the connection to ${host} was dropped`,
      dns: `the host name ${host} could not be resolved (check the base URL and your network or proxy)`,
      tls: `the TLS connection to ${host} failed (a proxy or a certificate the system does not trust?)`,
      certificate: failure?.message ?? `the certificate of ${host} was refused`,
      proxy: failure?.message ?? 'the proxy failed',
      other: `the network request to ${host} failed`,
    };
    super(failure === undefined ? `Could not reach the server: ${text[reason]}.` : failure.message, { cause });
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
  constructor(readonly phase: 'connect' | 'request', ms: number, host: string) {
    super(
      phase === 'connect'
        ? `Could not connect to ${host} within ${Math.round(ms / 1000)} s. Check the base URL and your network or proxy.`
        : `The server at ${host} did not answer within ${Math.round(ms / 1000)} s. Try again; if it persists, the service may be overloaded.`,
    );
  }
}

export class InvalidResponseError extends ApiError {
  readonly kind = 'invalidResponse';
  constructor(detail: string, status?: number) {
    super(`The server's answer could not be used: ${detail}.`, status === undefined ? {} : { status });
  }
}

export class RedirectError extends ApiError {
  readonly kind = 'redirect';
}

export class AbortedError extends ApiError {
  readonly kind = 'aborted';
  constructor() {
    super('Cancelled.');
  }
}

/** Bad input caught before any request (an empty id, say). */
export class InvalidInputError extends ApiError {
  readonly kind = 'invalidInput';
}
