#!/usr/bin/env node
/**
 * The commit message rule (CONTRIBUTING.md, "Commits"): a subject of at most 72 characters and,
 * when the message has a body, a blank line between the two.
 *
 *   node scripts/check-commits.mjs <base>..<head>
 *
 * checks every commit of a git range (CI checks a pull request's own commits) and exits 1 naming
 * each commit that breaks the rule, 2 on bad usage. Merge commits count too: their subjects are
 * git's own and short.
 */
import { spawnSync } from 'node:child_process';

export const SUBJECT_MAX = 72;

/** What is wrong with one commit message (empty when nothing). */
export function messageProblems(message) {
  const lines = message.replace(/\r\n/g, '\n').replace(/\n+$/, '').split('\n');
  const problems = [];
  const subject = lines[0] ?? '';
  if (subject.trim() === '') problems.push('the subject is empty');
  if ([...subject].length > SUBJECT_MAX) problems.push(`the subject is ${[...subject].length} characters (at most ${SUBJECT_MAX})`);
  if (lines.length > 1 && lines[1].trim() !== '') problems.push('no blank line between the subject and the body');
  return problems;
}

function main(argv) {
  const range = argv[0];
  if (argv.length !== 1 || range === undefined || !range.includes('..') || range.startsWith('-')) {
    console.error('Usage: node scripts/check-commits.mjs <base>..<head> (the commits to check, as git log takes them).');
    return 2;
  }
  // %H, then the raw message, each commit ended by a NUL.
  const log = spawnSync('git', ['log', '--format=%H%n%B%x00', range, '--'], { encoding: 'utf8' });
  if (log.status !== 0) {
    console.error(`git log ${range} failed: ${log.stderr.trim()}`);
    return 2;
  }
  const commits = log.stdout.split('\0').map((c) => c.replace(/^\n/, '')).filter((c) => c.trim() !== '');
  let bad = 0;
  for (const entry of commits) {
    const newline = entry.indexOf('\n');
    const hash = entry.slice(0, newline);
    const problems = messageProblems(entry.slice(newline + 1));
    if (problems.length === 0) continue;
    bad++;
    // A subject is the committer's text: printed in quotes, control characters escaped (a CI log).
    const subject = JSON.stringify(entry.slice(newline + 1).split('\n')[0] ?? '');
    console.log(`${hash.slice(0, 12)} ${subject}: ${problems.join('; ')}`);
  }
  if (bad > 0) {
    console.log(`${bad} of ${commits.length} commit(s) break the rule: a subject of at most ${SUBJECT_MAX} characters, a blank line, then the body (git commit --amend, or git rebase -i to reword).`);
    return 1;
  }
  console.log(`${commits.length} commit(s): every subject at most ${SUBJECT_MAX} characters, each body after a blank line.`);
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main(process.argv.slice(2));
