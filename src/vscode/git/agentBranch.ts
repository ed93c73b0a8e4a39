/**
 * What both review commands start with: the agent job of a row, its branch (checked), the open
 * repository whose remote is the job's, and the branch fetched from that remote through the Git
 * extension. Says why, with a way on, when there is no such repository or the branch is gone.
 */
import * as vscode from 'vscode';
import { checkBranchRef } from '../../core/agent/ref';
import { repositoryName } from '../../core/jobs/jobLabels';
import type { AgentJob } from '../../core/api/apiTypes';
import { forMessage } from '../../core/untrusted';
import { isJobNode, requireService, type Deps } from '../commandKit/commandToolkit';
import type { GitErrorLike, Remote, Repository } from './api';

export interface AgentBranch {
  job: AgentJob;
  branch: string;
  repository: Repository;
  remote: Remote;
  /** The fetched tip of the branch (a commit hash). */
  head: string;
  /** `<remote>/<branch>`, the remote-tracking branch. */
  tracking: string;
}

/** What a command answers when it stopped with a message instead (tests read it). */
export type Stopped = { outcome: 'noRepository' | 'branchGone' | 'gitUnavailable' | 'cancelled' | 'blocked' };

/** A row's agent job, read. */
export function agentJobOf(deps: Pick<Deps, 'session' | 'nodes'>, node: unknown): AgentJob {
  if (!isJobNode(deps, node)) throw new Error(vscode.l10n.t('Pick an agent job in the Docs Admin view.'));
  const job = requireService(deps).get(node.key);
  if (job?.kind !== 'agent' || job.snapshot === undefined) throw new Error(vscode.l10n.t('That job has not been read yet.'));
  return job.snapshot;
}

/** Offers the job's pull request (when there is one) and its repository in the browser. */
function offerLinks(deps: Pick<Deps, 'messages'>, message: string, job: AgentJob, node: unknown): void {
  const openPr = vscode.l10n.t('Open Pull Request');
  const openRepo = vscode.l10n.t('Open Repository');
  const actions = job.prLink === null ? [openRepo] : [openPr, openRepo];
  void deps.messages.warn(message, ...actions).then((choice) => {
    if (choice === openPr) void vscode.commands.executeCommand('docsAdmin.agentJob.openPullRequest', node);
    if (choice === openRepo) void vscode.commands.executeCommand('docsAdmin.agentJob.openRepository', node);
  });
}

function isMissingRemoteRef(error: unknown): boolean {
  const e = error as GitErrorLike;
  return e?.gitErrorCode === 'NoRemoteReference' || /couldn't find remote ref/i.test(`${e?.stderr ?? ''} ${e?.message ?? ''}`);
}

/** The first line git wrote, for a message (made safe to show). */
export function gitReason(error: unknown): string {
  const e = error as GitErrorLike;
  const text = (e?.stderr ?? '').trim() || (e?.message ?? String(error));
  return forMessage(text.split('\n').find((line) => line.trim() !== '')?.trim() ?? text);
}

/** The job's branch, fetched into the matching open repository; or why not (shown already). */
export async function fetchAgentBranch(deps: Pick<Deps, 'session' | 'git' | 'log' | 'messages' | 'nodes'>, node: unknown): Promise<AgentBranch | Stopped> {
  const job = agentJobOf(deps, node);
  if (deps.git.api === undefined) {
    void deps.messages.warn(vscode.l10n.t('The Git extension is not available (it is disabled, or "git.enabled" is off): enable it to review an agent\'s changes in the editor.'));
    return { outcome: 'gitUnavailable' };
  }
  const check = checkBranchRef(job.source.ref);
  if (!check.ok) {
    deps.log.warn(`Agent job ${job.id}: refused its branch ${JSON.stringify(job.source.ref)}: ${check.reason}`);
    throw new Error(vscode.l10n.t('The branch of agent job {0} was not used: {1}.', forMessage(job.id), check.reason));
  }
  const branch = check.ref;
  const repositoryUrl = job.source.repository;
  if (repositoryUrl === undefined) {
    // Nothing to match a remote against: the server named no repository.
    const openPr = vscode.l10n.t('Open Pull Request');
    const message = vscode.l10n.t('The server has not said which repository agent job {0} works on, so no open repository can be matched to its branch {1}. Refresh the job, or open its pull request.', forMessage(job.id), forMessage(branch));
    void deps.messages.warn(message, ...(job.prLink === null ? [] : [openPr])).then((choice) => {
      if (choice === openPr) void vscode.commands.executeCommand('docsAdmin.agentJob.openPullRequest', node);
    });
    return { outcome: 'noRepository' };
  }
  const match = deps.git.find(repositoryUrl);
  if (match === undefined) {
    offerLinks(deps, vscode.l10n.t('No open repository has {0} as a remote. Open a clone of it to review the agent\'s branch {1} here.', forMessage(repositoryUrl), forMessage(branch)), job, node);
    return { outcome: 'noRepository' };
  }
  const { repository, remote } = match;
  try {
    await repository.fetch({ remote: remote.name, ref: branch });
  } catch (error) {
    if (isMissingRemoteRef(error)) {
      deps.log.info(`Agent job ${job.id}: the branch ${branch} is gone from ${remote.name}`);
      offerLinks(deps, vscode.l10n.t('The branch {0} no longer exists on {1} ({2}): it may have been merged and deleted.', forMessage(branch), forMessage(remote.name), forMessage(repositoryName(repositoryUrl))), job, node);
      return { outcome: 'branchGone' };
    }
    throw new Error(vscode.l10n.t('Fetching {0} from {1} failed: {2}', forMessage(branch), forMessage(remote.name), gitReason(error)), { cause: error });
  }
  const tracking = `${remote.name}/${branch}`;
  // The remote-tracking branch, or (a remote with a narrower fetch refspec) what was just fetched.
  const head = (await repository.getCommit(`refs/remotes/${tracking}`).catch(() => repository.getCommit('FETCH_HEAD'))).hash;
  return { job, branch, repository, remote, head, tracking };
}

export function stopped(value: AgentBranch | Stopped): value is Stopped {
  return 'outcome' in value;
}
