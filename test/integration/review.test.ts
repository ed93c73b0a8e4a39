/**
 * Review Changes and Check Out Agent Branch with real git and the real Git extension: a bare
 * repository on disk plays the origin; the workspace's clone names it by the real-looking
 * https://github.com/acme/docs, which git's own `url.<path>.insteadOf` sends to the bare one.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { DocsAdminInternals } from '../../src/extension';
import type { ReviewOpened } from '../../src/vscode/commands/reviewAgentChanges';
import type { API, GitExtension } from '../../src/vscode/git/api';
import type { JobNode } from '../../src/vscode/tree/jobsTree';
import { Simulator } from '../simulator';
import { configure, fromCode, internals, waitFor } from './support';

const REMOTE = 'https://github.com/acme/docs';
const BRANCH = 'agent/update-docs';
const IDENTITY = { GIT_AUTHOR_NAME: 'Agent', GIT_AUTHOR_EMAIL: 'agent@acme.dev', GIT_COMMITTER_NAME: 'Agent', GIT_COMMITTER_EMAIL: 'agent@acme.dev' };

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: { ...process.env, ...IDENTITY }, encoding: 'utf8' }).trim();
}

function write(dir: string, path: string, text: string): void {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), text);
}

describe('reviewing an agent\'s branch through the Git extension (real git)', function () {
  this.timeout(90_000);
  let sim: Simulator;
  let api: DocsAdminInternals;
  let temp: string;
  let bare: string;
  /** The agent's side: pushes to the origin. */
  let agent: string;
  /** The docs author's clone, in the workspace. */
  let clone: string;
  let gitApi: API;
  /** The host's own "git.enabled" (false), put back afterwards: the Git extension then closes the clone. */
  let gitEnabled: boolean | undefined;

  const row = (id: string) => api.agentTree.getChildren().find((n) => n.key.endsWith(`:${id}`));
  const description = (id: string) => {
    const node = row(id);
    return node === undefined ? undefined : String(api.agentTree.getTreeItem(node).description);
  };
  const track = async (id: string, source: { repository: string; ref: string | null }) => {
    sim.addAgentJob({ id, ...source, durationMs: 1 });
    await vscode.commands.executeCommand('docsAdmin.agentJob.track', fromCode({ value: id }));
    await waitFor(`${id} read`, () => (description(id) ?? '').startsWith('pull request opened'));
    return row(id) as JobNode;
  };
  const head = () => git(clone, 'rev-parse', '--abbrev-ref', 'HEAD');

  before(async () => {
    temp = mkdtempSync(join(tmpdir(), 'docs-admin-review-it-'));
    bare = join(temp, 'origin.git');
    agent = join(temp, 'agent');
    git(temp, 'init', '-q', '--bare', '-b', 'main', bare);
    git(temp, 'init', '-q', '-b', 'main', agent);
    write(agent, 'README.md', '# Acme docs\n');
    write(agent, 'docs/changed.md', '# Changed\n\nThe old text.\n');
    write(agent, 'docs/deleted.md', '# Deleted\n\nThis page goes away.\n');
    git(agent, 'add', '-A');
    git(agent, 'commit', '-q', '-m', 'The docs');
    git(agent, 'remote', 'add', 'origin', bare);
    git(agent, 'push', '-q', 'origin', 'main');
    git(agent, 'checkout', '-q', '-b', BRANCH);
    write(agent, 'docs/changed.md', '# Changed\n\nThe agent\'s text.\n');
    write(agent, 'docs/added.md', '# Added\n\nA new page.\n');
    git(agent, 'rm', '-q', 'docs/deleted.md');
    git(agent, 'add', '-A');
    git(agent, 'commit', '-q', '-m', 'Update the docs');
    git(agent, 'push', '-q', 'origin', BRANCH);

    gitEnabled = vscode.workspace.getConfiguration('git').inspect<boolean>('enabled')?.globalValue;
    sim = await Simulator.start({ timeScale: 1_000 });
    api = await internals();
    await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'default' }));
    await configure({ baseUrl: sim.baseUrl, projectId: sim.projectId, environments: [], 'polling.minIntervalSeconds': 1, 'polling.maxIntervalSeconds': 5 });
    assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: sim.key })), true);
    await waitFor('the ok state', () => api.session.state === 'ok');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('docsAdmin.key.clear', fromCode({ confirmed: true }));
    await configure({ baseUrl: undefined, projectId: undefined, environments: undefined, 'polling.minIntervalSeconds': undefined, 'polling.maxIntervalSeconds': undefined });
    await vscode.workspace.getConfiguration('git').update('enabled', gitEnabled, vscode.ConfigurationTarget.Global);
    if (gitApi !== undefined) await waitFor('the Git extension to close the clone', () => !gitApi.repositories.some((r) => r.rootUri.fsPath === clone));
    await sim.stop();
    rmSync(temp, { recursive: true, force: true });
    // The clone goes with the test host's workspace (removed now, the Git extension would look
    // for the repository in a folder that is gone).
  });

  it('with the Git extension disabled, the commands are unavailable and say why; the rest works', async () => {
    // The test host starts with "git.enabled": false.
    const node = await track('review-early', { repository: REMOTE, ref: BRANCH });
    assert.equal(api.git.available, false);
    assert.deepEqual(await vscode.commands.executeCommand('docsAdmin.agentJob.reviewChanges', node), { outcome: 'gitUnavailable' });
  });

  it('matches the job to the workspace\'s repository, opened later, by its remote (ssh or https, any case)', async () => {
    assert.ok(vscode.extensions.getExtension('vscode.git'), 'code-server ships the built-in Git extension');
    await vscode.workspace.getConfiguration('git').update('enabled', true, vscode.ConfigurationTarget.Global);
    await waitFor('the Git extension', () => api.git.available, 20_000);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(folder, 'the test window has a workspace folder');
    const ssh = await track('review-ssh', { repository: 'git@github.com:ACME/Docs.git', ref: BRANCH });
    const elsewhere = await track('review-elsewhere', { repository: 'https://github.com/acme/website', ref: BRANCH });
    assert.doesNotMatch(description('review-early') ?? '', /in acme-docs/, 'no repository is open yet');

    clone = join(folder, 'acme-docs');
    git(folder, 'init', '-q', '-b', 'main', clone);
    git(clone, 'remote', 'add', 'origin', REMOTE);
    git(clone, 'config', `url.${bare}.insteadOf`, REMOTE);
    git(clone, 'fetch', '-q', 'origin');
    git(clone, 'reset', '-q', '--hard', 'origin/main');
    git(clone, 'branch', '-q', '--set-upstream-to=origin/main');
    const extension = vscode.extensions.getExtension<GitExtension>('vscode.git');
    gitApi = (extension?.isActive === true ? extension.exports : await extension!.activate()).getAPI(1);
    assert.ok(await gitApi.openRepository(vscode.Uri.file(clone)), 'the Git extension opened the clone');

    await waitFor('the rows to name the repository', () => /· in acme-docs$/.test(description('review-early') ?? ''));
    assert.match(api.agentTree.getTreeItem(ssh).description as string, /· in acme-docs$/);
    assert.doesNotMatch(api.agentTree.getTreeItem(elsewhere).description as string, /in acme-docs/);
  });

  it('Preview Branch… offers the branches of the project\'s repository only: an agent branch of another repository is not offered (issue 35)', async () => {
    await track('preview-api-docs', { repository: 'https://github.com/acme/api-docs', ref: 'agent/api-ref' });
    // The record keeps the last 50 prompts: the new one is the one not seen before.
    const before = new Set(api.ui.prompts);
    const shown = () => api.ui.prompts.find((p) => p.kind === 'quickPick' && !before.has(p));
    const picked = vscode.commands.executeCommand<string | undefined>('docsAdmin.deployment.preview');
    await waitFor('the branch picker', () => shown() !== undefined);
    const items = shown()?.items ?? [];
    assert.ok(items.includes(`$(sparkle) ${BRANCH}`), `the docs repository's agent branch is offered: ${JSON.stringify(items)}`);
    assert.ok(items.includes('$(git-branch) main'), `and the workspace's current branch: ${JSON.stringify(items)}`);
    assert.ok(!items.some((label) => label.includes('agent/api-ref')), `an agent branch of acme/api-docs is not: ${JSON.stringify(items)}`);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(await picked, undefined, 'dismissed: nothing sent');
    assert.equal(sim.requests.filter((r) => r.route === 'preview.trigger').length, 0);
  });

  it('Review Changes opens the multi-file diff of the changed, added and deleted pages', async () => {
    const node = row('review-early') as JobNode;
    const result = await vscode.commands.executeCommand<ReviewOpened>('docsAdmin.agentJob.reviewChanges', node);
    assert.equal(result.outcome, 'opened');
    assert.equal(result.title, `Agent job acme/docs @ ${BRANCH} (review-early)`);
    assert.deepEqual(
      [...result.files].sort((a, b) => a.path.localeCompare(b.path)),
      [
        { path: 'docs/added.md', kind: 'added' },
        { path: 'docs/changed.md', kind: 'modified' },
        { path: 'docs/deleted.md', kind: 'deleted' },
      ],
    );
    assert.equal(result.base, git(bare, 'rev-parse', 'main'));
    assert.equal(result.head, git(bare, 'rev-parse', BRANCH));
    await waitFor('the diff editor', () => vscode.window.tabGroups.activeTabGroup.activeTab?.label === `${result.title} (3 files)`);
    // The modified side is the agent's text, read by the Git extension from the fetched commit.
    const modified = await vscode.workspace.openTextDocument(gitApi.toGitUri(vscode.Uri.file(join(clone, 'docs/changed.md')), result.head));
    assert.match(modified.getText(), /The agent's text/);
    assert.equal(head(), 'main', 'reviewing checks nothing out');
  });

  it('a deep link to …/agent-job/<id>/review, accepted, tracks the job and opens Review Changes on it', async () => {
    sim.addAgentJob({ id: 'review-linked', repository: REMOTE, ref: BRANCH, durationMs: 1_000 });
    const confirm = api.deepLinks.confirm;
    const asked: string[] = [];
    api.deepLinks.confirm = (question) => {
      asked.push(question.text);
      return Promise.resolve(true);
    };
    try {
      const outcome = await api.deepLinks.open(vscode.Uri.parse(`${vscode.env.uriScheme}://docs-admin.docs-admin/agent-job/review-linked/review`));
      assert.deepEqual(asked, ['Track agent job review-linked and open Review Changes?']);
      assert.ok(outcome.outcome === 'tracked', JSON.stringify(outcome));
      assert.equal(outcome.key, 'agent:review-linked');
      assert.equal(outcome.review?.outcome, 'opened');
      assert.equal(outcome.review.title, `Agent job acme/docs @ ${BRANCH} (review-linked)`);
      assert.deepEqual(outcome.review.files.map((f) => f.path).sort(), ['docs/added.md', 'docs/changed.md', 'docs/deleted.md']);
      await waitFor('the diff editor', () => vscode.window.tabGroups.activeTabGroup.activeTab?.label === `${outcome.review?.title ?? ''} (3 files)`);
    } finally {
      api.deepLinks.confirm = confirm;
    }
  });

  it('run again after a follow-up (a page added, one renamed), it shows the new state in place of the old', async () => {
    write(agent, 'docs/follow-up.md', '# Follow-up\n');
    git(agent, 'mv', 'README.md', 'docs/index.md');
    git(agent, 'add', '-A');
    git(agent, 'commit', '-q', '-m', 'Follow-up');
    git(agent, 'push', '-q', 'origin', BRANCH);
    const result = await vscode.commands.executeCommand<ReviewOpened>('docsAdmin.agentJob.reviewChanges', row('review-early'));
    assert.equal(result.head, git(bare, 'rev-parse', BRANCH));
    assert.deepEqual(
      [...result.files].sort((a, b) => a.path.localeCompare(b.path)),
      [
        { path: 'docs/added.md', kind: 'added' },
        { path: 'docs/changed.md', kind: 'modified' },
        { path: 'docs/deleted.md', kind: 'deleted' },
        { path: 'docs/follow-up.md', kind: 'added' },
        { path: 'docs/index.md', kind: 'renamed' },
      ],
    );
    await waitFor('the diff editor', () => vscode.window.tabGroups.activeTabGroup.activeTab?.label === `${result.title} (5 files)`);
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.label.startsWith(result.title));
    assert.equal(tabs.length, 1, 'the earlier review was replaced');
  });

  it('takes the merge base with the default branch as it is on the remote now, not as last fetched', async () => {
    git(agent, 'checkout', '-q', 'main');
    write(agent, 'docs/main-only.md', '# Merged meanwhile\n');
    git(agent, 'add', '-A');
    git(agent, 'commit', '-q', '-m', 'Another change on main');
    git(agent, 'push', '-q', 'origin', 'main');
    git(agent, 'checkout', '-q', '-b', 'agent/from-new-main');
    write(agent, 'docs/changed.md', '# Changed\n\nFrom the new main.\n');
    git(agent, 'commit', '-q', '-am', 'Change a page');
    git(agent, 'push', '-q', 'origin', 'agent/from-new-main');
    git(agent, 'checkout', '-q', BRANCH);
    const node = await track('review-new-main', { repository: REMOTE, ref: 'agent/from-new-main' });
    const result = await vscode.commands.executeCommand<ReviewOpened>('docsAdmin.agentJob.reviewChanges', node);
    assert.equal(result.base, git(bare, 'rev-parse', 'main'));
    assert.deepEqual(result.files, [{ path: 'docs/changed.md', kind: 'modified' }], 'main\'s own change is not the agent\'s');
  });

  it('Check Out with uncommitted changes asks first, and never discards them', async () => {
    const node = row('review-ssh') as JobNode;
    write(clone, 'docs/changed.md', '# Changed\n\nMy unsaved thought.\n');
    assert.deepEqual(await vscode.commands.executeCommand('docsAdmin.agentJob.checkOutBranch', node, fromCode({ confirmed: false })), { outcome: 'cancelled' }, 'declined: nothing happens');
    assert.equal(head(), 'main');
    // Accepted, but the agent changed the same file: git stops, the change stays.
    assert.deepEqual(await vscode.commands.executeCommand('docsAdmin.agentJob.checkOutBranch', node, fromCode({ confirmed: true })), { outcome: 'blocked' });
    assert.equal(head(), 'main');
    assert.equal(readFileSync(join(clone, 'docs/changed.md'), 'utf8'), '# Changed\n\nMy unsaved thought.\n');
    // A change to a file the agent did not touch is carried over.
    git(clone, 'checkout', '-q', '--', 'docs/changed.md');
    write(clone, 'notes.md', 'my notes\n');
    const done = await vscode.commands.executeCommand('docsAdmin.agentJob.checkOutBranch', node, fromCode({ confirmed: true }));
    assert.deepEqual(done, { outcome: 'checkedOut', branch: BRANCH, uncommitted: 1 });
    assert.equal(head(), BRANCH);
    assert.equal(readFileSync(join(clone, 'notes.md'), 'utf8'), 'my notes\n');
    assert.equal(git(clone, 'rev-parse', '--abbrev-ref', '@{upstream}'), `origin/${BRANCH}`);
    unlinkSync(join(clone, 'notes.md'));
    git(clone, 'checkout', '-q', 'main');
  });

  it('Check Out without local changes checks the branch out', async () => {
    await gitApi.repositories.find((r) => r.rootUri.fsPath === clone)?.status();
    const done = await vscode.commands.executeCommand('docsAdmin.agentJob.checkOutBranch', row('review-early'));
    assert.deepEqual(done, { outcome: 'checkedOut', branch: BRANCH, uncommitted: 0 });
    assert.equal(head(), BRANCH);
    assert.equal(readFileSync(join(clone, 'docs/added.md'), 'utf8'), '# Added\n\nA new page.\n');
    git(clone, 'checkout', '-q', 'main');
  });

  it('a branch that no longer exists (merged and deleted) gets a message, not an exception', async () => {
    git(agent, 'push', '-q', 'origin', `${BRANCH}:refs/heads/agent/merged`);
    const node = await track('review-merged', { repository: REMOTE, ref: 'agent/merged' });
    git(agent, 'push', '-q', 'origin', '--delete', 'agent/merged');
    assert.deepEqual(await vscode.commands.executeCommand('docsAdmin.agentJob.reviewChanges', node), { outcome: 'branchGone' });
    assert.deepEqual(await vscode.commands.executeCommand('docsAdmin.agentJob.checkOutBranch', node), { outcome: 'branchGone' });
  });

  it('no matching repository: says why (and offers the pull request or the repository)', async () => {
    const node = row('review-elsewhere') as JobNode;
    assert.deepEqual(await vscode.commands.executeCommand('docsAdmin.agentJob.reviewChanges', node), { outcome: 'noRepository' });
    assert.deepEqual(await vscode.commands.executeCommand('docsAdmin.agentJob.checkOutBranch', node), { outcome: 'noRepository' });
  });

  it('a branch name from the server that git would read as an option never reaches git', async () => {
    const marker = join(temp, 'pwned');
    const node = await track('review-hostile', { repository: REMOTE, ref: `--upload-pack=touch ${marker}` });
    assert.equal(await vscode.commands.executeCommand('docsAdmin.agentJob.reviewChanges', node), undefined, 'refused with an error message');
    assert.equal(await vscode.commands.executeCommand('docsAdmin.agentJob.checkOutBranch', node), undefined);
    assert.equal(existsSync(marker), false);
    assert.equal(head(), 'main');
  });
});
