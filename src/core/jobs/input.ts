/**
 * What a person types or pastes: an export domain, an agent job id or a URL holding one.
 * Pure functions that say what was accepted, what was changed, and why something was refused.
 */

export type DomainResult =
  | { ok: true; domain: string; note?: string }
  | { ok: false; reason: string };

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A bare hostname for a static export: a pasted scheme or path is stripped with a note. */
export function parseExportDomain(input: string): DomainResult {
  let text = input.trim();
  if (text === '') return { ok: false, reason: 'Enter the domain of the docs site, such as docs.example.com.' };
  const notes: string[] = [];
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(text);
  if (scheme) {
    notes.push(`removed "${scheme[0]}"`);
    text = text.slice(scheme[0].length);
  }
  const cut = text.search(/[/?#]/);
  if (cut >= 0) {
    notes.push(`removed "${text.slice(cut)}"`);
    text = text.slice(0, cut);
  }
  if (text.includes('@')) return { ok: false, reason: 'A domain has no user name: enter only the host name, such as docs.example.com.' };
  const port = /:\d*$/.exec(text);
  if (port) {
    notes.push(`removed the port "${port[0]}"`);
    text = text.slice(0, port.index);
  }
  const domain = text.toLowerCase().replace(/\.$/, '');
  if (/[^\x21-\x7e]/.test(domain)) {
    return { ok: false, reason: `"${visible(input)}" holds spaces or characters a host name cannot have; enter a host name such as docs.example.com (punycode for international names).` };
  }
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) {
    return { ok: false, reason: `"${visible(domain)}" is not a host name; enter one such as docs.example.com.` };
  }
  return notes.length > 0 ? { ok: true, domain, note: `Using "${domain}" (${notes.join(', ')}).` } : { ok: true, domain };
}

export type JobIdResult = { ok: true; id: string; fromUrl: boolean } | { ok: false; reason: string };

const ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,199}$/;

/**
 * An agent job id, typed or inside a pasted URL (`.../job/<id>`, `...?jobId=<id>`, or the URL's
 * last path segment).
 */
export function parseJobId(input: string): JobIdResult {
  const text = input.trim();
  if (text === '') return { ok: false, reason: 'Enter a job id, or paste a URL that contains one.' };
  if (/^https?:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return { ok: false, reason: 'That URL cannot be read; paste the job id itself.' };
    }
    const fromQuery = url.searchParams.get('jobId') ?? url.searchParams.get('job') ?? url.searchParams.get('id');
    const segments = url.pathname.split('/').filter((s) => s !== '').map(safeDecode);
    const jobIndex = segments.findIndex((s) => s === 'job' || s === 'jobs');
    const candidate = fromQuery ?? (jobIndex >= 0 ? segments[jobIndex + 1] : segments[segments.length - 1]);
    if (candidate !== undefined && ID.test(candidate)) return { ok: true, id: candidate, fromUrl: true };
    return { ok: false, reason: 'No job id was found in that URL; paste the job id itself.' };
  }
  if (!ID.test(text)) {
    return { ok: false, reason: `"${visible(text)}" is not a job id: ids are letters, digits, "-", "_", "." and ":", with no spaces or slashes.` };
  }
  return { ok: true, id: text, fromUrl: false };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The text with control characters shown as escapes, so a message never carries them raw. */
export function visible(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).slice(0, 120);
}
