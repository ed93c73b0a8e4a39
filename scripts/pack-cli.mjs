// Builds the CLI as one self-contained file (dist/cli.js) that loads only what a command needs.
//
// A plain bundle is one 0.9 MB script: Node compiles all of it before the first line runs, which
// took 30 ms of a 55 ms `docs-admin --version` (a CPU profile: wrapSafe), whatever the command.
// So esbuild splits the CLI at its dynamic imports (one chunk per command group, the HTTP client,
// the extractor...), each chunk becomes a CommonJS function body kept as a string in the file,
// and a small loader compiles a chunk the first time something requires it, so a command pays
// for compiling its own code only. Every chunk but the entries is stored deflated (base64): with
// the MCP SDK in it the file grew from 1.03 to 1.34 MB of text that every command read (+4.9 ms
// on `--version`, bench/HISTORY.md); deflated it is 0.58 MB, and a chunk is inflated (node:zlib)
// when first needed. The deflated chunks sit in one comment at the end of the file, not in a
// string table: V8 skips a comment at memchr speed, but builds every string of a table, which
// cost every command (and every worker thread) about 5 ms of CPU before its first line ran; the
// loader reads that comment from the file the first time a chunk is needed. Minified: this is
// the CLI as it ships.
//
// The file is the archive worker's script too (a download's check, an extraction): a worker thread
// loads its own entry (worker.js, src/cli/workerEntry.ts: the archive worker or a site parse worker),
// never the command line's, so a download's check thread compiles only the check.
import * as esbuild from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { dirname } from 'node:path';

const LOADER = `#!/usr/bin/env node
"use strict";
// docs-admin: one file; its parts compile when first needed (scripts/pack-cli.mjs).
const { compileFunction } = require("node:vm");
const has = (table, name) => Object.prototype.hasOwnProperty.call(table, name);
const loaded = new Map();
let packed;
/** A chunk's code: an entry's as it is; any other's inflated from the comment that ends this file. */
function code(name) {
  if (has(ENTRIES, name)) return ENTRIES[name];
  if (packed === undefined) {
    const file = require("node:fs").readFileSync(__filename, "latin1");
    packed = file.slice(file.lastIndexOf("\\n/*") + 3);
  }
  const [at, length] = PACKED[name];
  return require("node:zlib").inflateRawSync(Buffer.from(packed.slice(at, at + length), "base64")).toString("utf8");
}
function load(name, into) {
  const cached = loaded.get(name);
  if (cached !== undefined) return cached.exports;
  const mod = into ?? { exports: {} };
  loaded.set(name, mod);
  const text = code(name);
  const body = compileFunction(text, ["exports", "require", "module", "__filename", "__dirname"], { filename: __filename + "#" + name });
  body.call(mod.exports, mod.exports, need, mod, __filename, __dirname);
  return mod.exports;
}
function need(id) {
  const name = id.startsWith("./") ? id.slice(2) : id;
  return has(ENTRIES, name) || has(PACKED, name) ? load(name) : require(id);
}
need.main = require.main;
need.resolve = require.resolve;
`;

/** The chunks stored as text: the command line's entry and the worker threads'. */
const ENTRY_NAMES = ['main.js', 'worker.js'];
/** Chunks of fewer characters are stored as text too. */
const PLAIN_BELOW = 2048;

/** Writes `outfile`: the CLI from `entry` and its worker threads from `worker`, packed as above. */
export async function buildPackedCli({ entry, worker, outfile }) {
  const result = await esbuild.build({
    entryPoints: { main: entry, worker },
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
  const entries = {};
  /** Each deflated chunk's place in the comment at the end: [offset, length] of its base64. */
  const places = {};
  let data = '';
  for (const file of result.outputFiles) {
    const name = file.path.slice(file.path.lastIndexOf('/') + 1);
    const cjs = await esbuild.transform(file.text, { format: 'cjs', loader: 'js', target: 'node20', minify: true, logLevel: 'warning', supported: { 'dynamic-import': false } });
    // The entries, and chunks too small for deflate to matter (they spare a small command loading zlib), as text.
    if (ENTRY_NAMES.includes(name) || cjs.code.length < PLAIN_BELOW) {
      entries[name] = cjs.code;
      continue;
    }
    // Every part but the entries is stored deflated: the file every command reads is a third the size.
    const base64 = deflateRawSync(cjs.code, { level: 9 }).toString('base64');
    places[name] = [data.length, base64.length];
    data += base64;
  }
  for (const name of ENTRY_NAMES) if (!(name in entries)) throw new Error(`pack-cli: no ${name} among the chunks`);
  const table = (object) => `{\n${Object.entries(object).map(([name, value]) => `  ${JSON.stringify(name)}: ${JSON.stringify(value)}`).join(',\n')}\n}`;
  mkdirSync(dirname(outfile), { recursive: true });
  // Base64 has no '*' and no line break: the comment holds it whole, and it is the file's last "\n/*".
  const start = 'load(require("node:worker_threads").isMainThread ? "main.js" : "worker.js", module);';
  writeFileSync(outfile, `${LOADER}const ENTRIES = ${table(entries)};\nconst PACKED = ${table(places)};\n${start}\n/*${data}*/\n`, { mode: 0o755 });
  return Object.keys(entries).length + Object.keys(places).length;
}
