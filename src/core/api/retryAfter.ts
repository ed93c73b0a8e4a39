/** `Retry-After` in milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (text === undefined || text === '') return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its day and month; anything else ("-5", "soon") is not one.
  if (!/^[A-Za-z]{3},/.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/**
 * `Retry-After` of an answer, in milliseconds. An HTTP date is read against the answer's own
 * `Date` header (the server's clock), so a client whose clock is off still waits the right time.
 */
export function retryAfterOf(headers: Record<string, string | string[] | undefined>, localNow: number): number | undefined {
  const date = headers.date;
  const serverNow = typeof date === 'string' ? Date.parse(date) : NaN;
  return parseRetryAfter(headers['retry-after'], Number.isNaN(serverNow) ? localNow : serverNow);
}
