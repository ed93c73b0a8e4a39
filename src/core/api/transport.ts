/**
 * HTTP for the admin API over undici: the key on the API origin only, a connect timeout and a
 * whole-request timeout, a cap on body size, bounded retries with back-off and full jitter,
 * manual redirects followed only within the API's origin (one that leaves it is refused: nothing
 * is sent there), and a debug log line per request that never holds a secret.
 */
import * as l10n from '@vscode/l10n';
import type { Dispatcher } from 'undici';
import type { Logger } from '../log';
import { silentLogger } from '../log';
import { ApiDispatcher } from '../net/apiDispatcher';
import { request } from '../net/undiciParts';
import { classifyFailure, failureMessage } from '../net/failure';
import { directNetwork, type Network } from '../net/network';
import { redactUrl } from '../redact';
import { ApiError, InvalidResponseError, NetworkError, RedirectError, TimeoutError, type NetworkCause } from './apiErrors';
import { retryAfterOf } from './retryAfter';
import { abortableSleep, AbortedError } from '../abort';

export interface TransportOptions {
  baseUrl: string;
  getKey: () => Promise<string | undefined> | string | undefined;
  /** Proxy and certificate settings (direct, Node's defaults otherwise). */
  network?: Network;
  /** Replaces the dispatcher built from `network` (tests). */
  dispatcher?: Dispatcher;
  log?: Logger;
  connectTimeoutMs?: number;
  /** For the status and headers, and for the whole attempt. */
  requestTimeoutMs?: number;
  /**
   * Once the headers came, how long the body may pause between two chunks (default
   * `requestTimeoutMs`, which bounds the attempt anyway). A shorter one tells a body that stalls
   * from a server that does not answer whatever the time the headers took (tests on a busy machine).
   */
  bodyTimeoutMs?: number;
  /** Attempts per call, the first included. */
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A 429 asking to wait longer than this is not waited out: the caller gets the error. */
  maxRetryAfterMs?: number;
  maxBodyBytes?: number;
  maxRedirects?: number;
  userAgent?: string;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface SendOptions {
  method: 'GET' | 'POST';
  /** Path below the base URL, already encoded. */
  path: string;
  body?: unknown;
  signal?: AbortSignal | undefined;
}

const RETRYABLE_STATUS = (status: number) => status === 429 || status >= 500;


function errorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

function networkCause(code: string | undefined): NetworkCause {
  if (code === undefined) return 'other';
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return 'dns';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE' || code === 'UND_ERR_CLOSED') return 'reset';
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|HANDSHAKE/i.test(code)) return 'tls';
  return 'other';
}

export class Transport {
  readonly origin: string;
  private readonly base: URL;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly log: Logger;
  private readonly network: Network;
  private readonly o: Required<Omit<TransportOptions, 'dispatcher' | 'network' | 'log' | 'baseUrl' | 'getKey' | 'userAgent'>>;

  constructor(private readonly options: TransportOptions) {
    this.base = new URL(options.baseUrl.replace(/\/+$/, '') + '/');
    if (this.base.protocol !== 'https:' && this.base.protocol !== 'http:') throw new Error(l10n.t('unsupported base URL scheme {0}', this.base.protocol));
    this.origin = this.base.origin;
    this.log = options.log ?? silentLogger;
    this.o = {
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
      bodyTimeoutMs: options.bodyTimeoutMs ?? options.requestTimeoutMs ?? 30_000,
      maxAttempts: Math.max(1, options.maxAttempts ?? 3),
      baseDelayMs: options.baseDelayMs ?? 500,
      maxDelayMs: options.maxDelayMs ?? 8_000,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
      maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
      maxRedirects: options.maxRedirects ?? 5,
      sleep: options.sleep ?? abortableSleep,
      random: options.random ?? Math.random,
      now: options.now ?? Date.now,
    };
    this.network = options.network ?? directNetwork();
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher = options.dispatcher ?? new ApiDispatcher(this.network, { connectTimeoutMs: this.o.connectTimeoutMs, requestTimeoutMs: this.o.requestTimeoutMs, bodyTimeoutMs: this.o.bodyTimeoutMs });
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  /** The key, read once per call; `undefined` when none is set. */
  key(): Promise<string | undefined> {
    return Promise.resolve(this.options.getKey()).then((k) => (k === undefined || k.trim() === '' ? undefined : k.trim()));
  }

  /**
   * Sends with retries: GETs on network errors, timeouts, 5xx and 429; a POST only when the
   * error proves the request never reached the server (refused, DNS, connect timeout).
   */
  async send(options: SendOptions, key: string): Promise<HttpResponse> {
    const idempotent = options.method === 'GET';
    for (let attempt = 1; ; attempt++) {
      const backoff = () => Math.round(this.o.random() * Math.min(this.o.maxDelayMs, this.o.baseDelayMs * 2 ** (attempt - 1)));
      try {
        const response = await this.follow(options, key);
        if (!idempotent || !RETRYABLE_STATUS(response.status) || attempt >= this.o.maxAttempts) return response;
        let delay = backoff();
        if (response.status === 429) {
          const retryAfter = retryAfterOf(response.headers, this.o.now());
          if (retryAfter !== undefined && retryAfter > this.o.maxRetryAfterMs) return response;
          delay = Math.max(delay, retryAfter ?? 0);
        }
        this.log.debug(`retrying ${options.method} ${this.describe(options.path)} after ${response.status} in ${delay} ms (attempt ${attempt + 1} of ${this.o.maxAttempts})`);
        await this.o.sleep(delay, options.signal);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        const retry =
          attempt < this.o.maxAttempts &&
          !(error instanceof NetworkError && error.permanent) &&
          (idempotent
            ? error instanceof NetworkError || error instanceof TimeoutError
            : (error instanceof NetworkError && error.neverSent) || (error instanceof TimeoutError && error.phase === 'connect'));
        if (!retry) throw error;
        const delay = backoff();
        this.log.debug(`retrying ${options.method} ${this.describe(options.path)} after "${error.message}" in ${delay} ms (attempt ${attempt + 1} of ${this.o.maxAttempts})`);
        await this.o.sleep(delay, options.signal);
      }
    }
  }

  private describe(path: string): string {
    return redactUrl(path);
  }

  /** One attempt, following redirects; the key goes only to the API origin. */
  private async follow(options: SendOptions, key: string): Promise<HttpResponse> {
    let url = new URL(options.path.replace(/^\/+/, ''), this.base);
    let method = options.method;
    let body = options.body;
    const seen = new Set<string>();
    for (let hop = 0; ; hop++) {
      const response = await this.once(url, method, body, key, options.signal);
      const location = response.headers.location;
      if (response.status < 300 || response.status >= 400 || response.status === 304 || location === undefined) return response;
      const target = new URL(Array.isArray(location) ? (location[0] ?? '') : location, url);
      if (target.protocol !== 'https:' && target.protocol !== 'http:') {
        throw new RedirectError(l10n.t('The server redirected to a {0} link, which is not followed.', target.protocol));
      }
      // Another origin gets nothing: not the key, and no request at all (its answer, a 2xx too, would
      // be taken for the API's, and it may be an address inside the network the storage client refuses).
      if (target.origin !== this.origin) {
        this.log.debug(`${method} was redirected from ${this.origin} to another origin (${target.origin}); not followed.`);
        throw new RedirectError(l10n.t("The server redirected to another origin ({0}); a redirect that leaves the API's origin is not followed. Set the base URL to the API's own address.", target.origin));
      }
      if (seen.has(target.href) || target.href === url.href) throw new RedirectError(l10n.t('The server redirects in a loop ({0}). Check the base URL.', redactUrl(target.href)));
      if (hop + 1 > this.o.maxRedirects) throw new RedirectError(l10n.t('The server redirected more than {0} times. Check the base URL.', this.o.maxRedirects));
      if (method === 'POST' && response.status !== 307 && response.status !== 308) {
        throw new RedirectError(l10n.t('The server answered a POST with a {0} redirect to {1}; set the base URL to where the API really is.', response.status, redactUrl(target.href)));
      }
      seen.add(url.href);
      url = target;
      method = options.method;
      body = options.body;
    }
  }

  private async once(url: URL, method: 'GET' | 'POST', body: unknown, key: string | undefined, signal: AbortSignal | undefined): Promise<HttpResponse> {
    if (signal?.aborted) throw new AbortedError();
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.options.userAgent ?? 'docs-admin' };
    if (key !== undefined) headers.authorization = `Bearer ${key}`;
    let payload: string | undefined;
    if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
    // Cleared once the attempt is over: an AbortSignal.timeout would stay armed for the whole timeout after it.
    const timeoutController = new AbortController();
    const timer = setTimeout(() => timeoutController.abort(), this.o.requestTimeoutMs);
    /** Armed once the headers came, again at each chunk: the body's pause between two chunks. */
    let idle: NodeJS.Timeout | undefined;
    let paused = false;
    const armIdle = () => {
      clearTimeout(idle);
      idle = setTimeout(() => {
        paused = true;
        timeoutController.abort();
      }, this.o.bodyTimeoutMs);
    };
    const timeout = timeoutController.signal;
    const combined = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
    const started = this.o.now();
    const where = `${method} ${this.describe(url.origin === this.origin ? url.pathname + url.search : url.href)}`;
    let answered = false;
    try {
      const res = await request(url, { method, headers, body: payload ?? null, dispatcher: this.dispatcher, signal: combined });
      answered = true;
      armIdle();
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > this.o.maxBodyBytes) {
        res.body.destroy();
        throw new InvalidResponseError(l10n.t("The server's answer could not be used: the body is too large ({0} bytes; at most {1} are read).", declared, this.o.maxBodyBytes), res.statusCode);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        armIdle();
        size += chunk.length;
        if (size > this.o.maxBodyBytes) {
          res.body.destroy();
          throw new InvalidResponseError(l10n.t("The server's answer could not be used: the body is too large (over {0} bytes).", this.o.maxBodyBytes), res.statusCode);
        }
        chunks.push(chunk);
      }
      this.log.debug(`${where} -> ${res.statusCode} (${this.o.now() - started} ms)`);
      return { status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') };
    } catch (error) {
      const mapped = paused ? new TimeoutError('body', this.o.bodyTimeoutMs, url.host) : this.map(error, url, signal, timeout, answered);
      this.log.debug(`${where} failed after ${this.o.now() - started} ms: ${mapped.message}`);
      throw mapped;
    } finally {
      clearTimeout(timer);
      clearTimeout(idle);
    }
  }

  /** The typed error for a failed attempt; `answered`: the status and headers had come. */
  private map(error: unknown, url: URL, signal: AbortSignal | undefined, timeout: AbortSignal, answered: boolean): ApiError | AbortedError {
    if (error instanceof ApiError) return error;
    if (signal?.aborted) return new AbortedError();
    const proxy = this.network.routeFor(url);
    const failure = classifyFailure(error, proxy !== undefined);
    if (failure !== undefined) {
      const message = failureMessage(failure, { host: url.host, proxy, hints: this.network.hints, noProxyHint: this.network.noProxyHint });
      return new NetworkError(failure.kind.startsWith('proxy') ? 'proxy' : 'certificate', url.host, error, { failure, message });
    }
    const code = errorCode(error);
    if (timeout.aborted || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
      return new TimeoutError(answered || code === 'UND_ERR_BODY_TIMEOUT' ? 'body' : 'request', code === 'UND_ERR_BODY_TIMEOUT' ? this.o.bodyTimeoutMs : this.o.requestTimeoutMs, url.host);
    }
    if (code === 'UND_ERR_CONNECT_TIMEOUT') return new TimeoutError('connect', this.o.connectTimeoutMs, url.host);
    return new NetworkError(networkCause(code), url.host, error);
  }
}
