/**
 * A repository to release, as the Release workflow meets it: a bare remote (`git init --bare`,
 * the GitHub repository), a developer's clone that commits and pushes main, and checkouts made
 * as actions/checkout makes them with `fetch-depth: 0` (git init, a fetch of every branch as a
 * remote-tracking branch and every tag, then `checkout --force -B main refs/remotes/origin/main`,
 * or a detached HEAD), one fresh folder per run, as each run of a job gets a new runner.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const GIT_ENV = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Release Test',
  GIT_AUTHOR_EMAIL: 'release@example.com',
  GIT_COMMITTER_NAME: 'Release Test',
  GIT_COMMITTER_EMAIL: 'release@example.com',
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd, ...GIT_ENV }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

export interface ReleaseFixture {
  /** The bare remote. */
  remote: string;
  /** The developer's clone (on main). */
  dev: string;
  /** Commits a new version on main (package.json and cli/package.json) and pushes it. */
  bump(version: string): string;
  /** A fresh checkout of the remote as actions/checkout leaves it (its built entry written, as the build step writes it). */
  checkout(options?: { ref?: string; detached?: boolean; entry?: string }): string;
  /** The remote's ref, resolved to a commit; undefined when it does not exist. */
  remoteRef(ref: string): string | undefined;
}

export function releaseFixture(base: string, version: string): ReleaseFixture {
  const root = mkdtempSync(join(base, 'release-'));
  const remote = join(root, 'origin.git');
  const dev = join(root, 'dev');
  let runs = 0;
  git(root, 'init', '-q', '--bare', '-b', 'main', remote);
  git(root, 'clone', '-q', remote, dev);
  git(dev, 'checkout', '-q', '-b', 'main');
  mkdirSync(join(dev, 'cli'));
  writeFileSync(join(dev, '.gitignore'), 'dist/\ncli/dist/\n*.vsix\n');
  writeFileSync(join(dev, 'action.yml'), 'name: x\nruns:\n  using: node24\n  main: dist/action/index.js\n');
  const bump = (v: string) => {
    writeFileSync(join(dev, 'package.json'), `${JSON.stringify({ name: 'docs-admin', publisher: 'docs-admin', version: v, private: true }, null, 2)}\n`);
    writeFileSync(join(dev, 'cli/package.json'), `${JSON.stringify({ name: '@docs-admin/cli', version: v }, null, 2)}\n`);
    git(dev, 'add', '.');
    git(dev, 'commit', '-q', '-m', `version ${v}`);
    git(dev, 'push', '-q', 'origin', 'main');
    return git(dev, 'rev-parse', 'HEAD');
  };
  bump(version);
  return {
    remote,
    dev,
    bump,
    checkout({ ref = 'main', detached = false, entry } = {}) {
      const dir = join(root, `run-${++runs}`);
      mkdirSync(dir);
      git(dir, 'init', '-q');
      git(dir, 'remote', 'add', 'origin', remote);
      git(dir, 'fetch', '-q', '--prune', '--no-recurse-submodules', 'origin', '+refs/heads/*:refs/remotes/origin/*', '+refs/tags/*:refs/tags/*');
      if (detached) git(dir, 'checkout', '-q', '--force', '--detach', `refs/remotes/origin/${ref}`);
      else git(dir, 'checkout', '-q', '--force', '-B', ref, `refs/remotes/origin/${ref}`);
      mkdirSync(join(dir, 'dist/action'), { recursive: true });
      const version = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
      writeFileSync(join(dir, 'dist/action/index.js'), entry ?? `console.log("the action ${version}");\n`);
      return dir;
    },
    remoteRef(ref) {
      try {
        return git(root, `--git-dir=${remote}`, 'rev-parse', '--verify', '--quiet', `${ref}^{commit}`);
      } catch {
        return undefined;
      }
    },
  };
}
