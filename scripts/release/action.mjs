// The GitHub Action's release. `uses: docs-admin/docs-admin@v1` runs action.yml's `runs.main`,
// dist/action/index.js, from the tagged commit; build output is never committed on main, so a
// release makes a commit of its own: the tree of HEAD plus the built entry, on the branch
// releases/v<major> (its parents: the branch's previous release and HEAD), tagged v<version> and
// v<major> (moved). The working tree, the index and the current branch are left as they are
// (the commit is made with git's plumbing, in a temporary index).
//
// Each half can run again and finish what a failed run left: the branch is fetched from origin
// before the commit (a fresh checkout has it only as origin/releases/v<major>), a release commit
// of HEAD found on it is used again rather than made twice, a tag that exists already is fine
// when it names a release of HEAD and refused when it names another commit.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ReleaseError, commitOf, git, gitOrigin, isAncestor, releaseNames, requireMain, short, tryGitOrigin } from './context.mjs';

function entryOf() {
  const main = parse(readFileSync('action.yml', 'utf8'))?.runs?.main;
  if (typeof main !== 'string') throw new ReleaseError('action.yml has no runs.main.');
  return main;
}

/** Brings origin's release branch and the version's tag here (as origin/<branch> and the tag). */
function syncFromOrigin({ branch, tag, major }) {
  const remote = new Map(
    gitOrigin(['ls-remote', 'origin', `refs/heads/${branch}`, `refs/tags/${tag}`, `refs/tags/${major}`])
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => line.split('\t').reverse()),
  );
  if (remote.has(`refs/heads/${branch}`)) gitOrigin(['fetch', '--quiet', '--no-tags', 'origin', `+refs/heads/${branch}:refs/remotes/origin/${branch}`]);
  for (const name of [tag, major]) {
    if (!remote.has(`refs/tags/${name}`)) continue;
    // The moving major tag follows origin; the version's tag must agree with it.
    const fetched = tryGitOrigin(['fetch', '--quiet', '--no-tags', 'origin', `${name === major ? '+' : ''}refs/tags/${name}:refs/tags/${name}`]);
    if (!fetched.ok) throw new ReleaseError(`The tag ${name} here is not origin's (${fetched.err}): delete it here (git tag -d ${name}) and run the release again.`);
  }
}

/** The release branch to build on: origin's when it has one, else the local one; undefined for a first release. */
function branchTip({ branch }, push) {
  return (push ? commitOf(`refs/remotes/origin/${branch}`) : undefined) ?? commitOf(`refs/heads/${branch}`);
}

/** The release commit of `head` on the branch (its last parent is `head`), if one was made (main's own history is not searched). */
function releaseOf(tip, head) {
  if (tip === undefined) return undefined;
  for (const line of git(['rev-list', '--first-parent', '--parents', tip, `^${head}`]).split('\n')) {
    const [commit, ...parents] = line.split(' ');
    if (parents.at(-1) === head) return commit;
  }
  return undefined;
}

/** The commit the version's tag names, checked to be a release of `head`; undefined when there is no tag. */
function taggedRelease({ tag }, head) {
  const tagged = commitOf(`refs/tags/${tag}`);
  if (tagged === undefined) return undefined;
  const source = git(['rev-list', '--parents', '-n', '1', tagged]).split(' ').at(-1);
  if (source !== head) {
    throw new ReleaseError(`The tag ${tag} exists already, at ${short(tagged)}, a release of ${short(source ?? '')}, not of this commit (${short(head)}): bump the version first (npm version <patch|minor|major> at the root), push it, and release again.`);
  }
  return tagged;
}

function makeRelease(names, head, tip, main) {
  if (!existsSync(main)) throw new ReleaseError(`${main} is not built: run node esbuild.mjs --production first.`);
  const temp = mkdtempSync(join(tmpdir(), 'release-action-'));
  try {
    const index = { GIT_INDEX_FILE: join(temp, 'index') };
    git(['read-tree', 'HEAD'], { env: index });
    const blob = git(['hash-object', '-w', main]);
    git(['update-index', '--add', '--cacheinfo', `100644,${blob},${main}`], { env: index });
    const tree = git(['write-tree'], { env: index });
    const parents = tip === undefined ? ['-p', head] : ['-p', tip, '-p', head];
    return git(['commit-tree', tree, ...parents, '-m', `Release ${names.tag} of the action: ${short(head)} with its built entry (${main})`]);
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/**
 * The release commit on releases/v<major> (made, or found from an earlier run), the local branch
 * moved to it, and with `push` the branch pushed to origin (a fast-forward). Returns the commit.
 */
export function releaseBranch({ push = false, build = () => undefined } = {}) {
  const names = releaseNames();
  const main = entryOf();
  const head = requireMain({ fetch: push });
  if (git(['status', '--porcelain', '--untracked-files=no']) !== '') throw new ReleaseError('The working tree has uncommitted changes: a release is made from a commit.');
  if (push) syncFromOrigin(names);
  const tip = branchTip(names, push);
  let commit = taggedRelease(names, head) ?? releaseOf(tip, head);
  if (commit !== undefined) {
    console.log(`${names.branch}: ${short(commit)} is the release of ${short(head)} already; used again.`);
  } else {
    build();
    commit = makeRelease(names, head, tip, main);
  }
  if (tip !== undefined && !isAncestor(tip, commit) && !isAncestor(commit, tip)) {
    throw new ReleaseError(`${names.branch} (${short(tip)}) and the release ${short(commit)} have gone apart: the branch must only move forward; look at its history before releasing again.`);
  }
  const newest = tip !== undefined && isAncestor(commit, tip) ? tip : commit;
  git(['update-ref', `refs/heads/${names.branch}`, newest]);
  if (push) gitOrigin(['push', '--quiet', 'origin', `${newest}:refs/heads/${names.branch}`]);
  console.log(`${names.branch} at ${short(newest)}${push ? ', pushed' : ''}: the release of ${short(head)} is ${short(commit)}.`);
  return commit;
}

/**
 * The tags of the release of HEAD: v<version> (made once, never moved) and v<major> (moved to it,
 * unless it names a later release already); with `push`, both pushed to origin.
 */
export function releaseTags({ push = false } = {}) {
  const names = releaseNames();
  const head = requireMain({ fetch: push });
  if (push) syncFromOrigin(names);
  const commit = taggedRelease(names, head) ?? releaseOf(branchTip(names, push), head);
  if (commit === undefined) throw new ReleaseError(`${names.branch} has no release of ${short(head)}: release the action first (node scripts/release.mjs action).`);
  if (commitOf(`refs/tags/${names.tag}`) === undefined) git(['tag', '-a', names.tag, commit, '-m', `Docs Admin ${names.tag}`]);
  const current = commitOf(`refs/tags/${names.major}`);
  if (current === undefined || (current !== commit && isAncestor(current, commit))) {
    git(['tag', '-f', '-a', names.major, commit, '-m', `Docs Admin ${names.tag} (the latest ${names.major} release)`]);
  } else if (current !== commit) {
    console.log(`${names.major} names a later release (${short(current)}): left there.`);
  }
  if (push) {
    gitOrigin(['push', '--quiet', 'origin', `refs/tags/${names.tag}`]);
    gitOrigin(['push', '--quiet', '--force', 'origin', `refs/tags/${names.major}`]);
  }
  console.log(`${names.tag} and ${names.major} at ${short(commit)}${push ? ', pushed' : ''}: uses: <owner>/<repo>@${names.major} runs ${names.tag}.`);
  return commit;
}

