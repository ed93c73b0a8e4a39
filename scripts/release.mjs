// One step of the Release workflow (.github/workflows/release.yml), each safe to run again: a
// rerun of a failed release finishes it. From main only (the workflow's ref and HEAD on origin's main).
//   node scripts/release.mjs check    refuse anything but main
//   node scripts/release.mjs action   the action's release commit on releases/v<major>, pushed
//   node scripts/release.mjs tags     v<version> and v<major> on it, pushed
//   node scripts/release.mjs npm      the CLI's npm package (skipped when npm has the version)
//   node scripts/release.mjs vsix     npm run package, kept as docs-admin-<version>.vsix
//   node scripts/release.mjs github   the GitHub release of v<version>, with the .vsix
//   node scripts/release.mjs vsce     the VS Code Marketplace (needs VSCE_PAT; skipped without)
//   node scripts/release.mjs ovsx     Open VSX (needs OVSX_PAT; skipped without)
// The build (node esbuild.mjs --production) runs before: `action` takes the entry as built.
import { ReleaseError, requireMain } from './release/context.mjs';
import { releaseBranch, releaseTags } from './release/action.mjs';
import { githubRelease, packageVsix, publishNpm, publishTo } from './release/publish.mjs';

const STEPS = {
  check: () => {
    requireMain({ fetch: true });
    console.log('Releasing from main.');
  },
  action: () => releaseBranch({ push: true }),
  tags: () => releaseTags({ push: true }),
  npm: () => (requireMain(), publishNpm()),
  vsix: () => (requireMain(), packageVsix()),
  github: () => (requireMain(), githubRelease()),
  vsce: () => (requireMain(), publishTo('vsce')),
  ovsx: () => (requireMain(), publishTo('ovsx')),
};

const step = STEPS[process.argv[2] ?? ''];
if (step === undefined) {
  console.error(`Usage: node scripts/release.mjs <${Object.keys(STEPS).join('|')}>`);
  process.exit(2);
}
try {
  step();
} catch (error) {
  console.error(error instanceof ReleaseError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
}
