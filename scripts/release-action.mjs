// Releases the GitHub Action by hand (the Release workflow runs the same two halves as its
// `action` and `tags` steps: scripts/release.mjs; how: scripts/release/action.mjs).
//
//   node scripts/release-action.mjs            build, commit, tag (locally)
//   node scripts/release-action.mjs --push     and push the branch and both tags to origin
//   node scripts/release-action.mjs --no-build use the dist/action/index.js already built
//
// The version is the root package.json's (the extension's, and the CLI package's). Running it
// again for the same commit finishes what is missing; a version tagged on another commit is refused.
import { execFileSync } from 'node:child_process';
import { ReleaseError } from './release/context.mjs';
import { releaseBranch, releaseTags } from './release/action.mjs';

const push = process.argv.includes('--push');
const build = !process.argv.includes('--no-build');

try {
  releaseBranch({ push, build: build ? () => execFileSync(process.execPath, ['esbuild.mjs', '--production'], { stdio: 'inherit' }) : undefined });
  releaseTags({ push });
} catch (error) {
  console.error(error instanceof ReleaseError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
}
