// `npm test`: every check, in order, stopping at the first failure. Installs what it needs
// first (see ensure-deps.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname } from 'node:path';
import { ensureDeps } from './ensure-deps.mjs';

// The CLI's tests (test/unit/cli*.test.ts, the packed package's included) on each Node line the
// CLI supports, each run by that Node (first on the PATH, so the packed CLI's `env node` is it too).
function cliTestsOnEachNode() {
  const { CLI_NODE_VERSIONS, nodeBinOf } = createRequire(import.meta.url)('../out/test/host/versions.js');
  const files = readdirSync('out/test/unit').filter((f) => /^cli\w*\.test\.js$/.test(f)).map((f) => `out/test/unit/${f}`);
  for (const version of CLI_NODE_VERSIONS) {
    const { nodeBin } = nodeBinOf(version);
    if (!existsSync(nodeBin)) throw new Error(`Node ${version} is not installed (${nodeBin}): node out/test/host/install.js installs it.`);
    console.log(`\n--- the CLI's tests on Node ${version} (${files.length} files)`);
    const mocha = ['node_modules/mocha/bin/mocha.js', '--no-config', '--require', 'out/test/unit/support/secretsHook.js', '--timeout', '20000', '--enable-source-maps', ...files];
    const run = spawnSync(nodeBin, mocha, { stdio: 'inherit', env: { ...process.env, PATH: `${dirname(nodeBin)}${delimiter}${process.env.PATH ?? ''}` } });
    if (run.status !== 0) throw new Error(`The CLI's tests failed on Node ${version}.`);
  }
}

const npx = (...args) => ['npx', ['--no-install', ...args]];
const steps = [
  ['install what is missing', () => ensureDeps()],
  ['build', [process.execPath, ['esbuild.mjs']]],
  ['type check', npx('tsc', '--noEmit', '-p', '.')],
  ['lint', npx('eslint', '.')],
  ['workflow lint (actionlint on .github/workflows, and action.yml)', [process.execPath, ['scripts/lint-workflows.mjs']]],
  ['localisation check (strings exported, manifest through package.nls.json)', [process.execPath, ['scripts/check-l10n.mjs']]],
  ['recount (the README\'s test numbers are what the tests\' names add up to)', [process.execPath, ['scripts/recount.mjs', '--no-build']]],
  ['unit tests', npx('mocha')],
  ["the CLI's tests on Node 22 and 24 (the lines it supports)", () => cliTestsOnEachNode()],
  ['integration tests (real VS Code host)', [process.execPath, ['out/test/host/run.js']]],
  ['UI check (Playwright in the real host)', [process.execPath, ['out/test/host/ui.js']]],
  ['benchmark smoke (tiny sizes; `npm run bench` for the real ones)', [process.execPath, ['out/bench/run.js', '--quick']]],
  ['packaging check', [process.execPath, ['scripts/check-package.mjs']]],
];

const results = [];
let failed = false;
for (const [name, step] of steps) {
  console.log(`\n=== ${name}`);
  const started = Date.now();
  let ok;
  if (typeof step === 'function') {
    try {
      step();
      ok = true;
    } catch (error) {
      console.error(error.message);
      ok = false;
    }
  } else {
    const [command, args] = step;
    const result = spawnSync(command, args, { stdio: 'inherit' });
    ok = result.status === 0;
  }
  results.push([name, ok, Date.now() - started]);
  if (!ok) {
    failed = true;
    break;
  }
}

console.log('\n=== summary');
for (const [name, ok, ms] of results) console.log(`${ok ? 'ok  ' : 'FAIL'}  ${name} (${(ms / 1000).toFixed(1)} s)`);
for (const [name] of steps.slice(results.length)) console.log(`skip  ${name}`);
process.exit(failed ? 1 : 0);
