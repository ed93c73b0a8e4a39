import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readStaticExport } from '../../src/core/deploy/values';
import { Simulator } from '../simulator';
import { collector } from './support/collector';
import { storeCertificates, tlsStorage } from './support/tlsStore';

const CLI = resolve(__dirname, '../../../dist/cli.js');
const KEY = 'da_cli_test_key_7c21e9';
const RO_KEY = 'da_cli_readonly_key_11aa';

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

describe('the docs-admin CLI, as a child process against the simulator', function () {
  this.timeout(30_000);
  let sim: Simulator;
  let dir: string;

  before(async () => {
    assert.ok(existsSync(CLI), `${CLI} is built by "node esbuild.mjs"`);
    // The storage over TLS, as every real store is: downloads trust its CA with --ca-file.
    sim = await Simulator.start({ timeScale: 1_000, keys: [{ key: KEY }, { key: RO_KEY, readOnly: true }], ...tlsStorage() });
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-cli-'));
  });

  after(async () => {
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  function cli(args: string[], env: Record<string, string | undefined> = {}, script = CLI): Promise<Outcome> {
    const base: Record<string, string | undefined> = { PATH: process.env.PATH, DOCS_ADMIN_API_KEY: KEY, DOCS_ADMIN_BASE_URL: sim.baseUrl, DOCS_ADMIN_PROJECT_ID: sim.projectId };
    const merged = Object.fromEntries(Object.entries({ ...base, ...env }).filter((e): e is [string, string] => e[1] !== undefined));
    return new Promise((done) => {
      execFile(process.execPath, [script, ...args], { env: merged, cwd: dir }, (error, stdout, stderr) => {
        // Everything printed goes to the suite's collector; `export bundle` prints the link by design.
        collector.record(`cli: docs-admin ${args.join(' ')} (stdout)`, stdout, { mayHoldLink: args[0] === 'export' && args[1] === 'bundle' });
        collector.record(`cli: docs-admin ${args.join(' ')} (stderr)`, stderr);
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        done({ code, stdout, stderr });
      });
    });
  }

  function completedExport(): string {
    return String(sim.addExportJob({ domain: 'docs.acme.dev', queuedMs: 0, durationMs: 0, createdAt: sim.now() - 60_000, pages: 7 }).jobId);
  }

  it('--help everywhere, --version, and usage errors exit 2 with one clear line', async () => {
    const help = await cli(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /export download <jobId>/);
    assert.match(help.stdout, /DOCS_ADMIN_API_KEY/);
    const sub = await cli(['publish', '--help']);
    assert.equal(sub.code, 0);
    assert.match(sub.stdout, /--rollout "<command>"/);
    assert.match((await cli(['--version'])).stdout, /^\d+\.\d+\.\d+\n$/);
    for (const args of [['frobnicate'], ['agent', 'get'], ['export', 'download', 'x'], ['export', 'download', 'x', '--out', 'a.tar.gz', '--connections', 'many'], ['agent', 'wait', 'x', '--timeout', 'soon'], ['export', 'status', 'x', '--bogus'], ['export', 'start', 'not a domain']]) {
      const r = await cli(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stderr.trim().split('\n').length, 1, `one line: ${r.stderr}`);
      assert.match(r.stderr, /^docs-admin: /);
    }
    const noBase = await cli(['export', 'status', 'x'], { DOCS_ADMIN_BASE_URL: undefined });
    assert.equal(noBase.code, 2);
    assert.match(noBase.stderr, /--base-url or set DOCS_ADMIN_BASE_URL/);
    assert.equal((await cli(['export', 'status', 'x', '--base-url', 'http://docs.example.com'])).code, 2, 'plain http to a remote host');
  });

  it('agent get and agent wait: 0 on success, 1 on a failed job, 4 when not found, 5 on timeout', async () => {
    sim.addAgentJob({ id: 'agent-ok', repository: 'https://github.com/acme/docs', ref: 'main', durationMs: 0, createdAt: sim.now() - 60_000 });
    const got = await cli(['agent', 'get', 'agent-ok', '--json']);
    assert.equal(got.code, 0, got.stderr);
    const job = JSON.parse(got.stdout) as { id: string; status: string; prLink: string };
    assert.equal(job.id, 'agent-ok');
    assert.equal(job.status, 'completed');
    assert.match((await cli(['agent', 'get', 'agent-ok'])).stdout, /^agent-ok {2}completed\n {2}repository {4}https:\/\/github\.com\/acme\/docs @ main/);
    assert.equal((await cli(['agent', 'wait', 'agent-ok'])).code, 0);
    sim.addAgentJob({ id: 'agent-bad', durationMs: 0, outcome: 'failed', createdAt: sim.now() - 60_000 });
    const failed = await cli(['agent', 'wait', 'agent-bad']);
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /docs-admin: The agent job agent-bad failed\./);
    const missing = await cli(['agent', 'get', 'nope']);
    assert.equal(missing.code, 4);
    assert.match(missing.stderr, /not found/i);
    sim.addAgentJob({ id: 'agent-slow', durationMs: 100_000_000 });
    const slow = await cli(['agent', 'wait', 'agent-slow', '--timeout', '1']);
    assert.equal(slow.code, 5);
    assert.match(slow.stderr, /Gave up waiting for job agent-slow after 1 s/);
    assert.equal((await cli(['agent', 'get', 'agent-ok'], { DOCS_ADMIN_PROJECT_ID: undefined })).code, 2);
  });

  it('a key given as "Bearer <key>" is the key sent: the bare key is never taken for an id, nor printed', async () => {
    sim.clearRequests();
    // (No message below repeats the key: a failure's text is scanned for secrets too.)
    for (const [n, spelling] of [`Bearer ${KEY}`, `Authorization: Bearer ${KEY}`, `\u200b${KEY}\ufeff`].entries()) {
      for (const args of [['agent', 'get', KEY], ['export', 'status', KEY], ['deploy', 'status', KEY], ['automation', 'run', KEY], ['agent', 'get', `https://dashboard.example.com/agent/job/${KEY}`]]) {
        const r = await cli([...args, '--verbose'], { DOCS_ADMIN_API_KEY: spelling });
        const what = `spelling ${n}, ${args[0] ?? ''} ${args[1] ?? ''}`;
        assert.equal(r.code, 2, `${what}: exit ${r.code}`);
        assert.ok(!r.stderr.includes(KEY) && !r.stdout.includes(KEY), `${what}: the key was printed`);
        assert.match(r.stderr, /That is the admin key|the admin key, not/i, what);
      }
    }
    assert.deepEqual(sim.requests.map((r) => r.route), [], 'nothing was sent');
  });

  it('3 for a missing, wrong or read-only key; 5 when the server cannot be reached', async () => {
    const none = await cli(['export', 'status', 'x'], { DOCS_ADMIN_API_KEY: undefined });
    assert.equal(none.code, 3);
    assert.match(none.stderr, /DOCS_ADMIN_API_KEY is not set/);
    const wrong = await cli(['export', 'status', 'x'], { DOCS_ADMIN_API_KEY: 'da_wrong_key_000' });
    assert.equal(wrong.code, 3);
    const readOnly = await cli(['export', 'start', 'docs.acme.dev'], { DOCS_ADMIN_API_KEY: RO_KEY });
    assert.equal(readOnly.code, 3);
    assert.match(readOnly.stderr, /scope|read-only/i);
    const port = await new Promise<number>((done) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => done(typeof address === 'object' && address !== null ? address.port : 1));
      });
    });
    const down = await cli(['export', 'status', 'x', '--base-url', `http://127.0.0.1:${port}`]);
    assert.equal(down.code, 5);
    assert.match(down.stderr, /refused/);
  });

  it('export start, status, wait and bundle', async () => {
    sim.setExportDefaults({ queuedMs: 100, durationMs: 1_000, outcome: 'completed', pages: 12 });
    const started = await cli(['export', 'start', 'https://docs.acme.dev/guides']);
    assert.equal(started.code, 0, started.stderr);
    const id = started.stdout.trim();
    assert.match(id, /^\S+$/);
    assert.match(started.stderr, /note: Using "docs\.acme\.dev"/);
    const status = await cli(['export', 'status', id, '--json']);
    assert.equal((JSON.parse(status.stdout) as { jobId: string }).jobId, id);
    const waited = await cli(['export', 'wait', id]);
    assert.equal(waited.code, 0, waited.stderr);
    assert.match(waited.stdout, /completed · 12 pages/);
    const bundle = await cli(['export', 'bundle', id]);
    assert.equal(bundle.code, 0);
    assert.ok(bundle.stdout.startsWith(`${sim.storageBaseUrl}/bundles/`));
    assert.match(bundle.stderr, /expires at .* \(in (59m|1h)\)/, 'an hour-long link, give or take the request');
    const json = JSON.parse((await cli(['export', 'bundle', id, '--json'])).stdout) as { bundleUrl: string; expiresInSeconds: number };
    assert.ok(json.expiresInSeconds > 3500 && json.expiresInSeconds <= 3600);

    sim.setExportDefaults({ queuedMs: 0, durationMs: 100_000_000 });
    const running = (await cli(['export', 'start', 'docs.acme.dev'])).stdout.trim();
    const early = await cli(['export', 'bundle', running]);
    assert.equal(early.code, 1, 'a 409: the job has not completed');
    sim.setExportDefaults({ queuedMs: 0, durationMs: 100, outcome: 'failed', error: 'Build failed: broken link' });
    const doomed = (await cli(['export', 'start', 'docs.acme.dev'])).stdout.trim();
    const failed = await cli(['export', 'wait', doomed]);
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /Build failed: broken link/);
    sim.setExportDefaults({ outcome: 'completed', durationMs: 60_000, queuedMs: 2_000 });
  });

  it('is one file: copied alone elsewhere, it still extracts (its worker thread runs the same file)', async () => {
    const tools = join(dir, 'tools');
    mkdirSync(tools);
    copyFileSync(CLI, join(tools, 'docs-admin.js'));
    writeFileSync(join(dir, 'alone.tar.gz'), sim.defaultBundle());
    const extracted = await cli(['export', 'extract', 'alone.tar.gz', '--dir', 'alone', '--json'], {}, join(tools, 'docs-admin.js'));
    assert.equal(extracted.code, 0, extracted.stderr);
    assert.equal((JSON.parse(extracted.stdout) as { pages: number }).pages, 7);
    assert.match(readFileSync(join(dir, 'alone', 'guides', 'install.html'), 'utf8'), /<title>Install<\/title>/);
  });

  it('export download and extract: verified files, 2 for an existing file, 6 for a bad bundle', async () => {
    const id = completedExport();
    const got = await cli(['export', 'download', id, '--out', 'site.tar.gz', '--ca-file', storeCertificates().caFile]);
    assert.equal(got.code, 0, got.stderr);
    assert.ok(readFileSync(join(dir, 'site.tar.gz')).equals(sim.defaultBundle()));
    for (const r of sim.requests.filter((q) => q.origin === 'storage')) assert.equal(r.headers.authorization, undefined);
    const again = await cli(['export', 'download', id, '--out', 'site.tar.gz', '--ca-file', storeCertificates().caFile]);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /site\.tar\.gz already exists: choose another --out, or pass --force to replace it\.$/m, 'says how to agree: --force');
    assert.doesNotMatch(again.stderr, /agree to replace/);
    assert.equal((await cli(['export', 'download', id, '--out', 'site.tar.gz', '--force', '--ca-file', storeCertificates().caFile])).code, 0);

    const extracted = await cli(['export', 'extract', 'site.tar.gz', '--dir', 'site', '--json']);
    assert.equal(extracted.code, 0, extracted.stderr);
    assert.equal((JSON.parse(extracted.stdout) as { pages: number }).pages, 7);
    assert.match(readFileSync(join(dir, 'site', 'guides', 'install.html'), 'utf8'), /<title>Install<\/title>/);
    const full = await cli(['export', 'extract', 'site.tar.gz', '--dir', 'site']);
    assert.equal(full.code, 2, 'a non-empty folder without --force');
    assert.match(full.stderr, /The folder \S+site already holds files: choose an empty folder for --dir, or pass --force to replace its contents\.$/m);
    const offline = await cli(['export', 'extract', 'site.tar.gz', '--dir', 'offline'], { DOCS_ADMIN_API_KEY: undefined, DOCS_ADMIN_BASE_URL: undefined });
    assert.equal(offline.code, 0, `extracting needs neither key nor API: ${offline.stderr}`);
    assert.equal((await cli(['export', 'extract', 'site.tar.gz', '--dir', 'tiny', '--max-entries', '2'])).code, 6, 'the entry cap');

    writeFileSync(join(dir, 'page.tar.gz'), '<!doctype html><title>502</title>');
    const html = await cli(['export', 'extract', 'page.tar.gz', '--dir', 'x']);
    assert.equal(html.code, 6);
    assert.match(html.stderr, /HTML or XML page/);

    sim.setBundleContent(Buffer.from('<!doctype html><title>Bad gateway</title>'));
    try {
      const bad = await cli(['export', 'download', completedExport(), '--out', 'bad.tar.gz', '--ca-file', storeCertificates().caFile]);
      assert.equal(bad.code, 6, bad.stderr);
      assert.ok(!readdirSync(dir).some((f) => f.includes('bad.tar.gz')), 'nothing left');
    } finally {
      sim.setBundleContent(sim.defaultBundle());
    }
  });

  it('publish: the rollout gets no admin key under any spelling of its name (Windows reads variable names whatever their case)', async () => {
    writeFileSync(join(dir, 'values.yaml'), 'staticExport:\n  enabled: false\n');
    writeFileSync(join(dir, 'env-names.js'), "console.log('key variables: ' + JSON.stringify(Object.keys(process.env).filter((k) => /^docs_admin_api_key$/i.test(k))));\n");
    sim.setExportDefaults({ queuedMs: 0, durationMs: 0, outcome: 'completed' });
    const run = await cli(['publish', 'docs.acme.dev', '--values', 'values.yaml', '--rollout', `"${process.execPath}" env-names.js`], { docs_admin_api_key: KEY, Docs_Admin_Api_Key: KEY });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /^key variables: \[\]$/m);
  });

  it('publish: the whole pipeline, the rollout\'s failure (1, values kept), the job\'s failure (1)', async () => {
    const values = join(dir, 'values.yaml');
    const original = '# deployment\nimage:\n  tag: "2"\nstaticExport:\n  enabled: false\n';
    writeFileSync(values, original);
    sim.setExportDefaults({ queuedMs: 0, durationMs: 500, outcome: 'completed' });
    const rollout = `"${process.execPath}" -e "console.log('helm says: released'); process.exit(0)"`;
    const ok = await cli(['publish', 'docs.acme.dev', '--values', 'values.yaml', '--version', 'v9', '--rollout', rollout]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stderr, /Starting the export[\s\S]*Waiting for the export[\s\S]*Generating the bundle[\s\S]*Updating the values file[\s\S]*Rolling out[\s\S]*helm says: released/);
    assert.ok(!ok.stderr.includes('X-Amz-Signature='), 'no signature on stderr');
    const block = readStaticExport(readFileSync(values, 'utf8'));
    assert.equal(block?.enabled?.value, true);
    assert.equal(block?.version?.value, 'v9');
    assert.ok(String(block?.bundleUrl?.value).startsWith(`${sim.storageBaseUrl}/bundles/`));

    writeFileSync(values, original);
    const failing = await cli(['publish', 'docs.acme.dev', '--values', 'values.yaml', '--rollout', `"${process.execPath}" -e "process.exit(3)"`]);
    assert.equal(failing.code, 1);
    assert.match(failing.stderr, /rollout command failed \(exit code 3\)\. .*values\.yaml was put back as it was/);
    assert.equal(readFileSync(values, 'utf8'), original);

    sim.setExportDefaults({ outcome: 'failed', error: 'Out of build minutes' });
    const jobFailed = await cli(['publish', 'docs.acme.dev', '--values', 'values.yaml', '--json']);
    assert.equal(jobFailed.code, 1);
    assert.match(jobFailed.stderr, /Out of build minutes/);
    assert.equal(readFileSync(values, 'utf8'), original);
    sim.setExportDefaults({ outcome: 'completed', durationMs: 60_000, queuedMs: 2_000 });

    writeFileSync(values, 'staticExport: [\n');
    const invalid = await cli(['publish', 'docs.acme.dev', '--values', 'values.yaml']);
    assert.equal(invalid.code, 2);
    assert.match(invalid.stderr, /not valid YAML at line \d+, column \d+/);
  });

  it('--verbose logs requests and a stack on stderr, never the key', async () => {
    const r = await cli(['agent', 'get', 'nope', '--verbose']);
    assert.equal(r.code, 4);
    assert.match(r.stderr, /\[debug\] GET \/v2\/agent\//);
    assert.match(r.stderr, /at .*\.js:\d+/);
  });

  it('--verbose on every command that handles the key or a signed link: all of it goes to the collector; publish --json prints the link unsigned', async () => {
    const id = completedExport();
    const values = join(dir, 'verbose-values.yaml');
    writeFileSync(values, 'staticExport:\n  enabled: false\n');
    sim.setExportDefaults({ queuedMs: 0, durationMs: 300, outcome: 'completed' });
    const runs = [
      ['export', 'bundle', id, '--verbose'],
      ['export', 'bundle', id, '--json', '--verbose'],
      ['export', 'download', id, '--out', 'verbose.tar.gz', '--verbose', '--ca-file', storeCertificates().caFile],
      ['export', 'start', 'docs.acme.dev', '--verbose'],
      ['export', 'status', id, '--json', '--verbose'],
      ['publish', 'docs.acme.dev', '--values', 'verbose-values.yaml', '--json', '--verbose', '--rollout', `"${process.execPath}" -e "process.exit(0)"`],
    ];
    for (const args of runs) {
      const r = await cli(args);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /\[debug\] (GET|POST) /, `${args.join(' ')} logs its requests`);
    }
    const published = await cli(['publish', 'docs.acme.dev', '--values', 'verbose-values.yaml', '--json']);
    const url = (JSON.parse(published.stdout) as { bundle: { bundleUrl: string } }).bundle.bundleUrl;
    assert.match(url, /^https:\/\/127\.0\.0\.1:\d+\/bundles\/[^?]+\/bundle\.tar\.gz\?\[redacted\]$/, 'the signed link is in the values file, not in a CI log');
    assert.ok(String(readStaticExport(readFileSync(values, 'utf8'))?.bundleUrl?.value).includes('X-Amz-Signature='), 'the values file has the working link');
    for (const key of [undefined, 'da_wrong_cli_key_0000']) {
      const r = await cli(['agent', 'get', 'x', '--verbose'], key === undefined ? {} : { DOCS_ADMIN_API_KEY: key });
      assert.ok(r.code === 4 || r.code === 3, r.stderr);
    }
    sim.setExportDefaults({ outcome: 'completed', durationMs: 60_000, queuedMs: 2_000 });
  });

  it('a server\'s text is printed safe for a terminal and a CI log: no escape sequence, no workflow command', async () => {
    const hostile = 'Render failed\u001b]0;pwned\u0007\u001b[2J\n::add-mask::x\n##[error]fake\r\n  ::set-output name=ok::1';
    const jobId = String(sim.addExportJob({ domain: 'docs.acme.dev', queuedMs: 0, durationMs: 0, outcome: 'failed', error: hostile, createdAt: sim.now() - 60_000 }).jobId);
    const human = await cli(['export', 'status', jobId]);
    const json = await cli(['export', 'status', jobId, '--json']);
    const failed = await cli(['export', 'wait', jobId]);
    for (const [what, text] of [['status', human.stdout], ['--json', json.stdout], ['wait (stdout)', failed.stdout], ['wait (stderr)', failed.stderr]] as const) {
      assert.ok(![...text].some((c) => c !== '\n' && c !== '\t' && (c < ' ' || c === '\u007f')), `${what}: a control character reached the terminal: ${JSON.stringify(text)}`);
      assert.doesNotMatch(text, /^[ \t]*(::|##\[)/m, `${what}: a line a CI runner would run: ${JSON.stringify(text)}`);
    }
    assert.match(human.stdout, /Render failed\\u001b\]0;pwned\\u0007/, 'the text is still there to read, escapes shown');
    assert.equal((JSON.parse(json.stdout) as { error: string }).error, hostile, 'the JSON still holds the server\'s text');
  });
});
