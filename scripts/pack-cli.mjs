// Builds the CLI as one self-contained file (dist/cli.js) that loads only what a command needs.
//
// A plain bundle is one 0.9 MB script: Node compiles all of it before the first line runs, which
// took 30 ms of a 55 ms `docs-admin --version` (a CPU profile: wrapSafe), whatever the command.
// So esbuild splits the CLI at its dynamic imports (one chunk per command group, the HTTP client,
// the extractor...), each chunk becomes a CommonJS function body kept as a string in the file,
// and a small loader compiles a chunk the first time something requires it, so a command pays
// for compiling its own code only. Every chunk but the entry is stored deflated (base64): with
// the MCP SDK in it the file grew from 1.03 to 1.34 MB of text that every command read (+4.9 ms
// on `--version`, BENCHMARKS.md); deflated it is 0.58 MB, and a chunk is inflated (node:zlib)
// when first needed. Minified: this is the CLI as it ships.
import * as esbuild from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { dirname } from 'node:path';

const LOADER = `#!/usr/bin/env node
"use strict";
// docs-admin: one file; its parts compile when first needed (scripts/pack-cli.mjs).
const { compileFunction } = require("node:vm");
const loaded = new Map();
function load(name, into) {
  const cached = loaded.get(name);
  if (cached !== undefined) return cached.exports;
  const mod = into ?? { exports: {} };
  loaded.set(name, mod);
  const text = name === "main.js" ? CHUNKS[name] : require("node:zlib").inflateRawSync(Buffer.from(CHUNKS[name], "base64")).toString("utf8");
  const body = compileFunction(text, ["exports", "require", "module", "__filename", "__dirname"], { filename: __filename + "#" + name });
  body.call(mod.exports, mod.exports, need, mod, __filename, __dirname);
  return mod.exports;
}
function need(id) {
  const name = id.startsWith("./") ? id.slice(2) : id;
  return Object.prototype.hasOwnProperty.call(CHUNKS, name) ? load(name) : require(id);
}
need.main = require.main;
need.resolve = require.resolve;
`;

/** Writes `outfile`: the CLI from `entry`, packed as above. */
export async function buildPackedCli({ entry, outfile }) {
  const result = await esbuild.build({
    entryPoints: { main: entry },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minify: true,
    outdir: 'packed-cli',
    chunkNames: 'chunk-[hash]',
    write: false,
    logLevel: 'warning',
    legalComments: 'none',
    // jsonc-parser's main build is UMD, whose require() of its own parts a bundler cannot follow.
    alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
    // The code is CommonJS-minded (require.main, __filename, __dirname): the loader provides them.
    logOverride: { 'commonjs-variable-in-esm': 'silent' },
  });
  const chunks = {};
  for (const file of result.outputFiles) {
    const name = file.path.slice(file.path.lastIndexOf('/') + 1);
    const cjs = await esbuild.transform(file.text, { format: 'cjs', loader: 'js', target: 'node20', minify: true, logLevel: 'warning', supported: { 'dynamic-import': false } });
    // Every part but the entry is stored deflated: the file every command reads is a third the size.
    chunks[name] = name === 'main.js' ? cjs.code : deflateRawSync(cjs.code, { level: 9 }).toString('base64');
  }
  if (!('main.js' in chunks)) throw new Error('pack-cli: no main.js among the chunks');
  const table = Object.entries(chunks)
    .map(([name, code]) => `  ${JSON.stringify(name)}: ${JSON.stringify(code)}`)
    .join(',\n');
  mkdirSync(dirname(outfile), { recursive: true });
  writeFileSync(outfile, `${LOADER}const CHUNKS = {\n${table}\n};\nload("main.js", module);\n`, { mode: 0o755 });
  return Object.keys(chunks).length;
}
