/**
 * One GET of the bundle link, for the single stream and for each range alike: the link checked
 * (fetched, not opened: loopback `http:` stays allowed, the storage client's own address rules
 * apply, objectStore.ts), no `Authorization` and no content coding; the store's answer, or the
 * retry a failed request leads to. A failure the proxy or certificate settings explain throws (a
 * retry would not mend it), and so does a proxy that asks for credentials (407).
 */
import * as l10n from '@vscode/l10n';
import { checkOpenableLink } from '../../links';
import { classifyFailure } from '../../net/failure';
import type { Network } from '../../net/network';
import type { IssuedLink } from '../links/linkCache';
import { describe, throwIfSettingsProblem, type Retry } from './answers';
import { BundleDownloadError } from './downloadErrors';
import { discard, type StorageClient } from './objectStore';
import type { StorageResponse } from './response';

export interface BundleRequest {
  link: IssuedLink;
  /** The `Range` header's value; undefined for the whole file. */
  range: string | undefined;
  /** Sent as `If-Range` with a range, so a bundle that changed comes whole. */
  etag: string | undefined;
  storage: StorageClient;
  network: Network;
  /** Counted into the download's result. */
  counts: { requests: number };
  /** Throws when the download was cancelled or stopped (checked before a failed request is retried). */
  stopIfAsked(): void;
}

export async function requestBundle(r: BundleRequest): Promise<StorageResponse | Retry> {
  const verdict = checkOpenableLink(r.link.bundle.bundleUrl, { loopbackHttp: true });
  if (!verdict.ok) throw new BundleDownloadError('link', l10n.t('The bundle link was not fetched: {0}.', verdict.reason));
  const headers: Record<string, string> = { 'user-agent': 'docs-admin', 'accept-encoding': 'identity' };
  if (r.range !== undefined) {
    headers.range = r.range;
    if (r.etag !== undefined) headers['if-range'] = r.etag;
  }
  r.counts.requests++;
  let res: StorageResponse;
  try {
    res = await r.storage.get(verdict.url, headers);
  } catch (error) {
    r.stopIfAsked();
    if (error instanceof BundleDownloadError) throw error;
    throwIfSettingsProblem(r.network, classifyFailure(error, r.network.routeFor(verdict.url) !== undefined), verdict.url, error);
    return { done: false, next: 'retry', why: (l10n) => l10n.t('the request failed ({0})', describe(error)) };
  }
  if (res.statusCode === 407) {
    discard(res);
    throwIfSettingsProblem(r.network, { kind: 'proxyAuth' }, verdict.url, undefined);
  }
  return res;
}
