/**
 * What the extension's core and the CLI logged, threw or printed during a test run, and the
 * secrets none of it may hold: every admin key a simulator accepts, every presigned signature it
 * issues and every reader contact address its analytics carry (exact matches), plus the generic
 * shapes of a bearer token and of an S3 signature. `secretsHook.ts` feeds one collector for the whole unit suite and fails the run
 * on a leak; `secretLeaks()` is the scan, also used for the extension host's log files.
 */
export interface Leak {
  /** Where the text came from: `log:debug`, `stderr`, `cli:export download`, ... */
  source: string;
  /** What matched, masked: `key da_t…`, `signature a3f1…`, `Bearer token`, `URL signature`. */
  what: string;
  /** The line, with every secret in it masked, so the report does not leak it again. */
  excerpt: string;
}

export interface Secrets {
  keys: Iterable<string>;
  signatures: Iterable<string>;
  /** Readers' contact addresses (personal data). */
  contacts?: Iterable<string>;
}

/** What a text may hold by design: a presigned link (a command whose output is the link), a reader's contact (`--include-contact`). */
export interface Allowed {
  mayHoldLink?: boolean;
  mayHoldContact?: boolean;
}

/** A bearer token that is not masked (keys are long; "Bearer tokens" in prose is not one). */
const BEARER = /Bearer\s+(?!\[redacted\])([A-Za-z0-9._~+/-]{12,}=*)/g;
/** An S3 / GCS signature in a URL: the hex after `X-Amz-Signature=` or `X-Goog-Signature=`. */
const SIGNATURE = /X-(?:Amz|Goog)-Signature=([0-9a-f]{16,})/gi;
/** Shorter values would match ordinary text. */
const MIN_SECRET = 8;

const mask = (secret: string) => `${secret.slice(0, 4)}…`;

function maskAll(line: string, exact: readonly string[]): string {
  let out = line;
  for (const secret of exact) out = out.split(secret).join(`<${mask(secret)}>`);
  return out.replace(BEARER, 'Bearer <token>').replace(SIGNATURE, (m) => `${m.slice(0, m.indexOf('=') + 1)}<hex>`);
}

function excerpt(line: string, at: number, exact: readonly string[]): string {
  const from = Math.max(0, line.lastIndexOf('\n', at) + 1, at - 120);
  const end = line.indexOf('\n', at);
  return maskAll(line.slice(from, Math.min(end < 0 ? line.length : end, at + 160)), exact);
}

/**
 * Every place in `texts` that holds one of the secrets or a generic bearer token or signature.
 * Texts marked `mayHoldLink` (a command whose output *is* the presigned link, by design) are
 * checked for keys and bearer tokens only; texts marked `mayHoldContact` (the CLI asked for
 * readers' contacts with `--include-contact`) are not checked for contacts.
 */
export function secretLeaks(texts: Iterable<{ source: string; text: string } & Allowed>, secrets: Secrets): Leak[] {
  const keys = [...new Set(secrets.keys)].filter((k) => k.length >= MIN_SECRET);
  const signatures = [...new Set(secrets.signatures)].filter((s) => s.length >= MIN_SECRET);
  const contacts = [...new Set(secrets.contacts ?? [])].filter((c) => c.length >= MIN_SECRET);
  const exact = [...keys, ...signatures, ...contacts];
  const leaks: Leak[] = [];
  for (const { source, text, mayHoldLink, mayHoldContact } of texts) {
    if (mayHoldContact !== true) {
      for (const contact of contacts) {
        const at = text.indexOf(contact);
        if (at >= 0) leaks.push({ source, what: `reader contact ${mask(contact)}`, excerpt: excerpt(text, at, exact) });
      }
    }
    for (const key of keys) {
      const at = text.indexOf(key);
      if (at >= 0) leaks.push({ source, what: `key ${mask(key)}`, excerpt: excerpt(text, at, exact) });
    }
    for (const match of text.matchAll(BEARER)) leaks.push({ source, what: 'Bearer token', excerpt: excerpt(text, match.index, exact) });
    if (mayHoldLink === true) continue;
    for (const signature of signatures) {
      const at = text.indexOf(signature);
      if (at >= 0) leaks.push({ source, what: `signature ${mask(signature)}`, excerpt: excerpt(text, at, exact) });
    }
    for (const match of text.matchAll(SIGNATURE)) leaks.push({ source, what: 'URL signature', excerpt: excerpt(text, match.index, exact) });
  }
  return leaks;
}

export function describeLeaks(leaks: readonly Leak[], limit = 10): string {
  const lines = leaks.slice(0, limit).map((l) => `  ${l.what} in ${l.source}: ${l.excerpt}`);
  if (leaks.length > limit) lines.push(`  … and ${leaks.length - limit} more`);
  return lines.join('\n');
}

/** Text seen during a run, and the secrets it must not hold. */
export class Collector {
  private readonly texts: ({ source: string; text: string } & Allowed)[] = [];
  private readonly keys = new Set<string>();
  private readonly signatures = new Set<string>();
  private readonly contacts = new Set<string>();

  /** Text the product logged or printed. */
  record(source: string, text: string, options: Allowed = {}): void {
    if (text !== '') this.texts.push({ source, text, ...options });
  }

  /** An error a test saw: its message, and those of its causes. */
  recordError(source: string, error: unknown): void {
    for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
      this.record(source, e instanceof Error ? `${e.name}: ${e.message}` : typeof e === 'string' ? e : JSON.stringify(e));
      e = e instanceof Error ? e.cause : undefined;
    }
  }

  private set(kind: 'key' | 'signature' | 'contact'): Set<string> {
    return kind === 'key' ? this.keys : kind === 'signature' ? this.signatures : this.contacts;
  }

  addSecret(kind: 'key' | 'signature' | 'contact', value: string): void {
    this.set(kind).add(value);
  }

  knows(kind: 'key' | 'signature' | 'contact', value: string): boolean {
    return this.set(kind).has(value);
  }

  get size(): { texts: number; keys: number; signatures: number; contacts: number } {
    return { texts: this.texts.length, keys: this.keys.size, signatures: this.signatures.size, contacts: this.contacts.size };
  }

  /** How many recorded texts came from a source starting with `prefix`. */
  count(prefix: string): number {
    return this.texts.filter((t) => t.source.startsWith(prefix)).length;
  }

  leaks(): Leak[] {
    return secretLeaks(this.texts, { keys: this.keys, signatures: this.signatures, contacts: this.contacts });
  }
}

/** The unit suite's collector (fed by secretsHook.ts, scanned once every test has run). */
export const collector = new Collector();
