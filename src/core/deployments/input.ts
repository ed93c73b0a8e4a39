/**
 * What a person types for deployments: a status id (or a pasted link holding one), a branch to
 * preview, an automation's id and the name they give it. Pure; nothing that may be a key is
 * ever repeated in a message.
 */
import * as l10n from '@vscode/l10n';
import { checkBranchRef } from '../agent/ref';
import { JOB_ID } from '../api/jobId';
import { cleanPasted, visible } from '../jobs/input';

export type IdResult = { ok: true; id: string } | { ok: false; reason: string };

/** The one id pattern (api/jobId.ts): a status id and an automation id are sent in paths. */
const ID = JOB_ID;

/** A status id, typed or inside a pasted link (`…/update-status/<id>`, `…?statusId=<id>`, or the link's last segment). */
export function parseStatusId(input: string, secrets: readonly string[] = []): IdResult {
  const text = cleanPasted(input);
  if (text === '') return { ok: false, reason: l10n.t('Enter the status id of a deployment, or paste a link that holds one.') };
  // Sent as a path segment, a key would land in the server's access logs: never.
  if (secrets.some((secret) => secret.length >= 8 && text.includes(secret))) return { ok: false, reason: l10n.t('That is the admin key, not a status id; it was not sent anywhere. Paste the status id.') };
  let candidate = text;
  if (/^https?:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return { ok: false, reason: l10n.t('That link cannot be read; paste the status id itself.') };
    }
    const segments = url.pathname.split('/').filter((s) => s !== '');
    candidate = url.searchParams.get('statusId') ?? segments[segments.length - 1] ?? '';
  }
  if (!ID.test(candidate)) return { ok: false, reason: l10n.t('"{0}" is not a status id: ids are letters, digits, "-", "_", "." and ":", with no spaces or slashes.', visible(candidate)) };
  return { ok: true, id: candidate };
}

/** An automation's id, as copied from its settings on the dashboard. */
export function parseAutomationId(input: string, secrets: readonly string[] = []): IdResult {
  const text = cleanPasted(input);
  if (text === '') return { ok: false, reason: l10n.t("Paste the automation's id, from its settings panel on the dashboard's Automations page.") };
  if (secrets.some((secret) => secret.length >= 8 && text.includes(secret))) return { ok: false, reason: l10n.t('That is the admin key, not an automation id; it was not sent anywhere.') };
  if (!ID.test(text)) return { ok: false, reason: l10n.t('"{0}" is not an automation id: ids are letters and digits, with no spaces or slashes.', visible(text)) };
  return { ok: true, id: text };
}

/** The name a person gives an automation (shown in the pick list). */
export function checkAutomationName(input: string): string | undefined {
  const name = cleanPasted(input);
  if (name === '') return l10n.t('Give the automation a name you will recognise, such as "Weekly link check".');
  if (/[\p{Cc}\p{Cf}]/u.test(name)) return l10n.t('A name cannot hold control or invisible characters.');
  if (name.length > 80) return l10n.t('Keep the name under 80 characters.');
  return undefined;
}

/** A branch to preview: git's rules for a branch name (checkBranchRef), blanks around it dropped. */
export function parsePreviewBranch(input: string): { ok: true; branch: string } | { ok: false; reason: string } {
  const text = cleanPasted(input);
  if (text === '') return { ok: false, reason: l10n.t('That branch cannot be previewed: the branch name is empty. Name the branch to deploy as a preview.') };
  const check = checkBranchRef(text);
  return check.ok ? { ok: true, branch: check.ref } : { ok: false, reason: l10n.t('That branch cannot be previewed: {0}.', check.reason) };
}
