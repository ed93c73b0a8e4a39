// The packages built beside the extension by `node esbuild.mjs`:
// - the CLI's npm package, cli/ (its own package.json and README; dist/cli.js, a copy of the
//   root's dist/cli.js: the production build of src/cli, packed by scripts/pack-cli.mjs, with
//   every dependency bundled, so it installs with nothing to fetch);
// - the GitHub Action's entry, dist/action/index.js (action.yml points at it; see
//   scripts/release-action.mjs for how it reaches a release tag).
// Both are versioned with the extension: cli/package.json holds the root's version (checked at
// every build; `npm version` at the root writes it, through the root's `version` script).
//   node scripts/packages.mjs --sync-version   write the root's version into cli/package.json
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT_MANIFEST = 'package.json';
const CLI_MANIFEST = 'cli/package.json';

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

/** Throws unless cli/package.json carries the root's version and no runtime dependency. */
export function checkCliManifest() {
  const root = readJson(ROOT_MANIFEST);
  const cli = readJson(CLI_MANIFEST);
  if (cli.version !== root.version) {
    throw new Error(`${CLI_MANIFEST} is at version ${cli.version}, the extension at ${root.version}: run "node scripts/packages.mjs --sync-version" (npm version at the root does it).`);
  }
  for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies']) {
    if (cli[field] !== undefined && Object.keys(cli[field]).length > 0) throw new Error(`${CLI_MANIFEST} must not have ${field}: the CLI is bundled.`);
  }
}

/** The esbuild configuration of the action's entry, from the root's shared options (the CLI: fillCliPackage). */
export function packageConfigs(bundled) {
  return [
    // What action.yml runs (a release commits it on the release branch: scripts/release-action.mjs).
    { ...bundled, entryPoints: ['src/action/actionMain.ts'], outfile: 'dist/action/index.js' },
  ];
}

/** After a build: the CLI as it ships (always the packed production build) into the package. */
export function fillCliPackage(builtCli) {
  mkdirSync('cli/dist', { recursive: true });
  copyFileSync(builtCli, 'cli/dist/cli.js');
  chmodSync('cli/dist/cli.js', 0o755);
}

/** Before a build: the checks, a clean output folder, and the licence beside the CLI's manifest. */
export function preparePackages() {
  checkCliManifest();
  rmSync('cli/dist', { recursive: true, force: true });
  copyFileSync('LICENSE', 'cli/LICENSE');
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--sync-version')) {
  const text = readFileSync(CLI_MANIFEST, 'utf8');
  const { version } = readJson(ROOT_MANIFEST);
  writeFileSync(CLI_MANIFEST, text.replace(/("version":\s*)"[^"]*"/, `$1"${version}"`));
  console.log(`${CLI_MANIFEST}: version ${version}`);
}
