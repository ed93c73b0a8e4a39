// The documents' test numbers, recounted from the tests by their names (issue 20): the
// reliability suite's in docs/reliability.md, the suites' sizes in CONTRIBUTING.md (Testing).
//
//   node scripts/recount.mjs           check: exit 1 and say what differs when a page and the tests disagree
//   node scripts/recount.mjs --write   rewrite the pages' numbers to what the tests hold
//   node scripts/recount.mjs --list    print each counted test with its group and kind
//   (--no-build: use the build in out/ as it is; `npm test` passes it, having just built)
//
// It lists every test without running one (mocha --dry-run, about 2 s): the unit suite, the
// integration suite and the pseudo-locale suite. The integration files import `vscode`, which
// exists only in the extension host: for the listing alone, `vscode` is an inert stand-in (no
// test runs; only the titles are read).
//
// A test belongs to a reliability group by a tag in its title or in the title of a `describe`
// around it (the spec reporter and `--grep` see it too):
//   @api-faults @soak @secrets @networks @bundles @ranges @input @state
// A counted case injects a fault or a hostile input and asserts both what the person sees and
// what is kept. What asserts less is counted apart, in its own column, by a second tag:
//   @row       a row of a table: one input, one answer of a pure function
//   @control   a control (the happy path beside the faults) or a test of a helper the cases use
//   @seen      asserts what the person sees (the message, the exit code), not what is kept
// A test with a kind tag and no group tag, two group tags, or a tag not listed here fails the
// recount, and so does a test in test/unit/reliability/ or test/integration/reliability.test.ts
// without a group: a typo or a new describe must not drop a case silently.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RELIABILITY = 'docs/reliability.md';
const TESTING = 'CONTRIBUTING.md';
const MOCHA = join(ROOT, 'node_modules/mocha/bin/mocha.js');

/** The reliability table (docs/reliability.md): the group's tag, and the text of its first column. */
const GROUPS = [
  ['api-faults', 'API faults, through the client, the jobs service and the CLI'],
  ['soak', 'soak'],
  ['secrets', 'secrets'],
  ['networks', 'networks'],
  ['bundles', 'bundles'],
  ['ranges', 'the download in byte ranges'],
  ['input', 'input'],
  ['state', 'state'],
];
const KINDS = { row: ['table row', 'table rows'], control: ['control', 'controls'], seen: ['check of the message only', 'checks of the message only'] };
/** Files that hold reliability tests only: each of their tests must carry a group tag. */
const RELIABILITY_FILES = /^out\/test\/(unit\/reliability\/[^/]+|integration\/reliability)\.test\.js$/;
const TAG = /(?:^|\s)@([a-z][a-z-]*)(?=[\s,:;)]|$)/g;

const args = new Set(process.argv.slice(2));
const write = args.has('--write');

// ---------------------------------------------------------------- listing
const STUB = `
const Module = require('node:module');
const inert = new Proxy(function () {}, {
  get: (_t, p) => (p === Symbol.toPrimitive ? () => '' : p === 'then' ? undefined : inert),
  apply: () => inert,
  construct: () => inert,
});
const load = Module._load;
Module._load = function (request, ...rest) { return request === 'vscode' ? inert : load.call(this, request, ...rest); };
`;

function list(work, name, mochaArgs) {
  const output = join(work, `${name}.json`);
  const run = spawnSync(process.execPath, [MOCHA, '--dry-run', '--reporter', 'json', '--reporter-option', `output=${output}`, ...mochaArgs], { cwd: ROOT, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`listing the ${name} tests failed (exit ${run.status}):\n${run.stdout}${run.stderr}`);
  return JSON.parse(readFileSync(output, 'utf8')).tests.map((t) => ({ suite: name, title: t.fullTitle, file: t.file.slice(ROOT.length + 1) }));
}

function listAll() {
  if (!args.has('--no-build')) {
    const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}${build.stderr}`);
  }
  const work = mkdtempSync(join(tmpdir(), 'docs-admin-recount-'));
  try {
    const stub = join(work, 'vscode-stand-in.cjs');
    writeFileSync(stub, STUB);
    const host = ['--no-config', '--require', stub];
    return {
      unit: list(work, 'unit', []),
      integration: list(work, 'integration', [...host, 'out/test/integration/*.test.js']),
      pseudoLocale: list(work, 'pseudo-locale', [...host, 'out/test/integration/l10n/*.test.js']),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- counting
function classify(tests) {
  // One line per problem, however many tests share it (a tag on a describe reaches all of them).
  const found = new Map();
  const problems = { push: (problem, test) => {
    const seen = found.get(problem) ?? { count: 0, example: `"${test.title}" (${test.file})` };
    seen.count++;
    found.set(problem, seen);
  } };
  const groupTags = new Set(GROUPS.map(([tag]) => tag));
  for (const test of tests) {
    const tags = [...test.title.matchAll(TAG)].map((m) => m[1]);
    const unknown = tags.filter((t) => !groupTags.has(t) && !(t in KINDS));
    const groups = [...new Set(tags.filter((t) => groupTags.has(t)))];
    const kinds = [...new Set(tags.filter((t) => t in KINDS))];
    if (unknown.length > 0) problems.push(`unknown tag ${unknown.map((t) => `@${t}`).join(', ')}`, test);
    if (groups.length > 1) problems.push(`two groups (${groups.join(', ')})`, test);
    if (kinds.length > 1) problems.push(`two kinds (${kinds.join(', ')})`, test);
    if (groups.length === 0 && kinds.length > 0) problems.push(`@${kinds[0]} without a group`, test);
    // A test added to a reliability file belongs to a group: a new describe without its tag would drop out of the count unseen.
    if (groups.length === 0 && RELIABILITY_FILES.test(test.file)) problems.push('no group tag in a reliability file (tag it, or its describe, with one of the groups)', test);
    test.group = groups[0];
    test.kind = kinds[0] ?? 'case';
  }
  return [...found].map(([problem, { count, example }]) => `${problem}: ${count === 1 ? '' : `${count} tests, as `}${example}`);
}

function count(listing) {
  const tally = {};
  for (const [tag] of GROUPS) tally[tag] = { unit: 0, host: 0, apart: { row: 0, control: 0, seen: 0 } };
  for (const test of [...listing.unit, ...listing.integration]) {
    if (test.group === undefined) continue;
    const group = tally[test.group];
    if (test.kind !== 'case') group.apart[test.kind]++;
    else if (test.suite === 'unit') group.unit++;
    else group.host++;
  }
  return tally;
}

// ---------------------------------------------------------------- the pages' numbers
const plural = (n, [one, many]) => `${n} ${n === 1 ? one : many}`;
const casesCell = ({ unit, host }) => (host === 0 ? String(unit) : `${unit} unit + ${host} in the host`);
const apartCell = ({ apart }) => Object.entries(apart).filter(([, n]) => n > 0).map(([kind, n]) => plural(n, KINDS[kind])).join(', ') || 'none';
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Each claim: the page it stands in, where (a pattern, its numbers captured), and what they must be. */
function claims(listing, tally) {
  const sum = (f) => Object.values(tally).reduce((n, g) => n + f(g), 0);
  const unit = sum((g) => g.unit);
  const host = sum((g) => g.host);
  const apart = sum((g) => Object.values(g.apart).reduce((a, b) => a + b, 0));
  const soak = listing.unit.filter((t) => t.group === 'soak' && t.kind === 'case');
  const soakNumbers = soak.length === 1 ? /(\d+) jobs, (\d+) min of virtual time, (\d+) % random faults of (\d+) kinds/.exec(soak[0].title) : null;
  const out = [
    { what: 'the reliability total', file: RELIABILITY, pattern: /a reliability suite of \*\*(\d+) cases\*\* \((\d+) unit tests on the core and the CLI, (\d+)\s+in the real VS Code host\)/, values: [unit + host, unit, host] },
    { what: 'the tests counted apart', file: RELIABILITY, pattern: /counted apart, in their own column: \*\*(\d+)\*\* tests/, values: [apart] },
    { what: 'the test suites\' sizes', file: TESTING, pattern: /`npm test` runs (\d+) unit tests, (\d+) integration tests in the real host and (\d+) in the pseudo-locale/, values: [listing.unit.length, listing.integration.length, listing.pseudoLocale.length] },
  ];
  if (soakNumbers === null) throw new Error(`the soak is one @soak test whose title says "<n> jobs, <n> min of virtual time, <n> % random faults of <n> kinds" (found ${soak.length})`);
  out.push({ what: 'the soak', file: RELIABILITY, pattern: /(\d+) tracked jobs, (\d+) minutes of virtual time, (\d+) % random faults of (\d+) kinds/, values: soakNumbers.slice(1).map(Number) });
  for (const [tag, label] of GROUPS) {
    out.push({ what: `the ${label} row`, file: RELIABILITY, pattern: new RegExp(`^\\| ${escape(label)} \\| ([^|]*?) \\| ([^|]*?) \\|`, 'm'), values: [casesCell(tally[tag]), apartCell(tally[tag])] });
  }
  return out;
}

function recount(text, all) {
  const problems = [];
  let next = text;
  for (const claim of all) {
    const global = new RegExp(claim.pattern.source, `${claim.pattern.flags}g`);
    const found = [...next.matchAll(global)];
    if (found.length !== 1) {
      problems.push(`${claim.what}: ${claim.file} holds ${found.length} places matching ${claim.pattern} (needs exactly one)`);
      continue;
    }
    const [match] = found;
    const held = match.slice(1);
    const wanted = claim.values.map(String);
    if (held.every((v, i) => v === wanted[i])) continue;
    problems.push(`${claim.what}: ${claim.file} says ${held.join(' / ')}, the tests hold ${wanted.join(' / ')}`);
    // Replace each captured number in place, left to right.
    let piece = match[0];
    let from = 0;
    for (let i = 0; i < held.length; i++) {
      const at = piece.indexOf(held[i], from);
      piece = `${piece.slice(0, at)}${wanted[i]}${piece.slice(at + held[i].length)}`;
      from = at + wanted[i].length;
    }
    next = `${next.slice(0, match.index)}${piece}${next.slice(match.index + match[0].length)}`;
  }
  return { next, problems };
}

// ---------------------------------------------------------------- main
try {
  const listing = listAll();
  const tagProblems = classify([...listing.unit, ...listing.integration, ...listing.pseudoLocale]);
  if (tagProblems.length > 0) throw new Error(`tags that cannot be counted:\n  ${tagProblems.join('\n  ')}`);
  if (args.has('--list')) {
    for (const t of [...listing.unit, ...listing.integration]) if (t.group !== undefined) console.log(`${t.group.padEnd(11)} ${t.kind.padEnd(8)} ${t.suite.padEnd(12)} ${t.title}`);
  }
  // Each host suite's entry declares the fewest tests it may run: never more than it holds.
  for (const [name, entry, tests] of [['integration', 'test/integration/index.ts', listing.integration], ['pseudo-locale', 'test/integration/l10n/index.ts', listing.pseudoLocale]]) {
    const declared = Number(/MINIMUM_TESTS = (\d+)/.exec(readFileSync(join(ROOT, entry), 'utf8'))?.[1]);
    if (!(declared > 0)) throw new Error(`${entry} declares no MINIMUM_TESTS`);
    if (declared > tests.length) throw new Error(`${entry} declares at least ${declared} ${name} tests, but the suite holds ${tests.length}`);
    if (declared < tests.length) console.log(`note: ${entry} declares at least ${declared} ${name} tests; the suite holds ${tests.length} (raise it)`);
  }
  const tally = count(listing);
  const all = claims(listing, tally);
  const pages = [...new Set(all.map((c) => c.file))].map((file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    return { file, text, ...recount(text, all.filter((c) => c.file === file)) };
  });
  const problems = pages.flatMap((p) => p.problems);
  const unmatched = problems.filter((p) => p.includes('places matching'));
  if (write && unmatched.length === 0) {
    for (const page of pages) {
      if (page.next !== page.text) writeFileSync(join(ROOT, page.file), page.next);
      console.log(page.problems.length === 0 ? `${page.file}: every number already what the tests hold` : `${page.file} rewritten:\n  ${page.problems.join('\n  ')}`);
    }
  } else if (problems.length > 0) {
    console.error(`The pages and the tests disagree (node scripts/recount.mjs --write updates the pages):\n  ${problems.join('\n  ')}`);
    process.exit(1);
  } else {
    const cases = Object.values(tally).reduce((n, g) => n + g.unit + g.host, 0);
    console.log(`${pages.map((p) => p.file).join(' and ')} agree with the tests: ${cases} reliability cases; ${listing.unit.length} unit, ${listing.integration.length} integration, ${listing.pseudoLocale.length} pseudo-locale tests`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
