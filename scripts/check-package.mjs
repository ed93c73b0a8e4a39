// The packaging check of `npm test`: builds the .vsix offline and fails unless it holds only
// what runs and what the marketplace shows.
//   --out <file>  also writes the package's size as a benchmark results file
//                 (bench/results-package.json), which BENCHMARKS.md's table quotes.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readVSIXPackage } from 'ovsx/lib/zip.js';
import yauzl from 'yauzl';
import { sh } from './ensure-deps.mjs';

const VSIX = 'docs-admin.vsix';
const ALLOWED = [
  /^extension\.vsixmanifest$/,
  /^\[Content_Types\]\.xml$/,
  /^extension\/package\.json$/,
  /^extension\/package\.nls(\.[a-z-]+)?\.json$/,
  /^extension\/l10n\/bundle\.l10n\.[a-z-]+\.json$/,
  /^extension\/dist\/extension\.js$/,
  /^extension\/dist\/extractWorker\.js$/,
  /^extension\/(readme|changelog)\.md$/i,
  /^extension\/LICENSE(\.txt|\.md)?$/i,
  /^extension\/media\/[\w./-]+\.(svg|png|md)$/,
];
const REQUIRED = ['extension/package.json', 'extension/package.nls.json', 'extension/dist/extension.js', 'extension/dist/extractWorker.js', 'extension/readme.md'];

/** File names in a zip, from its central directory (yauzl reads it; entries are not opened). */
function zipEntries(path) {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: true }, (error, zip) => {
      if (error) return reject(new Error(`${VSIX} is not a zip file: ${error.message}`));
      const names = [];
      zip.on('entry', (entry) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

sh('npm', ['run', '--silent', 'package']);
const names = await zipEntries(VSIX);
// Open VSX takes the namespace and name from the package's own manifest (ovsx publish reads it
// so, before any request): they must be this package.json's.
const packed = await readVSIXPackage(VSIX);
const source = JSON.parse(readFileSync('package.json', 'utf8'));
for (const field of ['publisher', 'name', 'version', 'license']) {
  if (packed[field] !== source[field]) {
    console.error(`${VSIX}: ${field} is ${JSON.stringify(packed[field])} as ovsx reads it, ${JSON.stringify(source[field])} in package.json.`);
    process.exit(1);
  }
}
const unexpected = names.filter((name) => !ALLOWED.some((pattern) => pattern.test(name)));
const missing = REQUIRED.filter((required) => !names.some((name) => name.toLowerCase() === required.toLowerCase()));
const size = statSync(join(process.cwd(), VSIX)).size;
console.log(`${VSIX}: ${names.length} files, ${(size / 1024).toFixed(1)} KiB`);
for (const name of names) console.log(`  ${name}`);
// The goal was 400 KiB; it is missed, and this gate now only stops growth beyond what is
// measured. 400 KiB until reader analytics (issue 30, +22 KiB: main 402.4 -> 424.3 KiB); then
// the language-model tools, the deep links and the release section (issue 31) and the download
// check (issue 26): 440.9 KiB on 2026-11-27. Half of dist/extension.js is undici (524 of 1,053 KB
// minified): that is where the next saving lies. See BENCHMARKS.md ("Size").
const LIMIT_KIB = 450;
/** The size goal of the .vsix (missed since reader analytics: BENCHMARKS.md). */
const GOAL_KIB = 400;

const { values: flags } = parseArgs({ options: { out: { type: 'string' } } });
if (flags.out !== undefined) {
  // A results file as `npm run bench` writes them (bench/run.ts), for BENCHMARKS.md's table. A
  // size does not depend on the machine's load: none is refused for it, but it is recorded.
  const git = (...args) => spawnSync('git', args, { encoding: 'utf8' });
  const head = git('rev-parse', 'HEAD');
  const dirty = git('status', '--porcelain', '--untracked-files=no');
  const extension = statSync('dist/extension.js').size;
  const cores = cpus().length;
  const load = loadavg();
  const results = {
    date: new Date().toISOString(),
    quick: false,
    loaded: false,
    commit: head.status === 0 ? head.stdout.trim() : 'unknown',
    dirty: dirty.status !== 0 || dirty.stdout.trim() !== '',
    runs: 1,
    seconds: 0,
    machine: { cpu: cpus()[0]?.model ?? 'unknown', cores, memoryGiB: Math.round(totalmem() / 1024 ** 3), node: process.version, platform: `${process.platform} ${process.arch}`, load: { start: load, end: loadavg() }, loadGate: 0.75 * cores },
    environment: 'a size: the load does not change it',
    results: [
      {
        name: 'package',
        measures: [
          { metric: `${VSIX} (npm run package)`, unit: 'KiB', ours: Math.round((size / 1024) * 10) / 10, goal: `<= ${GOAL_KIB} KiB`, pass: size <= GOAL_KIB * 1024 },
          { metric: 'dist/extension.js, minified', unit: 'KiB', ours: Math.round((extension / 1024) * 10) / 10 },
        ],
        notes: [`${names.length} files in the package; the check fails above ${LIMIT_KIB} KiB.`],
      },
    ],
  };
  writeFileSync(flags.out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`results written to ${flags.out}`);
}
if (size > LIMIT_KIB * 1024) {
  console.error(`${VSIX} is ${(size / 1024).toFixed(1)} KiB, over the ${LIMIT_KIB} KiB limit (the goal, 400 KiB, is already missed: see BENCHMARKS.md).`);
  process.exit(1);
}
if (unexpected.length > 0 || missing.length > 0) {
  if (unexpected.length > 0) console.error(`The package holds files it must not ship: ${unexpected.join(', ')} (fix .vscodeignore).`);
  if (missing.length > 0) console.error(`The package lacks: ${missing.join(', ')}.`);
  process.exit(1);
}

// The README is the marketplace page: every command and every setting the manifest contributes
// must be in it (a command by its title, a setting by its key).
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
let nls = {};
try {
  nls = JSON.parse(readFileSync('package.nls.json', 'utf8'));
} catch {
  // Not localised yet: titles are plain text.
}
const resolve = (value) => (typeof value === 'string' ? value.replace(/^%([^%]+)%$/, (_m, key) => nls[key] ?? value) : '');
const readme = readFileSync('README.md', 'utf8');
const absent = [];
for (const cmd of manifest.contributes.commands) {
  const title = resolve(cmd.title);
  if (!readme.includes(title)) absent.push(`command "${title}" (${cmd.command})`);
}
for (const config of [manifest.contributes.configuration].flat()) {
  for (const key of Object.keys(config.properties)) if (!readme.includes(`\`${key}\``)) absent.push(`setting \`${key}\``);
}
if (absent.length > 0) {
  console.error(`README.md does not mention:\n${absent.map((a) => `  - ${a}`).join('\n')}`);
  process.exit(1);
}
console.log(`README.md: every command (${manifest.contributes.commands.length}) and setting is described`);
