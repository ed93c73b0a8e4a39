/**
 * `docs-admin check` as a child process (the packed dist/cli.js, as it ships): its four formats,
 * its exit codes (0 clean, 1 an error, 2 bad usage), SARIF valid against the SARIF 2.1.0 schema,
 * GitHub annotations that a hostile file cannot turn into commands of its own, and its cache.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { docsJson, writeSite } from './support/site';

const CLI = resolve(__dirname, '../../../dist/cli.js');
const SARIF_SCHEMA = resolve(__dirname, '../../../node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');

function cli(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [CLI, ...args], { cwd, env: { PATH: process.env.PATH, HOME: cwd } }, (error, stdout, stderr) => {
      done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

describe('docs-admin check, as a child process', function () {
  this.timeout(120_000);
  let dir: string;
  let clean: string;
  let broken: string;

  before(() => {
    assert.ok(existsSync(CLI), `${CLI} is built by "node esbuild.mjs"`);
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-check-'));
    clean = join(dir, 'clean');
    broken = join(dir, 'broken');
    writeSite(clean, { 'docs.json': docsJson(['index', 'guide']), 'index.mdx': '# Home\n\nSee [the guide](/guide#setup).\n', 'guide.mdx': '## Setup\n' });
    writeSite(broken, {
      'docs.json': docsJson(['index']),
      // A hostile target: a line break, an escape sequence and a workflow command of its own.
      'index.mdx': '# Home\n\n[a](/missing) and [b](</x%0A::add-mask::secret\u001b[31m>)\n',
    });
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 0 on a clean site, and says so', async () => {
    const run = await cli(['check', '--no-cache'], clean);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '0 errors, 0 warnings, 0 notes, 0 hints in 3 files.\n');
  });

  it('exits 1 on an error, with each problem on its line (text)', async () => {
    const run = await cli(['check', '--root', broken, '--no-cache'], dir);
    assert.equal(run.code, 1, run.stderr);
    const lines = run.stdout.trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^index\.mdx:3:5: error link-missing: "\/missing" leads to no page or file/);
    assert.equal(lines.at(-1), '2 errors, 0 warnings, 0 notes, 0 hints in 2 files.');
    assert.ok(!run.stdout.includes('\u001b'), 'no escape sequence reaches the terminal');
  });

  it('exits 2 on bad usage: an unknown format, a folder without docs.json', async () => {
    const format = await cli(['check', '--format', 'xml', '--no-cache'], clean);
    assert.equal(format.code, 2);
    assert.match(format.stderr, /--format takes text, json, sarif or github, not "xml"/);
    const root = await cli(['check', '--root', dir, '--no-cache'], dir);
    assert.equal(root.code, 2);
    assert.match(root.stderr, /holds no docs\.json: pass the docs root/);
  });

  it('prints JSON with every problem\'s span', async () => {
    const run = await cli(['check', '--format', 'json', '--no-cache'], broken);
    const data = JSON.parse(run.stdout) as { summary: { errors: number }; problems: { code: string; span: { start: { line: number; column: number } } }[] };
    assert.equal(data.summary.errors, 2);
    assert.deepEqual(data.problems.map((p) => `${p.code} ${p.span.start.line}:${p.span.start.column}`), ['link-missing 3:5', 'link-missing 3:24']);
  });

  it('prints SARIF 2.1.0 that its schema accepts', async () => {
    const run = await cli(['check', '--format', 'sarif', '--no-cache'], broken);
    assert.equal(run.code, 1);
    const ajv = new Ajv({ strict: false, unicodeRegExp: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(SARIF_SCHEMA, 'utf8')) as object);
    const log = JSON.parse(run.stdout) as { runs: { results: { ruleId: string }[] }[] };
    assert.ok(validate(log), JSON.stringify(validate.errors));
    assert.deepEqual(log.runs[0]?.results.map((r) => r.ruleId), ['link-missing', 'link-missing']);
    // And it can fail: a result without a message is not SARIF.
    assert.equal(validate({ version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ ruleId: 'x' }] }] }), false);
  });

  it('writes GitHub annotations, one line each, with no command but its own', async () => {
    const run = await cli(['check', '--format', 'github', '--root', 'broken', '--no-cache'], dir);
    assert.equal(run.code, 1);
    const lines = run.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 3);
    assert.match(lines[0] ?? '', /^::error file=broken\/index\.mdx,line=3,col=5,endLine=3,endColumn=13,title=docs-admin link-missing::"\/missing" leads/);
    assert.match(lines[1] ?? '', /^::error file=broken\/index\.mdx,line=3,col=24,/);
    assert.ok(!/^::add-mask/m.test(run.stdout) && !run.stdout.includes('\u001b'), run.stdout);
    assert.ok(lines.slice(0, 2).every((l) => l.split('::').length === 3 || !/\n/.test(l)), 'the hostile target stays inside its annotation');
  });

  it('keeps what it parsed in the cache file: the second run parses nothing and reports the same', async () => {
    // (The site: docs.json and one page.)
    const cache = join(dir, 'cache.json');
    const first = await cli(['check', '--format', 'json', '--cache', cache, '--verbose'], broken);
    assert.match(first.stderr, /1 parsed, 0 from the cache/);
    const second = await cli(['check', '--format', 'json', '--cache', cache, '--verbose'], broken);
    assert.match(second.stderr, /0 parsed, 1 from the cache/);
    assert.equal(second.stdout, first.stdout);
  });
});
