// What every release step shares: the version being released, git in the checkout, the
// runner's notices and job summary, and the refusal to release anything but main.
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';

/** A release step that cannot go on: its message says why and what to do. */
export class ReleaseError extends Error {}

export function git(args, options = {}) {
  return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } }).trim();
}

/**
 * git talking to origin: with the workflow's token when the step has one (GITHUB_TOKEN in its
 * env; the checkout keeps no credentials), given to that one command, as actions/checkout gives it.
 */
export function gitOrigin(args) {
  const token = process.env.GITHUB_TOKEN;
  const auth = token ? ['-c', `http.extraheader=AUTHORIZATION: basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`] : [];
  return git([...auth, ...args]);
}

export function tryGitOrigin(args) {
  try {
    return { ok: true, out: gitOrigin(args), err: '' };
  } catch (error) {
    return { ok: false, out: '', err: String(error.stderr ?? error.message).trim() };
  }
}

/** git, for the commands whose failure is an answer (a missing ref): { ok, out, err }. */
export function tryGit(args) {
  const r = spawnSync('git', args, { encoding: 'utf8' });
  return { ok: r.status === 0, out: (r.stdout ?? '').trim(), err: (r.stderr ?? '').trim() };
}

export const commitOf = (ref) => {
  const r = tryGit(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  return r.ok ? r.out : undefined;
};

export const isAncestor = (ancestor, descendant) => tryGit(['merge-base', '--is-ancestor', ancestor, descendant]).ok;

export const short = (sha) => sha.slice(0, 12);

/** The release's names, from the root package.json: the extension's, the CLI's and the action's version. */
export function releaseNames() {
  const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
  const major = `v${version.split('.')[0]}`;
  return { version, tag: `v${version}`, major, branch: `releases/${major}` };
}

/** A notice in the run's annotations (plain text elsewhere), and a line of the job summary. */
export function notice(title, message, summary) {
  console.log(process.env.GITHUB_ACTIONS === 'true' ? `::notice title=${title}::${message}` : `${title}: ${message}`);
  if (summary !== undefined) writeSummary(summary);
}

export function writeSummary(line) {
  const file = process.env.GITHUB_STEP_SUMMARY;
  if (file) appendFileSync(file, `${line}\n`);
}

export const hasOrigin = () => tryGit(['remote', 'get-url', 'origin']).ok;

/**
 * The release runs from main only: the workflow's ref (GITHUB_REF, when set) is main, the branch
 * checked out (if any) is main, and HEAD is on origin's main (fetched first with `fetch`; the
 * checkout has it otherwise).
 */
export function requireMain({ fetch = false } = {}) {
  const ref = process.env.GITHUB_REF;
  if (ref && ref !== 'refs/heads/main') {
    throw new ReleaseError(`The release runs from main only, and this run is on ${ref}: run the Release workflow on main (Run workflow, Use workflow from: main).`);
  }
  const branch = tryGit(['symbolic-ref', '--quiet', '--short', 'HEAD']).out;
  if (branch !== '' && branch !== 'main') {
    throw new ReleaseError(`The release runs from main only, and the branch checked out is ${branch}: merge it into main, then release from main.`);
  }
  if (!hasOrigin()) return git(['rev-parse', 'HEAD']);
  if (fetch) gitOrigin(['fetch', '--quiet', '--no-tags', 'origin', '+refs/heads/main:refs/remotes/origin/main']);
  const head = git(['rev-parse', 'HEAD']);
  if (!isAncestor(head, 'refs/remotes/origin/main')) {
    throw new ReleaseError(`The release runs from main only, and HEAD (${short(head)}) is not on origin's main: push it to main first, then release from main.`);
  }
  return head;
}
