// The localisation check of `npm test`: a translation must be one file away.
// - l10n/bundle.l10n.json holds exactly the strings the code passes to l10n.t() (vscode.l10n.t in
//   the adapters, @vscode/l10n's t in the core): exported afresh and compared.
// - Every user-facing string of the manifest is a %key% found in package.nls.json, and every key
//   there is used.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Paths below are the repository's.
process.chdir(fileURLToPath(new URL('..', import.meta.url)));

const problems = [];

// 1. The bundle of the code's strings.
const fresh = mkdtempSync(join(tmpdir(), 'docs-admin-l10n-'));
try {
  // Quiet unless it fails: it warns that a temporary outDir is not the manifest's l10n folder.
  const run = spawnSync(process.execPath, ['node_modules/@vscode/l10n-dev/dist/cli.js', 'export', '--outDir', fresh, './src'], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`vscode-l10n-dev export failed (exit ${run.status ?? run.signal}):\n${run.stdout}${run.stderr}`);
  // The exporter writes no file when the code has no string yet.
  const exported = join(fresh, 'bundle.l10n.json');
  const want = existsSync(exported) ? JSON.parse(readFileSync(exported, 'utf8')) : {};
  let have = {};
  try {
    have = JSON.parse(readFileSync('l10n/bundle.l10n.json', 'utf8'));
  } catch {
    problems.push('l10n/bundle.l10n.json is missing or not JSON: run `npm run l10n`.');
  }
  const missing = Object.keys(want).filter((k) => !(k in have));
  const stale = Object.keys(have).filter((k) => !(k in want));
  if (missing.length > 0 || stale.length > 0) {
    problems.push(
      `l10n/bundle.l10n.json is out of date (${missing.length} string(s) missing, ${stale.length} no longer used): run \`npm run l10n\`.` +
        [...missing.slice(0, 5).map((k) => `\n    missing: ${JSON.stringify(k)}`), ...stale.slice(0, 5).map((k) => `\n    unused: ${JSON.stringify(k)}`)].join(''),
    );
  }
  console.log(`l10n/bundle.l10n.json: ${Object.keys(want).length} strings from the code`);
} finally {
  rmSync(fresh, { recursive: true, force: true });
}

// 2. The manifest.
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
let nls = {};
try {
  nls = JSON.parse(readFileSync('package.nls.json', 'utf8'));
} catch {
  problems.push('package.nls.json is missing or not JSON.');
}
const used = new Set();
/** Checks one user-facing manifest string: a %key% that package.nls.json defines. */
function text(where, value) {
  if (value === undefined) return;
  if (typeof value !== 'string') return problems.push(`${where}: not a string`);
  const m = /^%([^%]+)%$/.exec(value);
  if (m === null) return problems.push(`${where} is not localised: use a %key% defined in package.nls.json (${JSON.stringify(value.slice(0, 60))})`);
  used.add(m[1]);
  if (!(m[1] in nls)) problems.push(`${where}: ${value} is not in package.nls.json`);
}
const c = manifest.contributes ?? {};
text('displayName', manifest.displayName);
text('description', manifest.description);
for (const cap of Object.values(manifest.capabilities ?? {})) if (typeof cap === 'object') text('capabilities description', cap.description);
for (const cmd of c.commands ?? []) {
  text(`command ${cmd.command} title`, cmd.title);
  text(`command ${cmd.command} category`, cmd.category);
  text(`command ${cmd.command} shortTitle`, cmd.shortTitle);
}
for (const containers of Object.values(c.viewsContainers ?? {})) for (const v of containers) text(`views container ${v.id}`, v.title);
for (const views of Object.values(c.views ?? {})) for (const v of views) text(`view ${v.id}`, v.name);
for (const w of c.viewsWelcome ?? []) text(`views welcome of ${w.view} (${w.when})`, w.contents);
for (const w of c.walkthroughs ?? []) {
  text(`walkthrough ${w.id} title`, w.title);
  text(`walkthrough ${w.id} description`, w.description);
  for (const s of w.steps ?? []) {
    text(`walkthrough step ${s.id} title`, s.title);
    text(`walkthrough step ${s.id} description`, s.description);
    if (s.media?.altText !== undefined) text(`walkthrough step ${s.id} altText`, s.media.altText);
  }
}
for (const config of [c.configuration ?? []].flat()) {
  text('configuration title', config.title);
  for (const [key, prop] of Object.entries(config.properties ?? {})) {
    text(`setting ${key} description`, prop.markdownDescription ?? prop.description);
    for (const [i, d] of (prop.markdownEnumDescriptions ?? prop.enumDescriptions ?? []).entries()) text(`setting ${key} enum description ${i}`, d);
    text(`setting ${key} deprecation`, prop.markdownDeprecationMessage ?? prop.deprecationMessage);
  }
}
for (const language of c.languages ?? []) for (const [i, alias] of (language.aliases ?? []).entries()) text(`language ${language.id} alias ${i}`, alias);
for (const task of c.taskDefinitions ?? []) for (const [key, prop] of Object.entries(task.properties ?? {})) text(`task ${task.type} ${key}`, prop.description);
const unused = Object.keys(nls).filter((k) => !used.has(k));
if (unused.length > 0) problems.push(`package.nls.json has keys nothing uses: ${unused.join(', ')}`);
console.log(`package.nls.json: ${Object.keys(nls).length} manifest strings`);

if (problems.length > 0) {
  for (const p of problems) console.error(`- ${p}`);
  process.exit(1);
}
console.log('localisation: every string of the code and the manifest can be translated');
