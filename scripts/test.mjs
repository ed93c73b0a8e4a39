// `npm test`: every check, in order, stopping at the first failure. Installs what it needs
// first (see ensure-deps.mjs).
import { spawnSync } from 'node:child_process';
import { ensureDeps } from './ensure-deps.mjs';

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
