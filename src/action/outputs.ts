/**
 * What the action hands the rest of a workflow. An output is read by later steps, often as
 * `${{ steps.docs.outputs.job-id }}` written straight into a `run:` script, where the runner
 * pastes the value as text before the shell reads it: a value holding `$(…)` or a quote would
 * run. So a value from the server is checked before it becomes an output: a job id or a
 * deployment's status id is an id (core/api/jobId.ts), a link (`bundle-url`, `pr-link`,
 * `preview-url`) is `https:`, written as the URL parser writes it (`new URL(x).href`) and free of
 * anything a shell reads (quotes, `$`, backticks, `;`, `|`, `&`, redirections, parentheses,
 * braces, blanks); `status` is one of the deployment statuses the platform documents;
 * `expires-at` is an ISO 8601 time. A value that fails is not set, and a warning says why.
 */
import * as l10n from '@vscode/l10n';
import { isJobId } from '../core/api/jobId';
import { DEPLOYMENT_STATUSES } from '../core/deployments/deploymentTypes';
import type { OutputName } from './spec';

/** Characters a shell gives a meaning to, with white space and control characters. */
// eslint-disable-next-line no-control-regex
const SHELL_SYNTAX = /[\s\u0000-\u001f\u007f`$"'\\;|&<>(){}!]/;
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/;

export type CheckedOutput = { ok: true; value: string } | { ok: false; reason: string };

function link(value: string): CheckedOutput {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, reason: l10n.t('it is not a link') };
  }
  if (url.protocol !== 'https:') return { ok: false, reason: l10n.t('it is not an https: link') };
  if (url.username !== '' || url.password !== '') return { ok: false, reason: l10n.t('it carries a user name or password') };
  // The value as the server gave it, and as written out: the parser would encode a backtick or a quote, but a link holding one was made to attack.
  if (SHELL_SYNTAX.test(value) || SHELL_SYNTAX.test(url.href)) return { ok: false, reason: l10n.t('it holds characters a shell would read ($, quotes, backticks, ;, |, &, <, >, parentheses, braces or blanks)') };
  return { ok: true, value: url.href };
}

/** The value to set for an output, or why it is not set. */
export function checkOutput(name: OutputName, value: string): CheckedOutput {
  switch (name) {
    case 'job-id':
    case 'status-id':
      return isJobId(value) ? { ok: true, value } : { ok: false, reason: l10n.t('it is not an id (letters, digits, "-", "_", "." and ":")') };
    case 'status':
      return (DEPLOYMENT_STATUSES as readonly string[]).includes(value) ? { ok: true, value } : { ok: false, reason: l10n.t('it is not a deployment status (queued, in_progress, success or failure)') };
    case 'bundle-url':
    case 'pr-link':
    case 'preview-url':
      return link(value);
    case 'expires-at':
      return ISO_TIME.test(value) ? { ok: true, value } : { ok: false, reason: l10n.t('it is not an ISO 8601 time') };
  }
}
