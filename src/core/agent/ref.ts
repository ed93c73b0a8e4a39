/**
 * A branch name from the server, checked before it reaches git. Refs from the API are untrusted
 * input: one starting with `-` would be read as an option, `..` is a range, and git itself
 * refuses control characters, spaces and `~^:?*[\`. The rules are git's own
 * (`git check-ref-format --branch`), stricter where a branch name never needs more.
 */
import * as l10n from '@vscode/l10n';

export type RefCheck = { ok: true; ref: string } | { ok: false; reason: string };

export function checkBranchRef(ref: string | null | undefined): RefCheck {
  if (typeof ref !== 'string' || ref === '') return { ok: false, reason: l10n.t('the job names no branch') };
  if (ref.length > 255) return { ok: false, reason: l10n.t('the branch name is too long') };
  if (ref.startsWith('-')) return { ok: false, reason: l10n.t('a branch name may not start with "-"') };
  if (ref.includes('..')) return { ok: false, reason: l10n.t('a branch name may not contain ".."') };
  if (/[\s\p{Cc}\p{Cf}]/u.test(ref)) return { ok: false, reason: l10n.t('a branch name may not contain spaces or control characters') };
  if (/[~^:?*[\\]/.test(ref)) return { ok: false, reason: l10n.t('a branch name may not contain ~ ^ : ? * [ or \\') };
  if (ref.includes('@{') || ref === '@') return { ok: false, reason: l10n.t('a branch name may not contain "@{" or be "@"') };
  if (ref.startsWith('/') || ref.endsWith('/') || ref.includes('//')) return { ok: false, reason: l10n.t('a branch name may not start or end with "/" or hold an empty part') };
  if (ref.endsWith('.') || ref.split('/').some((part) => part.startsWith('.') || part.endsWith('.lock'))) {
    return { ok: false, reason: l10n.t('a part of a branch name may not start with "." or end with ".lock" or "."') };
  }
  if (/^(refs|HEAD|FETCH_HEAD|ORIG_HEAD)(\/|$)/.test(ref)) return { ok: false, reason: l10n.t('the job names a ref, not a branch') };
  return { ok: true, ref };
}
