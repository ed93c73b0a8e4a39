/**
 * Check Out Agent Branch on an agent job's row: the job's branch fetched and checked out through
 * the Git extension (a local branch tracking the remote one, made when missing). With
 * uncommitted changes, it asks first; git then carries them over or stops: nothing is discarded.
 */
import * as vscode from 'vscode';
import { codeArgs } from '../commandKit/fromCode';
import { forMessage } from '../../core/untrusted';
import { command, type Deps } from '../commandKit/commandToolkit';
import type { GitErrorLike, Repository } from '../git/api';
import { fetchAgentBranch, gitReason, stopped, type Stopped } from '../git/agentBranch';

export interface CheckedOut {
  outcome: 'checkedOut' | 'alreadyOn';
  branch: string;
  /** How many uncommitted changes there were (and were asked about). */
  uncommitted: number;
}

function uncommitted(repository: Repository): number {
  const s = repository.state;
  return s.workingTreeChanges.length + s.indexChanges.length + s.mergeChanges.length + (s.untrackedChanges?.length ?? 0);
}

function wouldOverwrite(error: unknown): boolean {
  const e = error as GitErrorLike;
  return e?.gitErrorCode === 'DirtyWorkTree' || /would be overwritten|commit your changes or stash them/i.test(`${e?.stderr ?? ''} ${e?.message ?? ''}`);
}

/** `confirmed`: the answer to the question about uncommitted changes, given in advance by code (tests, automation). */
async function checkOut(deps: Deps, node: unknown, confirmed?: boolean): Promise<CheckedOut | Stopped> {
  const found = await deps.ui.progress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Fetching the agent\'s branch…') }, () => fetchAgentBranch(deps, node));
  if (stopped(found)) return found;
  const { repository, branch, tracking } = found;
  await repository.status();
  const pending = uncommitted(repository);
  if (repository.state.HEAD?.name === branch) {
    void deps.messages.info(vscode.l10n.t('The branch {0} is already checked out.', forMessage(branch)));
    return { outcome: 'alreadyOn', branch, uncommitted: pending };
  }
  if (pending > 0) {
    let go = confirmed;
    if (go === undefined) {
      const checkOutAnyway = vscode.l10n.t('Check Out');
      const choice = await deps.messages.ask(
        'warning',
        vscode.l10n.t('There are {0} uncommitted changes in this repository. Check out {1} anyway?', pending, forMessage(branch)),
        { modal: true, detail: vscode.l10n.t('Git carries the changes over to the branch when the agent did not change the same files; otherwise it stops and changes nothing. Nothing is discarded.') },
        checkOutAnyway,
      );
      go = choice === checkOutAnyway;
    }
    if (!go) return { outcome: 'cancelled' };
  }
  const local = await repository.getCommit(`refs/heads/${branch}`).then(
    () => true,
    () => false,
  );
  try {
    if (local) await repository.checkout(branch);
    else {
      await repository.createBranch(branch, true, tracking);
      await repository.setBranchUpstream(branch, tracking);
    }
  } catch (error) {
    if (wouldOverwrite(error)) {
      void deps.messages.warn(vscode.l10n.t('Git did not check out {0}: your uncommitted changes touch files the agent changed. Nothing was changed; commit or stash them, then try again.', forMessage(branch)));
      return { outcome: 'blocked' };
    }
    throw new Error(vscode.l10n.t('Checking out {0} failed: {1}', forMessage(branch), gitReason(error)), { cause: error });
  }
  deps.log.info(`Checked out ${branch} (${local ? 'existing local branch' : `new, tracking ${tracking}`}) for agent job ${found.job.id}`);
  await repository.status().catch(() => undefined);
  const behind = local ? (repository.state.HEAD?.behind ?? 0) : 0;
  void deps.messages.info(
    behind > 0
      ? vscode.l10n.t('Checked out {0}, {1} commits behind {2}: pull to get the agent\'s latest changes.', forMessage(branch), behind, forMessage(tracking))
      : vscode.l10n.t('Checked out {0}, tracking {1}.', forMessage(branch), forMessage(tracking)),
  );
  return { outcome: 'checkedOut', branch, uncommitted: pending };
}

export function register(deps: Deps): vscode.Disposable[] {
  // The answer given in advance counts only from code (fromCode({ confirmed })): a link must not skip the question.
  return [command('docsAdmin.agentJob.checkOutBranch', deps, (node: unknown, options?: { confirmed?: boolean }) => checkOut(deps, node, codeArgs(options)?.confirmed))];
}
