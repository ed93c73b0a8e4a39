/**
 * The CLI's npm package as a CI user gets it: `npm pack` of cli/, the tarball installed into a
 * fresh folder with no network (an unreachable registry, an empty cache, offline), then
 * `npx docs-admin` from that folder: help, version, and a whole export → download → extract
 * against the simulator.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Simulator } from '../simulator';
import { collector } from './support/collector';
import { storeCertificates, tlsStorage } from './support/tlsStore';

const ROOT = resolve(__dirname, '../../..');
const CLI_DIR = join(ROOT, 'cli');
const KEY = 'da_package_test_key_5e0b41';

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Outcome> {
  return new Promise((done) => {
    execFile(command, args, { cwd, env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

describe('the CLI npm package (cli/), packed, installed offline and run with npx', function () {
  this.timeout(120_000);
  let work: string;
  let project: string;
  let tarball: string;
  let sim: Simulator;
  /** npm with nothing of the user's or the parent npm's settings, and no way to the network. */
  let npmEnv: NodeJS.ProcessEnv;

  before(async () => {
    assert.ok(existsSync(join(CLI_DIR, 'dist/cli.js')), 'cli/dist/cli.js is built by "node esbuild.mjs"');
    work = mkdtempSync(join(tmpdir(), 'docs-admin-package-'));
    project = join(work, 'ci-job');
    mkdirSync(project);
    mkdirSync(join(work, 'home'));
    npmEnv = {
      PATH: process.env.PATH,
      HOME: join(work, 'home'),
      npm_config_cache: join(work, 'npm-cache'),
      npm_config_registry: 'http://127.0.0.1:9/',
      npm_config_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
      npm_config_userconfig: join(work, 'home/.npmrc'),
    };
    sim = await Simulator.start({ timeScale: 1_000, keys: [{ key: KEY }], exportDefaults: { queuedMs: 0, durationMs: 2_000, pages: 9 }, ...tlsStorage() });
  });

  after(async () => {
    await sim.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('packs only the bundled CLI, its README and licence, versioned with the extension, with no dependency', async () => {
    const packed = await run('npm', ['pack', '--json', '--pack-destination', work], CLI_DIR, npmEnv);
    assert.equal(packed.code, 0, packed.stderr);
    const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    assert.ok(info !== undefined);
    assert.deepEqual(info.files.map((f) => f.path).sort(), ['LICENSE', 'README.md', 'dist/cli.js', 'package.json']);
    tarball = join(work, info.filename);
    const manifest = JSON.parse(readFileSync(join(CLI_DIR, 'package.json'), 'utf8')) as Record<string, unknown>;
    const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    assert.equal(manifest.version, root.version, 'cli/package.json is versioned with the extension');
    assert.deepEqual(manifest.bin, { 'docs-admin': 'dist/cli.js' });
    // The supported lines, 22 and 24 (zlib.crc32, the zip check, came in 20.15).
    assert.deepEqual(manifest.engines, { node: '>=22' });
    assert.equal(manifest.dependencies, undefined);
    assert.ok(readFileSync(join(CLI_DIR, 'dist/cli.js'), 'utf8').startsWith('#!/usr/bin/env node\n'));
  });

  it('installs from the tarball into a fresh folder with no network, and runs from there', async () => {
    assert.ok(tarball !== undefined, 'packed by the test before');
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'ci-job', private: true }));
    const installed = await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], project, npmEnv);
    assert.equal(installed.code, 0, installed.stderr);
    // Nothing but the package itself came in.
    assert.deepEqual(readdirSync(join(project, 'node_modules')).filter((n) => !n.startsWith('.')), ['@docs-admin']);
    const bin = realpathSync(join(project, 'node_modules/.bin/docs-admin'));
    assert.equal(bin, realpathSync(join(project, 'node_modules/@docs-admin/cli/dist/cli.js')));

    const help = await run('npx', ['--no', '--', 'docs-admin', '--help'], project, npmEnv);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^Usage: docs-admin <command> \[options\]/);
    assert.match(help.stdout, /export download <jobId>/);
    const version = await run('npx', ['--no', '--', 'docs-admin', '--version'], project, npmEnv);
    assert.equal(version.stdout, `${(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version}\n`);
  });

  it('runs a whole export → download → extract against the simulator from the installed copy', async () => {
    const env = { ...npmEnv, DOCS_ADMIN_API_KEY: KEY, DOCS_ADMIN_BASE_URL: sim.baseUrl };
    const cli = async (...args: string[]) => {
      const r = await run('npx', ['--no', '--', 'docs-admin', ...args], project, env);
      collector.record(`cli package: docs-admin ${args.join(' ')} (stdout)`, r.stdout);
      collector.record(`cli package: docs-admin ${args.join(' ')} (stderr)`, r.stderr);
      assert.equal(r.code, 0, `docs-admin ${args.join(' ')}: ${r.stderr}`);
      return r.stdout;
    };
    const jobId = (await cli('export', 'start', 'docs.acme.dev')).trim();
    assert.match(jobId, /\S/);
    assert.match(await cli('export', 'wait', jobId, '--timeout', '60'), /completed · 9 pages/);
    assert.match(await cli('export', 'download', jobId, '--out', 'site.tar.gz', '--ca-file', storeCertificates().caFile), /Saved .*site\.tar\.gz \(.*; the archive checked to its end\)/);
    assert.match(await cli('export', 'extract', 'site.tar.gz', '--dir', 'public'), /Extracted \d+ files/);
    assert.ok(existsSync(join(project, 'public/index.html')), readdirSync(join(project, 'public')).join(', '));
    // The extraction's worker thread ran from the installed file too (nothing of the repository is reachable from here).
    assert.ok(!realpathSync(project).startsWith(ROOT));
  });
});
