/**
 * How a bundle download reads the object store's answers, for the single stream and for the
 * ranges alike: a `Content-Range`, and an error status turned into what to do next (resume,
 * a new link, a retry) or a typed error that says what the person can do.
 */
import * as l10n from '@vscode/l10n';
import type { IncomingHttpHeaders } from 'node:http';
import { sentences, type Translator } from '../../l10n';
import { failureMessage, type NetFailure } from '../../net/failure';
import type { Network } from '../../net/network';
import { redactSecrets } from '../../redact';
import { BundleDownloadError } from './errors';

/**
 * Why a request did not finish the download, as words for the log (`english`) and for a message
 * (`l10n`): it goes into both.
 */
export type Why = (l10n: Translator) => string;

/** A request that did not finish the download, and what to do next. */
export type Retry = { done: false; next: 'resume' | 'restart' | 'regenerate' | 'retry'; why: Why };

/** What one request added, and what to do next; `K` is what a finished download is known by. */
export type Step<K = undefined> = ({ done: true } & (K extends undefined ? unknown : { kind: K })) | Retry;

/** The store answered with another byte range than the one asked for: the file starts over. */
export const OTHER_RANGE: Retry = { done: false, next: 'restart', why: (l10n) => l10n.t('the server sent a different byte range than asked') };

/** The object's ETag changed between two requests: the file starts over. */
export const CHANGED: Retry = { done: false, next: 'restart', why: (l10n) => l10n.t('the bundle changed on the server since the download began') };

/** The store's length and the API's `sizeBytes` disagree: not the bundle asked for. */
export function sizeDisagrees(sending: number, promised: number): BundleDownloadError {
  return new BundleDownloadError('size', l10n.t("The storage is sending {0} bytes, but the API said the bundle has {1}. The bundle may be incomplete or not the one asked for; generate it again, and if it persists contact the platform's support.", sending, promised));
}

/**
 * What the head of a 200 or 206 answer to a GET from byte `asked` says: where its body starts in
 * the file, the whole size when told, its ETag; or what to do instead (another range, a bundle
 * that changed since `etag`), or the error of a length that is not the API's `promised` size.
 */
export function bodyHead(status: number, headers: IncomingHttpHeaders, asked: number, etag: string | undefined, promised: number | undefined): { start: number; total: number | undefined; etag: string | undefined } | Retry | BundleDownloadError {
  const first = (name: string) => [headers[name]].flat()[0];
  let start = 0;
  let total: number | undefined;
  if (status === 206) {
    const range = contentRange(first('content-range'));
    if (range === undefined || range.start !== asked) return OTHER_RANGE;
    start = range.start;
    total = range.total;
  } else {
    const length = first('content-length');
    total = length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined;
  }
  const tag = first('etag');
  if (start > 0 && etag !== undefined && tag !== undefined && tag !== etag) return CHANGED;
  if (total !== undefined && promised !== undefined && total !== promised) return sizeDisagrees(total, promised);
  return { start, total, etag: tag };
}

const EXPIRED_TEXT = /expired|ExpiredToken|not valid in the specified time frame|AuthenticationFailed/i;

/** `bytes a-b/total` -> its parts. */
export function contentRange(header: string | undefined): { start: number; end: number; total: number | undefined } | undefined {
  const m = header === undefined ? null : /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(header.trim());
  if (!m) return undefined;
  return { start: Number(m[1]), end: Number(m[2]), total: m[3] === '*' ? undefined : Number(m[3]) };
}

/**
 * An error answer of the store (not 2xx, not 416, not 407): an expired link (by its words, or
 * by the clock when `left` says it ran out), a passing failure to retry, or an error to throw.
 */
export function refusalStep(status: number, text: string, left: number | undefined): Retry {
  const storeCode = /<Code>([^<]+)<\/Code>/.exec(text)?.[1];
  const storeMessage = /<Message>([^<]+)<\/Message>/.exec(text)?.[1];
  if ((status === 403 || status === 400) && (EXPIRED_TEXT.test(text) || (left !== undefined && left <= 0))) {
    return { done: false, next: 'regenerate', why: (l10n) => l10n.t('the link expired ({0})', storeCode ?? status) };
  }
  if (status >= 500 || status === 429) return { done: false, next: 'retry', why: (l10n) => l10n.t('the storage answered {0}', status) };
  const detail = [storeCode, storeMessage].filter(Boolean).join(': ') || l10n.t('status {0}', status);
  const hint =
    status === 404
      ? l10n.t('The bundle is no longer stored; start a new export.')
      : status === 403
        ? l10n.t('Generate a new link and try again; if it persists, the link may have been changed in transit (a proxy?).')
        : l10n.t('Try again later.');
  throw new BundleDownloadError('http', sentences(l10n.t('The storage refused the bundle download ({0}).', detail), hint), { status });
}

/** An error's code and message for the log and a message, with any presigned signature removed. */
export function describe(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return redactSecrets(typeof code === 'string' ? `${code}: ${message}` : message);
}

/**
 * A certificate that is not trusted, a proxy that wants credentials, refuses the tunnel or
 * cannot be reached: the settings most likely need a change, so no retries; says which.
 */
export function throwIfSettingsProblem(network: Network, failure: NetFailure | undefined, url: URL, cause: unknown): void {
  if (failure === undefined) return;
  const message = failureMessage(failure, { host: url.host, proxy: network.routeFor(url), hints: network.hints, noProxyHint: network.noProxyHint });
  throw new BundleDownloadError('network', sentences(l10n.t('The bundle download failed.'), message), { ...(failure.kind === 'proxyAuth' ? { status: 407 } : {}), cause });
}
