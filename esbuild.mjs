// Builds the extension and the CLI (bundled), and the tests, simulator and test host
// (transpiled file by file into out/, so mocha and the extension host can load them).
//   node esbuild.mjs               development build: source maps, not minified
//   node esbuild.mjs --production  what ships in the .vsix: minified, no source maps
//   node esbuild.mjs --watch       rebuild on change (the CLI as one plain bundle)
// The CLI (dist/cli.js) is always built as it ships: minified and packed (scripts/pack-cli.mjs).
import * as esbuild from 'esbuild';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildPackedCli } from './scripts/pack-cli.mjs';
import { fillCliPackage, packageConfigs, preparePackages } from './scripts/packages.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Every .ts file below `dir`. */
function tsFiles(dir) {
  const found = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...tsFiles(path));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

const bundled = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minify: production,
  sourcemap: production ? false : 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  legalComments: 'none',
  // jsonc-parser's main build is UMD, whose require() of its own parts a bundler cannot follow.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
};

const configs = [
  { ...bundled, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  // The CLI: in watch mode one plain bundle; otherwise packed (scripts/pack-cli.mjs, below).
  ...(watch ? [{ ...bundled, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } }] : []),
  // The extraction's worker thread, started from a file beside the extension and the CLI.
  { ...bundled, entryPoints: ['src/core/bundle/extract/extractWorker.ts'], outfile: 'dist/extractWorker.js' },
];
if (!production) {
  // Tests and benchmarks import src/ directly; transpile them, keeping the tree so relative imports hold.
  configs.push({
    entryPoints: [...tsFiles('src'), ...tsFiles('test'), ...tsFiles('bench')],
    outdir: 'out',
    outbase: '.',
    bundle: false,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
}

// The CLI's npm package (cli/) and the GitHub Action's entry (dist/action/): see scripts/packages.mjs.
configs.push(...packageConfigs(bundled));
preparePackages();

rmSync('dist', { recursive: true, force: true });
if (!production) rmSync('out', { recursive: true, force: true });

if (watch) {
  for (const config of configs) {
    const ctx = await esbuild.context(config);
    await ctx.watch();
  }
  console.log('esbuild: watching for changes');
} else {
  // The CLI as it ships, in every build: minified, one file, each part compiled when first needed.
  await Promise.all([...configs.map((config) => esbuild.build(config)), buildPackedCli({ entry: 'src/cli/main.ts', worker: 'src/cli/workerEntry.ts', outfile: 'dist/cli.js' })]);
  // The npm package ships that very file.
  fillCliPackage('dist/cli.js');
}
