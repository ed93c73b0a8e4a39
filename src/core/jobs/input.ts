/**
 * What a person types or pastes: an export domain, an agent job id or a URL holding one, the
 * admin key and the project id. Pure functions that say what was accepted, what was changed,
 * and why something was refused. Nothing that may be a key is ever repeated in a message.
 */
import * as l10n from '@vscode/l10n';
import { domainToASCII } from 'node:url';
import { isJobId } from '../api/jobId';
import { breakLinks } from '../untrusted';

/** Invisible characters a paste carries at its edges: BOM, zero-width spaces and joiners, word joiner. */
const EDGE_INVISIBLES = /^[\s\u200b-\u200d\u2060\ufeff]+|[\s\u200b-\u200d\u2060\ufeff]+$/g;
/** C0 and C1 control characters (a tab or line break among them). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** What was pasted, without the blanks and invisible characters around it. */
export function cleanPasted(input: string): string {
  return input.replace(EDGE_INVISIBLES, '');
}

export type DomainResult =
  | { ok: true; domain: string; note?: string }
  | { ok: false; reason: string };

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A bare hostname for a static export: a pasted scheme or path is stripped with a note. */
export function parseExportDomain(input: string): DomainResult {
  let text = cleanPasted(input);
  if (text === '') return { ok: false, reason: l10n.t('Enter the domain of the docs site, such as docs.example.com.') };
  if (CONTROL.test(text)) return { ok: false, reason: l10n.t('"{0}" holds a control character (a line break, tab or the like); type the domain again, such as docs.example.com.', visible(text)) };
  const notes: string[] = [];
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(text);
  if (scheme) {
    notes.push(l10n.t('removed "{0}"', scheme[0]));
    text = text.slice(scheme[0].length);
  }
  const cut = text.search(/[/?#]/);
  if (cut >= 0) {
    // A query string or fragment may hold a token: it is not repeated.
    notes.push(l10n.t('removed "{0}"', visible(text.slice(cut).replace(/([?#]).*$/s, '$1…'))));
    text = text.slice(0, cut);
  }
  if (text.includes('@')) return { ok: false, reason: l10n.t('A domain has no user name: enter only the host name, such as docs.example.com.') };
  const port = /:\d*$/.exec(text);
  if (port) {
    notes.push(l10n.t('removed the port "{0}"', port[0]));
    text = text.slice(0, port.index);
  }
  if (/\s/.test(text)) return { ok: false, reason: l10n.t('"{0}" holds spaces; enter a host name such as docs.example.com.', visible(text)) };
  if (/[^\x21-\x7e]/.test(text)) {
    // An international name goes to the server as DNS knows it (punycode), and the note shows it.
    const ascii = domainToASCII(text);
    if (ascii === '' || /[^\x21-\x7e]/.test(ascii)) {
      return { ok: false, reason: l10n.t('"{0}" holds characters a host name cannot have; enter a host name such as docs.example.com.', visible(text)) };
    }
    notes.push(l10n.t('"{0}" written as DNS knows it', visible(text)));
    text = ascii;
  }
  const domain = text.toLowerCase().replace(/\.$/, '');
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) {
    return { ok: false, reason: l10n.t('"{0}" is not a host name; enter one such as docs.example.com.', visible(domain)) };
  }
  if (/^\d+$/.test(labels[labels.length - 1] ?? '')) {
    return { ok: false, reason: l10n.t('"{0}" is an IP address, not the domain of a docs site; enter one such as docs.example.com.', visible(domain)) };
  }
  if (notes.length === 0) return { ok: true, domain };
  const changes = notes.join(l10n.t({ message: ', ', comment: ['Between two changes made to a pasted domain, such as: removed "https://", removed the port ":8080".'] }));
  return { ok: true, domain, note: l10n.t('Using "{0}" ({1}).', domain, changes) };
}

export type JobIdResult = { ok: true; id: string; fromUrl: boolean } | { ok: false; reason: string };


/**
 * An agent job id, typed or inside a pasted URL (`.../job/<id>`, `...?jobId=<id>`, or the URL's
 * last path segment).
 */
export function parseJobId(input: string, secrets: readonly string[] = []): JobIdResult {
  const text = cleanPasted(input);
  if (text === '') return { ok: false, reason: l10n.t('Enter a job id, or paste a URL that contains one.') };
  // Sent as a path segment, a key would land in the server's access logs: never.
  if (secrets.some((secret) => secret.length >= 8 && text.includes(secret))) return { ok: false, reason: l10n.t('That is the admin key, not a job id; it was not sent anywhere. Paste the job id.') };
  if (CONTROL.test(text)) return { ok: false, reason: l10n.t('"{0}" holds a control character (a line break, tab or the like); paste the job id again.', visible(text)) };
  if (/^https?:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return { ok: false, reason: l10n.t('That URL cannot be read; paste the job id itself.') };
    }
    const fromQuery = url.searchParams.get('jobId') ?? url.searchParams.get('job') ?? url.searchParams.get('id');
    const segments = url.pathname.split('/').filter((s) => s !== '').map(safeDecode);
    const jobIndex = segments.findIndex((s) => s === 'job' || s === 'jobs');
    const candidate = fromQuery ?? (jobIndex >= 0 ? segments[jobIndex + 1] : segments[segments.length - 1]);
    if (candidate !== undefined && isJobId(candidate)) return { ok: true, id: candidate, fromUrl: true };
    return { ok: false, reason: l10n.t('No job id was found in that URL; paste the job id itself.') };
  }
  if (!isJobId(text)) {
    return { ok: false, reason: l10n.t('"{0}" is not a job id: ids are letters, digits, "-", "_", "." and ":", with no spaces or slashes.', visible(text)) };
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

/**
 * Pasted text as a reason or a note repeats it: control and invisible formatting characters
 * (zero-width, bidirectional overrides, line separators) shown as escapes, and link syntax
 * broken (an input box's validation message and a notification render `[label](command:…)` as
 * a link that runs the command), so a message never carries either raw. It reads the same.
 */
export function visible(text: string): string {
  return breakLinks(text.replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`).slice(0, 120));
}

/** `empty`: nothing was entered (the CLI tells a missing key apart by it, never by the words). */
export type CredentialResult = { ok: true; value: string; note?: string } | { ok: false; reason: string; empty: boolean };

/**
 * A pasted admin key: trimmed (and a copied "Bearer " taken off), refused when it holds blanks,
 * line breaks or characters an HTTP header cannot carry, when it is a URL, or when it is a
 * project id this person uses (pasted in the wrong box). The key is never repeated.
 */
export function checkAdminKey(input: string, projectIds: readonly string[] = []): CredentialResult {
  let value = cleanPasted(input);
  let note: string | undefined;
  const bearer = /^(?:authorization:\s*)?bearer\s+/i.exec(value);
  if (bearer) {
    value = value.slice(bearer[0].length);
    note = l10n.t('Took off the "Bearer " copied with the key.');
  }
  if (value === '') return { ok: false, reason: l10n.t('Paste the admin key.'), empty: true };
  if (/[\s\u200b-\u200d\u2060\ufeff]/.test(value)) return { ok: false, reason: l10n.t('The key holds spaces or line breaks inside: copy it again from the API keys page (only the key, on one line).'), empty: false };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return { ok: false, reason: l10n.t("That is a URL, not a key: copy the key from the dashboard's API keys page."), empty: false };
  if (/[^\x21-\x7e]/.test(value)) return { ok: false, reason: l10n.t('The key holds characters a key cannot have (accented letters, symbols or invisible characters): copy it again from the API keys page.'), empty: false };
  if (projectIds.includes(value)) {
    return { ok: false, reason: l10n.t("That is the project id, not the admin key. Create a key on the dashboard's API keys page (organization settings) and paste it here; the project id goes in Docs Admin: Set Project ID."), empty: false };
  }
  return note === undefined ? { ok: true, value } : { ok: true, value, note };
}

/**
 * The admin key as it is sent (`checkAdminKey`'s cleaning: blanks, invisible characters and a
 * copied `Bearer ` or `Authorization: Bearer ` taken off), and every form of it to keep secret:
 * the key sent, and the value as given. Every mask, redaction and "that is the key, not an id"
 * guard takes `secrets`; the request, `key`. A value the check refuses is kept as given (the
 * request is refused later, saying why).
 */
export function adminKeyForms(input: string): { key: string; secrets: string[] } {
  const given = input.trim();
  const checked = checkAdminKey(input);
  const key = checked.ok ? checked.value : given;
  return { key, secrets: [...new Set([key, given])].filter((s) => s !== '') };
}

/**
 * A pasted project id: trimmed, one word, no URL, and never an admin key this person uses
 * (settings are plain text and may sync: a key there would leak). The value is not repeated.
 */
export function checkProjectId(input: string, keys: readonly string[] = []): CredentialResult {
  const value = cleanPasted(input);
  if (value === '') return { ok: false, reason: l10n.t("Enter the project id from the dashboard's API keys page."), empty: true };
  if (keys.some((key) => value === key || (key.length >= 8 && value.includes(key)))) {
    return { ok: false, reason: l10n.t("That is the admin key, not the project id; it was not saved (settings are plain text). The project id is on the dashboard's API keys page, beside the key."), empty: false };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return { ok: false, reason: l10n.t('That is a URL: enter the project id, and the base URL with Docs Admin: Set Base URL.'), empty: false };
  if (/[\s\u200b-\u200d\u2060\ufeff]/.test(value)) return { ok: false, reason: l10n.t("A project id has no spaces or line breaks: copy it again from the dashboard's API keys page."), empty: false };
  if (/[^\x21-\x7e]|[/?#\\]/.test(value) || value.length > 200) {
    return { ok: false, reason: l10n.t("A project id is one word of letters, digits and punctuation such as - and _, with no slashes: copy it again from the dashboard's API keys page."), empty: false };
  }
  return { ok: true, value };
}

/** An environment's name: shown in the views and used in storage keys. */
export function checkEnvironmentName(input: string): string | undefined {
  const name = cleanPasted(input);
  if (name === '') return l10n.t('Enter a name, such as staging.');
  if (/[\p{Cc}\p{Cf}]/u.test(name)) return l10n.t('A name cannot hold control or invisible characters.');
  if (name.length > 60) return l10n.t('Keep the name under 60 characters.');
  return undefined;
}
