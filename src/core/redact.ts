/**
 * Secrets never reach a log line or a message: the admin key, `Authorization` and
 * `Proxy-Authorization` values, credentials in a URL (`http://user:password@proxy`), and the
 * query strings of presigned links (their signatures are credentials too).
 */

const MASK = '[redacted]';

/** The URL with its query string replaced, so no signature or token is shown. */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  const hash = url.indexOf('#');
  const base = at >= 0 ? url.slice(0, at) : hash >= 0 ? url.slice(0, hash) : url;
  // Credentials in the authority (https://user:pw@host) go too.
  const cleaned = base.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, `$1${MASK}@`);
  return at >= 0 ? `${cleaned}?${MASK}` : cleaned;
}

/**
 * Parameters that carry a signature or a credential in the links of S3 (SigV4 and V2), Google
 * Cloud Storage, Azure SAS and CloudFront: masked wherever they appear, so a link without its
 * host, a protocol-relative one or a parameter after `;` does not slip through.
 */
const SIGNED_PARAM = /(^|[?&;\s"'(])(X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token|X-Goog-Signature|X-Goog-Credential|Signature|sig|Policy|Key-Pair-Id|AWSAccessKeyId)=[^&;\s"'<>]+/gi;

/** The text with every given secret, bearer token and presigned query string masked. */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret !== undefined && secret.length >= 4) out = out.split(secret).join(MASK);
  }
  out = out.replace(/(Bearer\s+)[^\s"',;]+/gi, `$1${MASK}`);
  // Proxy-Authorization schemes (case-sensitive, so prose such as "a basic check" is left alone).
  out = out.replace(/\b((?:Basic|Negotiate|NTLM)\s+)[^\s"',;]+/g, `$1${MASK}`);
  out = out.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@"'<>]+@/gi, `$1${MASK}@`);
  out = out.replace(/\b(https?:\/\/[^\s"'<>?]+)\?[^\s"'<>]*/gi, (_m, base: string) => redactUrl(`${base}?x`));
  out = out.replace(SIGNED_PARAM, `$1$2=${MASK}`);
  return out;
}
