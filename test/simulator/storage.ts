/**
 * The object-storage side: S3 SigV4-shaped presigned links with an HMAC signature this
 * simulator checks, S3's XML errors, and byte ranges.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { amzDate, parseAmzDate } from './clock';

export function bundlePath(jobId: string): string {
  return `/bundles/${encodeURIComponent(jobId)}/bundle.tar.gz`;
}

function signature(secret: string, path: string, date: string, expires: string): string {
  return createHmac('sha256', secret).update(`GET\n${path}\n${date}\n${expires}`).digest('hex');
}

export function presign(secret: string, storageBaseUrl: string, jobId: string, now: number, ttlSeconds: number): string {
  const path = bundlePath(jobId);
  const date = amzDate(now);
  const expires = String(ttlSeconds);
  const query = new URLSearchParams({
    'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
    'X-Amz-Credential': `SIMACCESSKEY/${date.slice(0, 8)}/us-east-1/s3/aws4_request`,
    'X-Amz-Date': date,
    'X-Amz-Expires': expires,
    'X-Amz-SignedHeaders': 'host',
    'X-Amz-Signature': signature(secret, path, date, expires),
  });
  return `${storageBaseUrl}${path}?${query.toString()}`;
}

export type LinkCheck = { ok: true } | { ok: false; status: number; code: string; message: string };

export function checkLink(secret: string, path: string, query: URLSearchParams, now: number): LinkCheck {
  const date = query.get('X-Amz-Date') ?? '';
  const expires = query.get('X-Amz-Expires') ?? '';
  const given = query.get('X-Amz-Signature') ?? '';
  if (query.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256' || date === '' || expires === '' || given === '') {
    return { ok: false, status: 403, code: 'AccessDenied', message: 'Query-string authentication requires the X-Amz-Signature, X-Amz-Date and X-Amz-Expires parameters' };
  }
  const expected = Buffer.from(signature(secret, path, date, expires), 'hex');
  const actual = Buffer.from(given, 'hex');
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) {
    return { ok: false, status: 403, code: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match the signature you provided.' };
  }
  const signedAt = parseAmzDate(date);
  if (signedAt === undefined || now > signedAt + Number(expires) * 1000) {
    return { ok: false, status: 403, code: 'AccessDenied', message: 'Request has expired' };
  }
  return { ok: true };
}

export function s3Error(code: string, message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>SIM0000000000000</RequestId></Error>`;
}

export type RangeResult = { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

/** One `bytes=` range of RFC 9110 (`a-b`, `a-`, `-n`); anything else is served in full. */
export function parseRange(header: string | undefined, size: number): RangeResult {
  if (header === undefined) return { kind: 'full' };
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return { kind: 'full' };
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return { kind: 'unsatisfiable' };
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end };
}
