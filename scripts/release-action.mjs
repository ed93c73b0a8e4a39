// Releases the GitHub Action. `uses: docs-admin/docs-admin@v1` runs action.yml's `runs.main`,
// dist/action/index.js, from the tagged commit; build output is never committed on main, so a
// release makes a commit of its own: the tree of HEAD plus the production build of the entry,
// on the branch releases/v<major> (its parents: the branch's previous release and HEAD), tagged
// v<version> and v<major> (moved). The working tree, the index and the current branch are left
// as they are (the commit is made with git's plumbing, in a temporary index).
//
//   node scripts/release-action.mjs            build, commit, tag (locally)
//   node scripts/release-action.mjs --push     and push the branch and both tags to origin
//   node scripts/release-action.mjs --no-build use the dist/action/index.js already built
//
// The version is the root package.json's (the extension's, and the CLI package's).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const push = process.argv.includes('--push');
const build = !process.argv.includes('--no-build');

function git(args, env = {}) {
  return execFileSync('git', args, { encoding: 'utf8', env: { ...process.env, ...env } }).trim();
}

function refExists(ref) {
  try {
    git(['rev-parse', '--verify', '--quiet', ref]);
    return true;
  } catch {
    return false;
  }
}

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
const major = `v${version.split('.')[0]}`;
const tag = `v${version}`;
const branch = `releases/${major}`;
const main = /^\s*main:\s*(\S+)\s*$/m.exec(readFileSync('action.yml', 'utf8'))?.[1];
if (main === undefined) throw new Error('action.yml has no runs.main.');
if (git(['status', '--porcelain', '--untracked-files=no']) !== '') throw new Error('The working tree has uncommitted changes: a release is made from a commit.');
if (refExists(`refs/tags/${tag}`)) throw new Error(`The tag ${tag} exists already: bump the version first (npm version <patch|minor|major> at the root).`);

if (build) execFileSync(process.execPath, ['esbuild.mjs', '--production'], { stdio: 'inherit' });
if (!existsSync(main)) throw new Error(`${main} is not built.`);

const temp = mkdtempSync(join(tmpdir(), 'release-action-'));
try {
  const index = { GIT_INDEX_FILE: join(temp, 'index') };
  git(['read-tree', 'HEAD'], index);
  const blob = git(['hash-object', '-w', main]);
  git(['update-index', '--add', '--cacheinfo', `100644,${blob},${main}`], index);
  const tree = git(['write-tree'], index);
  const head = git(['rev-parse', 'HEAD']);
  const parents = refExists(`refs/heads/${branch}`) ? ['-p', git(['rev-parse', `refs/heads/${branch}`]), '-p', head] : ['-p', head];
  const commit = git(['commit-tree', tree, ...parents, '-m', `Release ${tag} of the action: ${head.slice(0, 12)} with its built entry (${main})`]);
  git(['update-ref', `refs/heads/${branch}`, commit]);
  git(['tag', '-a', tag, commit, '-m', `Docs Admin ${tag}`]);
  git(['tag', '-f', '-a', major, commit, '-m', `Docs Admin ${tag} (the latest ${major} release)`]);
  console.log(`${branch} at ${commit.slice(0, 12)}, tagged ${tag} and ${major}.`);
  if (push) {
    git(['push', 'origin', `refs/heads/${branch}:refs/heads/${branch}`, `refs/tags/${tag}`]);
    git(['push', '--force', 'origin', `refs/tags/${major}`]);
    console.log(`Pushed ${branch}, ${tag} and ${major}: uses: <owner>/<repo>@${major} now runs ${tag}.`);
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}
