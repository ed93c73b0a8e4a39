/**
 * Starting deployments, previews and automation runs, with the rules every front end keeps (the
 * editor, the CLI, the GitHub Action):
 * - paced on the client: the platform allows 10 deployment and automation triggers per 10 s
 *   (shared) and 5 previews per minute, per organisation; a request that would go over waits;
 * - a 429 created nothing: its `Retry-After` (when at most `maxRateLimitWaitMs`) is waited out and
 *   the request sent once more; any other ends with `TriggerRateLimitError`, which says when;
 * - one request in flight per kind (a deployment), per branch (a preview) and per automation: a
 *   second call while one is under way (a double-click), or within `joinWindowMs` after it
 *   succeeded, gets the same answer and sends nothing;
 * - a trigger that timed out or got a 5xx may have queued the deployment: it is never sent again
 *   here, and `TriggerMayHaveArrivedError` says so; one answered 2xx whose answer could not be used
 *   did queue it, and its own error says that (a preview's URL without a status id:
 *   `PreviewWithoutIdError`).
 */
import * as l10n from '@vscode/l10n';
import { abortableSleep, AbortedError } from '../abort';
import { mayHaveArrived } from '../agent/ask';
import type { AdminApiClient } from '../api/client';
import { InvalidResponseError, RateLimitedError } from '../api/apiErrors';
import type { CallOptions } from '../api/apiTypes';
import { RateWindow } from './pacer';
import type { AutomationTriggered, DeployTriggered, PreviewTriggered } from './deploymentTypes';

export const TRIGGER_LIMIT = { limit: 10, windowMs: 10_000 };
export const PREVIEW_LIMIT = { limit: 5, windowMs: 60_000 };

export type TriggerKind = 'deployment' | 'preview' | 'automation';

export interface TriggerOptions {
  signal?: AbortSignal;
  /** Told before a wait: the client's own pacing, or a 429's `Retry-After`. */
  onWait?: (ms: number, why: 'paced' | 'rateLimited') => void;
}

export interface TriggersOptions {
  client: Pick<AdminApiClient, 'triggerDeployment' | 'triggerPreview' | 'triggerAutomation'>;
  /** A 429 asking for at most this long is waited out once (default 60 s; 0: never). */
  maxRateLimitWaitMs?: number;
  /** How long a succeeded trigger still answers a repeated call (a double-click's second click). */
  joinWindowMs?: number;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** A clock time, as "14:05". */
function clockTime(at: number): string {
  const d = new Date(at);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/** The platform's limit was hit and not waited out; nothing was started. */
export class TriggerRateLimitError extends Error {
  constructor(
    readonly kind: TriggerKind,
    readonly retryAfterMs: number | undefined,
    now: number,
  ) {
    const limit = kind === 'preview' ? l10n.t('5 previews per minute') : l10n.t('10 deployments and automation runs per 10 seconds');
    super(
      retryAfterMs === undefined
        ? l10n.t("The platform's limit was hit ({0}, 429); nothing was started. Try again in a minute.", limit)
        : l10n.t("The platform's limit was hit ({0}, 429); nothing was started. Try again after {1} (in {2} s).", limit, clockTime(now + retryAfterMs), Math.ceil(retryAfterMs / 1000)),
    );
    this.name = 'TriggerRateLimitError';
  }
}

/** The trigger may have reached the platform although no answer says so; it was not sent again. */
export class TriggerMayHaveArrivedError extends Error {
  constructor(
    readonly kind: TriggerKind,
    readonly failure: Error,
  ) {
    super(
      kind === 'automation'
        ? l10n.t('{0} The automation may have started anyway, so it was not sent again: check its runs on the dashboard before you run it again.', failure.message)
        : l10n.t('{0} The deployment may have been queued anyway, so it was not sent again: check the deployments on the dashboard before you try again.', failure.message),
      { cause: failure },
    );
    this.name = 'TriggerMayHaveArrivedError';
  }
}

export class DeploymentTriggers {
  private readonly windows: Record<'deploy' | 'preview', RateWindow>;
  /** Requests under way, and those that succeeded within the join window, by kind and branch or id. */
  private readonly running = new Map<string, { promise: Promise<unknown>; doneAt?: number }>();
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(private readonly options: TriggersOptions) {
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? abortableSleep;
    this.windows = { deploy: new RateWindow(TRIGGER_LIMIT.limit, TRIGGER_LIMIT.windowMs, this.now), preview: new RateWindow(PREVIEW_LIMIT.limit, PREVIEW_LIMIT.windowMs, this.now) };
  }

  /** A deployment of the project's deployment branch. */
  deploy(options: TriggerOptions = {}): Promise<DeployTriggered> {
    return this.once('deployment', 'deployment', (call) => this.options.client.triggerDeployment(call), options);
  }

  /** A preview of `branch` (a new one, or its redeploy at the same URL). */
  preview(branch: string, options: TriggerOptions = {}): Promise<PreviewTriggered> {
    return this.once('preview', `preview:${branch}`, (call) => this.options.client.triggerPreview(branch, call), options);
  }

  /** A run of a scheduled automation, now. */
  runAutomation(id: string, options: TriggerOptions = {}): Promise<AutomationTriggered> {
    return this.once('automation', `automation:${id}`, (call) => this.options.client.triggerAutomation(id, call), options);
  }

  /** Whether a request for this kind (and branch or id) is under way. */
  isRunning(kind: TriggerKind, what?: string): boolean {
    const entry = this.running.get(what === undefined ? kind : `${kind}:${what}`);
    return entry !== undefined && entry.doneAt === undefined;
  }

  private once<T>(kind: TriggerKind, key: string, send: (call: CallOptions) => Promise<T>, options: TriggerOptions): Promise<T> {
    const joinMs = this.options.joinWindowMs ?? 2_000;
    const known = this.running.get(key);
    if (known !== undefined && (known.doneAt === undefined || this.now() - known.doneAt < joinMs)) return known.promise as Promise<T>;
    const entry: { promise: Promise<T>; doneAt?: number } = { promise: this.send(kind, send, options) };
    this.running.set(key, entry);
    entry.promise.then(
      () => {
        entry.doneAt = this.now();
      },
      () => {
        if (this.running.get(key) === entry) this.running.delete(key);
      },
    );
    return entry.promise;
  }

  private async send<T>(kind: TriggerKind, send: (call: CallOptions) => Promise<T>, options: TriggerOptions): Promise<T> {
    const window = this.windows[kind === 'preview' ? 'preview' : 'deploy'];
    const maxWait = this.options.maxRateLimitWaitMs ?? 60_000;
    const call: CallOptions = options.signal === undefined ? {} : { signal: options.signal };
    for (let attempt = 0; ; attempt++) {
      for (let wait = window.waitMs(); wait > 0; wait = window.waitMs()) {
        options.onWait?.(wait, 'paced');
        await this.sleep(wait, options.signal);
      }
      // Cancelled before sending: nothing can have arrived.
      if (options.signal?.aborted) throw new AbortedError();
      window.record();
      try {
        return await send(call);
      } catch (error) {
        if (error instanceof RateLimitedError) {
          const wait = error.retryAfterMs;
          window.block(wait ?? window.windowMs);
          if (attempt === 0 && wait !== undefined && maxWait > 0 && wait <= maxWait) {
            options.onWait?.(wait, 'rateLimited');
            await this.sleep(wait, options.signal);
            continue;
          }
          throw new TriggerRateLimitError(kind, wait, this.now());
        }
        // A 2xx whose answer could not be used: it did arrive, and its message says so (never "may have").
        if (error instanceof InvalidResponseError && error.status !== undefined && error.status >= 200 && error.status < 300) throw error;
        if (mayHaveArrived(error)) throw new TriggerMayHaveArrivedError(kind, error as Error);
        throw error;
      }
    }
  }
}
