/**
 * What an action tool asks before it runs (the editor's `prepareInvocation` confirmation): a
 * title, what will change, in which environment and project, and the text that would be sent
 * (the model's prompt or branch, shown as text, never as markup). Read tools ask nothing. Pure.
 */
import * as l10n from '@vscode/l10n';
import type { ToolName } from './definitions';
import type { Where } from './results';

export interface Confirmation {
  title: string;
  /** What will change, and where. */
  message: string;
  /** What would be sent, shown as plain text under the message. */
  quoted?: { label: string; text: string };
}

export function confirmationOf(name: ToolName, checked: { prompt?: string; jobId?: string; branch?: string }, where: Where): Confirmation | undefined {
  const env = where.environment;
  const project = where.projectId;
  switch (name) {
    case 'docsAdmin_askAgent':
      return {
        title: l10n.t('Start a docs agent job in "{0}"?', env),
        message: l10n.t(
          'The docs agent of project "{0}" (environment "{1}") gets the prompt below as a new job: it edits the docs repository and opens a pull request. The live site does not change until the pull request is merged and deployed. It counts against the project\'s 100 agent requests per hour.',
          project,
          env,
        ),
        quoted: { label: l10n.t('Prompt'), text: checked.prompt ?? '' },
      };
    case 'docsAdmin_sendFollowUp':
      return {
        title: l10n.t('Send a follow-up to agent job {0}?', checked.jobId ?? ''),
        message: l10n.t(
          'Agent job {0} of project "{1}" (environment "{2}") gets the follow-up below: it becomes active again and updates its pull request. The live site does not change.',
          checked.jobId ?? '',
          project,
          env,
        ),
        quoted: { label: l10n.t('Follow-up'), text: checked.prompt ?? '' },
      };
    case 'docsAdmin_previewBranch':
      return {
        title: l10n.t('Deploy a preview of {0}?', checked.branch ?? ''),
        message: l10n.t(
          'Branch {0} of project "{1}" (environment "{2}") is deployed as a preview site, at its own URL; a preview of the same branch is replaced. The live site does not change.',
          checked.branch ?? '',
          project,
          env,
        ),
      };
    case 'docsAdmin_deploy':
      return {
        title: l10n.t('Deploy the docs of "{0}" to production?', project),
        message: l10n.t(
          'The deployment branch of project "{0}" (environment "{1}") is deployed to the live docs site: readers see it once the deployment succeeds.',
          project,
          env,
        ),
      };
    default:
      return undefined;
  }
}
