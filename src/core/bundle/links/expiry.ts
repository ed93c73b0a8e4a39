/**
 * When a presigned bundle link stops working. From the bundle's `expiresAt` when the server
 * gives it, else from the link itself, as each object store writes it:
 *   S3 SigV4      X-Amz-Date (yyyyMMddTHHmmssZ) + X-Amz-Expires (seconds)
 *   GCS V4        X-Goog-Date + X-Goog-Expires
 *   Azure SAS     se (ISO 8601, UTC)
 *   CloudFront    Expires (epoch seconds)
 * Times are the server's; `timeLeftMs` moves them to this machine's clock using the `Date`
 * header of the answer that brought the link.
 */
import type { Bundle } from '../../api/apiTypes';

export type ExpirySource = 'expiresAt' | 's3' | 'gcs' | 'azure' | 'cloudfront';

export interface LinkExpiry {
  /** Epoch ms, on the server's clock. */
  at: number;
  source: ExpirySource;
}

function compactDate(text: string | undefined): number | undefined {
  const m = text === undefined ? null : /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!m) return undefined;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}

/** Query parameters by lower-cased name (stores differ in case). */
function params(url: URL): Map<string, string> {
  const map = new Map<string, string>();
  for (const [name, value] of url.searchParams) map.set(name.toLowerCase(), value);
  return map;
}

function signedWindow(date: string | undefined, seconds: string | undefined, source: ExpirySource): LinkExpiry | undefined {
  const start = compactDate(date);
  if (start === undefined || seconds === undefined || !/^\d+$/.test(seconds)) return undefined;
  return { at: start + Number(seconds) * 1000, source };
}

export function expiryFromUrl(link: string): LinkExpiry | undefined {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return undefined;
  }
  const q = params(url);
  if (q.has('x-amz-date') || q.has('x-amz-expires')) return signedWindow(q.get('x-amz-date'), q.get('x-amz-expires'), 's3');
  if (q.has('x-goog-date') || q.has('x-goog-expires')) return signedWindow(q.get('x-goog-date'), q.get('x-goog-expires'), 'gcs');
  const se = q.get('se');
  if (se !== undefined && (q.has('sig') || q.has('sv'))) {
    const at = Date.parse(se);
    return Number.isNaN(at) ? undefined : { at, source: 'azure' };
  }
  const expires = q.get('expires');
  if (expires !== undefined && /^\d+$/.test(expires) && (q.has('signature') || q.has('key-pair-id') || q.has('policy'))) {
    return { at: Number(expires) * 1000, source: 'cloudfront' };
  }
  return undefined;
}

/** The bundle's expiry: `expiresAt` when given, else what the link says. */
export function bundleExpiry(bundle: Pick<Bundle, 'bundleUrl' | 'expiresAt'>): LinkExpiry | undefined {
  if (bundle.expiresAt !== undefined) {
    const at = Date.parse(bundle.expiresAt);
    if (!Number.isNaN(at)) return { at, source: 'expiresAt' };
  }
  return expiryFromUrl(bundle.bundleUrl);
}

/**
 * Milliseconds left on this machine's clock. `serverDate` is the server's `Date` header and
 * `receivedAt` our clock when that answer arrived: their difference is the server's offset.
 */
export function timeLeftMs(expiry: LinkExpiry, now: number, clock: { serverDate?: number | undefined; receivedAt?: number | undefined } = {}): number {
  const skew = clock.serverDate !== undefined && clock.receivedAt !== undefined ? clock.serverDate - clock.receivedAt : 0;
  return expiry.at - skew - now;
}
