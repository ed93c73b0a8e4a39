/**
 * Preview Branch…: a quick pick of the current branch of each open repository (the Git
 * extension), the branches of the tracked agent jobs on those repositories, or a name typed in;
 * the branch is checked (git's rules) before anything is sent. Paced (5 previews a minute) and
 * sent once per branch.
 */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { findRemote } from '../../core/agent/remote';
import { parsePreviewBranch } from '../../core/deployments/input';
import { repositoryName } from '../../core/jobs/present';
import { command, optionsFromCode, requireService, type Deps } from '../commandToolkit';
import { startPreview } from '../deployments';

const ID = 'docsAdmin.deployment.preview';

type BranchItem = vscode.QuickPickItem & { branch: string };

/** Server or git text in a quick pick: no icon syntax. */
const plain = (text: string) => text.replace(/\$\(/g, '\\$(');

/**
 * The branches to offer: the open repositories' current ones, and the tracked agent jobs' branches
 * of those repositories (by their remotes): a preview deploys the project's repository, so an
 * agent branch of another one (`agent/api-ref` of `acme/api-docs`) is not offered. With no open
 * repository that has a remote, which repository is the project's is not known: each agent branch
 * is offered with its repository named.
 */
function knownBranches(deps: Deps): BranchItem[] {
  const items = new Map<string, BranchItem>();
  const repositories = deps.git.api?.repositories ?? [];
  for (const repository of repositories) {
    const name = repository.state.HEAD?.name;
    if (name === undefined || name === '' || items.has(name)) continue;
    items.set(name, { branch: name, label: `$(git-branch) ${plain(name)}`, description: vscode.l10n.t('current branch of {0}', plain(basename(repository.rootUri.fsPath))) });
  }
  const remotes = repositories.flatMap((repository) => repository.state.remotes);
  for (const job of requireService(deps).list()) {
    const ref = job.kind === 'agent' ? job.snapshot?.source.ref : undefined;
    if (job.kind !== 'agent' || ref === undefined || ref === null || ref === '' || items.has(ref)) continue;
    const repository = job.snapshot?.source.repository;
    if (remotes.length > 0 && (repository === undefined || findRemote(repository, remotes) === undefined)) continue;
    items.set(ref, { branch: ref, label: `$(sparkle) ${plain(ref)}`, description: vscode.l10n.t('agent job on {0}', plain(repositoryName(repository ?? ''))) });
  }
  return [...items.values()];
}

/** The branch picked or typed (checked); undefined when dismissed. */
async function pickBranch(deps: Deps): Promise<string | undefined> {
  const known = knownBranches(deps);
  const pick = deps.ui.quickPickBox<BranchItem>();
  pick.title = vscode.l10n.t('Docs Admin: preview a branch of "{0}"', deps.session.environment.name);
  pick.placeholder = vscode.l10n.t('Pick a branch, or type its name');
  pick.ignoreFocusOut = true;
  pick.items = known;
  const typed = (value: string): BranchItem[] => {
    const text = value.trim();
    if (text === '' || known.some((k) => k.branch === text)) return known;
    const check = parsePreviewBranch(text);
    return [{ branch: text, label: plain(text), description: check.ok ? vscode.l10n.t('preview this branch') : check.reason, alwaysShow: true }, ...known];
  };
  return new Promise<string | undefined>((resolve) => {
    const subscriptions = [
      pick.onDidChangeValue((value) => (pick.items = typed(value))),
      pick.onDidAccept(() => {
        const chosen = pick.selectedItems[0]?.branch ?? pick.value.trim();
        if (!parsePreviewBranch(chosen).ok) return;
        resolve(chosen);
        pick.hide();
      }),
      pick.onDidHide(() => {
        resolve(undefined);
        for (const s of subscriptions) s.dispose();
        pick.dispose();
      }),
    ];
    pick.show();
  });
}

export function register(deps: Deps): vscode.Disposable[] {
  return [
    command(ID, deps, async (given?: { branch?: string }) => {
      const options = optionsFromCode(deps, given, ID);
      requireService(deps);
      const value = options.branch ?? (await pickBranch(deps));
      if (value === undefined) return undefined;
      const branch = parsePreviewBranch(value);
      if (!branch.ok) throw new Error(branch.reason);
      return (await startPreview(deps, branch.branch))?.id;
    }),
  ];
}
