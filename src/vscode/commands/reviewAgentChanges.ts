/**
 * Review Changes on an agent job's row: its branch fetched through the Git extension, diffed
 * from the merge base with the remote's default branch, every changed file (added, deleted and
 * renamed included) in the multi-file diff editor, titled with the job. Run again (after a
 * follow-up), it fetches again and shows the new state in place of the old.
 */
import * as vscode from 'vscode';
import { reviewTitle, sides, type ChangeKind } from '../../core/agent/review';
import { forMessage } from '../../core/untrusted';
import { command, type Deps } from '../commandKit/commandToolkit';
import { Status, type Change } from '../git/api';
import { fetchAgentBranch, gitReason, stopped, type AgentBranch, type Stopped } from '../git/agentBranch';

export interface ReviewOpened {
  outcome: 'opened' | 'noChanges';
  title: string;
  /** Repository-relative paths and how each changed. */
  files: { path: string; kind: ChangeKind }[];
  base: string;
  head: string;
}

function kindOf(status: number): ChangeKind {
  switch (status) {
    case Status.INDEX_ADDED:
    case Status.UNTRACKED:
    case Status.INTENT_TO_ADD:
      return 'added';
    case Status.INDEX_DELETED:
    case Status.DELETED:
      return 'deleted';
    case Status.INDEX_RENAMED:
    case Status.INTENT_TO_RENAME:
      return 'renamed';
    default:
      return 'modified';
  }
}

/**
 * The remote's default branch, fetched afresh (a stale one would put its own newer commits in
 * the diff): `<remote>/HEAD`, else `main` or `master`.
 */
async function defaultBranch(found: AgentBranch, log: Deps['log']): Promise<string | undefined> {
  const { repository, remote } = found;
  await repository.fetch({ remote: remote.name }).catch((error: unknown) => log.warn(`Fetching ${remote.name} for its default branch failed (the last fetched one is used): ${gitReason(error)}`));
  for (const candidate of ['HEAD', 'main', 'master']) {
    const ref = `refs/remotes/${remote.name}/${candidate}`;
    const ok = await repository.getCommit(ref).then(
      () => true,
      () => false,
    );
    if (ok) return ref;
  }
  return undefined;
}

/** Closes the editor an earlier review of the same job left open (the new one replaces it). */
async function closeEarlier(title: string): Promise<void> {
  // The multi-file diff editor's tab reads "<title> (3 files)"; its input is not one the API names.
  const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => (tab.label === title || tab.label.startsWith(`${title} (`)) && tab.input === undefined);
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
}

async function review(deps: Deps, node: unknown): Promise<ReviewOpened | Stopped> {
  const found = await deps.ui.progress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Fetching the agent\'s branch…') }, () => fetchAgentBranch(deps, node));
  if (stopped(found)) return found;
  const { job, branch, repository, head } = found;
  const base = await defaultBranch(found, deps.log);
  if (base === undefined) {
    throw new Error(vscode.l10n.t('The default branch of {0} is not known here (no {1}/HEAD, main or master): fetch it, then try again.', forMessage(found.remote.name), forMessage(found.remote.name)));
  }
  const mergeBase = await repository.getMergeBase(base, head);
  if (mergeBase === undefined || mergeBase === '') throw new Error(vscode.l10n.t('The branch {0} shares no history with {1}.', forMessage(branch), base.replace(/^refs\/remotes\//, '')));
  let changes: Change[];
  try {
    changes = await repository.diffBetween(mergeBase, head);
  } catch (error) {
    throw new Error(vscode.l10n.t('Comparing {0} with its merge base failed: {1}', forMessage(branch), gitReason(error)), { cause: error });
  }
  const api = deps.git.api;
  if (api === undefined) return { outcome: 'gitUnavailable' };
  const title = reviewTitle(job);
  const root = repository.rootUri;
  const files = changes.map((change) => {
    const kind = kindOf(change.status);
    const modified = change.renameUri ?? change.uri;
    const original = kind === 'renamed' ? change.originalUri : kind === 'added' ? modified : change.originalUri;
    return { kind, original, modified };
  });
  const relative = (uri: vscode.Uri) => uri.path.slice(root.path.length).replace(/^\/+/, '');
  const result = { title, base: mergeBase, head, files: files.map((f) => ({ path: relative(f.kind === 'deleted' ? f.original : f.modified), kind: f.kind })) };
  deps.log.info(`Review of agent job ${job.id}: ${files.length} changed files between ${mergeBase} and ${head} (${found.tracking})`);
  if (files.length === 0) {
    void deps.messages.info(vscode.l10n.t('The branch {0} changes no file compared with {1}.', forMessage(branch), base.replace(/^refs\/remotes\//, '')));
    return { outcome: 'noChanges', ...result };
  }
  const resources = files.map((f) => {
    const has = sides(f.kind);
    return [f.kind === 'deleted' ? f.original : f.modified, has.original ? api.toGitUri(f.original, mergeBase) : undefined, has.modified ? api.toGitUri(f.modified, head) : undefined] as const;
  });
  await closeEarlier(title);
  await vscode.commands.executeCommand('vscode.changes', title, resources);
  return { outcome: 'opened', ...result };
}

export function register(deps: Deps): vscode.Disposable[] {
  return [command('docsAdmin.agentJob.reviewChanges', deps, (node: unknown) => review(deps, node))];
}
