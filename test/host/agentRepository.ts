/**
 * A docs repository with an agent's branch, for the UI check: a bare repository on disk plays
 * the origin; the clone in the workspace names it https://github.com/acme/docs, which git's own
 * `url.<path>.insteadOf` sends to the bare one. The branch changes a page, adds one and
 * deletes one. Git runs without a shell.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const AGENT_REMOTE = 'https://github.com/acme/docs';
const IDENTITY = { GIT_AUTHOR_NAME: 'Docs Agent', GIT_AUTHOR_EMAIL: 'agent@acme.dev', GIT_COMMITTER_NAME: 'Docs Agent', GIT_COMMITTER_EMAIL: 'agent@acme.dev' };

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: { ...process.env, ...IDENTITY }, encoding: 'utf8' }).trim();
}

function write(dir: string, path: string, text: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

export interface AgentRepository {
  clone: string;
  remove(): void;
}

export function makeAgentRepository(workspace: string, branch: string): AgentRepository {
  const temp = mkdtempSync(join(tmpdir(), 'docs-admin-agent-repo-'));
  const bare = join(temp, 'origin.git');
  const agent = join(temp, 'agent');
  git(temp, 'init', '-q', '--bare', '-b', 'main', bare);
  git(temp, 'init', '-q', '-b', 'main', agent);
  write(agent, 'docs/quickstart.md', '# Quickstart\n\nInstall the CLI, then run `docs dev`.\n\n## Next steps\n\nRead the guides.\n');
  write(agent, 'docs/legacy-setup.md', '# Legacy setup\n\nThis page describes the old installer.\n');
  git(agent, 'add', '-A');
  git(agent, 'commit', '-q', '-m', 'The docs');
  git(agent, 'remote', 'add', 'origin', bare);
  git(agent, 'push', '-q', 'origin', 'main');
  git(agent, 'checkout', '-q', '-b', branch);
  write(agent, 'docs/quickstart.md', '# Quickstart\n\nInstall the CLI with `npm i -g docs`, then run `docs dev` and open http://localhost:3000.\n\n## Next steps\n\nRead the guides, then publish your first page.\n');
  write(agent, 'docs/first-page.md', '# Your first page\n\nCreate `docs/hello.md` and it appears in the sidebar.\n');
  git(agent, 'rm', '-q', 'docs/legacy-setup.md');
  git(agent, 'add', '-A');
  git(agent, 'commit', '-q', '-m', 'Rewrite the quickstart');
  git(agent, 'push', '-q', 'origin', branch);
  const clone = join(workspace, 'acme-docs');
  git(workspace, 'init', '-q', '-b', 'main', clone);
  git(clone, 'remote', 'add', 'origin', AGENT_REMOTE);
  git(clone, 'config', `url.${bare}.insteadOf`, AGENT_REMOTE);
  git(clone, 'fetch', '-q', 'origin', 'main');
  git(clone, 'reset', '-q', '--hard', 'origin/main');
  return {
    clone,
    remove: () => {
      rmSync(temp, { recursive: true, force: true });
      rmSync(clone, { recursive: true, force: true });
    },
  };
}

/**
 * The playground's workspace as a clone of the demo jobs' repository (npm start): the workspace
 * folder itself is the git repository, its `origin` https://github.com/acme/docs, sent by
 * `url.<path>.insteadOf` to a bare repository that holds the demo agents' branches
 * (`agent/quickstart`, `agent/fr`), so Review Changes, Check Out Agent Branch and Preview Agent
 * Branch work on the demo jobs. `files` are the workspace's own pages, committed on main.
 */
export function makePlaygroundRepository(workspace: string, files: Record<string, string>): AgentRepository {
  const temp = mkdtempSync(join(tmpdir(), 'docs-admin-playground-repo-'));
  const bare = join(temp, 'origin.git');
  const agent = join(temp, 'agent');
  git(temp, 'init', '-q', '--bare', '-b', 'main', bare);
  git(temp, 'init', '-q', '-b', 'main', agent);
  for (const [path, text] of Object.entries(files)) write(agent, path, text);
  write(agent, 'docs/legacy-setup.md', '# Legacy setup\n\nThis page describes the old installer.\n');
  git(agent, 'add', '-A');
  git(agent, 'commit', '-q', '-m', 'The docs');
  git(agent, 'remote', 'add', 'origin', bare);
  git(agent, 'push', '-q', 'origin', 'main');
  git(agent, 'checkout', '-q', '-b', 'agent/quickstart');
  write(agent, 'docs/first-page.md', '# Your first page\n\nCreate `docs/hello.md` and it appears in the sidebar.\n');
  write(agent, 'docs/quickstart.mdx', `${files['docs/quickstart.mdx'] ?? ''}\n## Troubleshooting\n\nRun \`docs doctor\` when the CLI does not start.\n`);
  git(agent, 'rm', '-q', 'docs/legacy-setup.md');
  git(agent, 'add', '-A');
  git(agent, 'commit', '-q', '-m', 'Rewrite the quickstart');
  git(agent, 'push', '-q', 'origin', 'agent/quickstart');
  git(agent, 'checkout', '-q', 'main');
  git(agent, 'checkout', '-q', '-b', 'agent/fr');
  write(agent, 'fr/docs/quickstart.mdx', '# Démarrage rapide\n\nInstallez la CLI avec npm.\n');
  git(agent, 'add', '-A');
  git(agent, 'commit', '-q', '-m', 'Traduire le guide de démarrage');
  git(agent, 'push', '-q', 'origin', 'agent/fr');
  git(workspace, 'init', '-q', '-b', 'main');
  git(workspace, 'remote', 'add', 'origin', AGENT_REMOTE);
  git(workspace, 'config', `url.${bare}.insteadOf`, AGENT_REMOTE);
  git(workspace, 'fetch', '-q', 'origin');
  git(workspace, 'reset', '-q', '--hard', 'origin/main');
  git(workspace, 'branch', '-q', '--set-upstream-to=origin/main');
  return { clone: workspace, remove: () => rmSync(temp, { recursive: true, force: true }) };
}
