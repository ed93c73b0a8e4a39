/**
 * `docs-admin deploy`, `deploy status`, `preview` and `automation run`, run as a child process
 * (the packed CLI as it ships) against the simulator: output, exit codes, what was sent, and the
 * terminal-safe writer on server text.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Simulator } from '../simulator';
import { collector } from './support/collector';

const CLI = resolve(__dirname, '../../../dist/cli.js');
const KEY = 'da_cli_deploy_key_4f19a2';

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

describe('the docs-admin CLI: deploy, deploy status, preview, automation run (child process, simulator)', function () {
  this.timeout(30_000);
  let sim: Simulator;

  before(async () => {
    assert.ok(existsSync(CLI), `${CLI} is built by "node esbuild.mjs"`);
    // 1 real ms is 100 simulated: a deployment (3 s queued, 60 s running) takes about 0.6 s.
    sim = await Simulator.start({ timeScale: 100, keys: [{ key: KEY }] });
  });
  after(() => sim.stop());

  function cli(args: string[], env: Record<string, string | undefined> = {}): Promise<Outcome> {
    const base: Record<string, string | undefined> = { PATH: process.env.PATH, DOCS_ADMIN_API_KEY: KEY, DOCS_ADMIN_BASE_URL: sim.baseUrl, DOCS_ADMIN_PROJECT_ID: sim.projectId };
    const merged = Object.fromEntries(Object.entries({ ...base, ...env }).filter((e): e is [string, string] => e[1] !== undefined));
    return new Promise((done) => {
      execFile(process.execPath, [CLI, ...args], { env: merged }, (error, stdout, stderr) => {
        collector.record(`cli: docs-admin ${args.join(' ')} (stdout)`, stdout);
        collector.record(`cli: docs-admin ${args.join(' ')} (stderr)`, stderr);
        done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
      });
    });
  }

  it('deploy prints the status id; --wait follows it to success (exit 0); --json prints the deployment', async () => {
    const queued = await cli(['deploy']);
    assert.equal(queued.code, 0, queued.stderr);
    assert.match(queued.stdout, /^[0-9a-f]{24}\n$/);
    assert.equal(sim.requests.filter((r) => r.route === 'deploy.trigger').length, 1);
    const waited = await cli(['deploy', '--wait']);
    assert.equal(waited.code, 0, waited.stderr);
    assert.match(waited.stdout, /^[0-9a-f]{24} {2}success\n {2}summary +Deployed 1 changed page\n {2}commit +[0-9a-f]{12} \(main\) Merge pull request #128 from acme\/quickstart\n/);
    assert.match(waited.stderr, /^Deployment [0-9a-f]{24} queued\.\n$/);
    const json = await cli(['deploy', '--wait', '--json']);
    assert.equal(json.code, 0);
    const parsed = JSON.parse(json.stdout) as { status: string; logs: string[] };
    assert.equal(parsed.status, 'success');
    assert.equal(parsed.logs.at(-1), 'Deployment complete');
  });

  it('a failed deployment exits 1 with its last log lines on stderr, server text made safe for a terminal and a CI log', async () => {
    sim.setDeploymentDefaults({ outcome: 'failure', seed: { failureLines: ['\u001b[2J\u001b[31mError: boom\u001b[0m', '::add-mask::leak', 'Build failed'] } });
    try {
      const run = await cli(['deploy', '--wait']);
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /The last 8 log lines:\n {2}Deploying acme\/docs@/);
      assert.match(run.stderr, /^ {2}\\u001b\[2J\\u001b\[31mError: boom\\u001b\[0m$/m, 'escape sequences shown, not run');
      assert.ok(!run.stderr.includes('\u001b'), 'no raw escape character');
      assert.doesNotMatch(run.stderr, /^\s*::add-mask::/m, 'no workflow command');
      assert.match(run.stderr, /docs-admin: The deployment [0-9a-f]{24} failed: Build failed: 1 error in guides\/install\.mdx\n$/);
    } finally {
      sim.setDeploymentDefaults({ outcome: 'success', seed: {} });
    }
  });

  it('deploy status reads one (a pasted link works); --wait follows it; an unknown id exits 4; the key pasted as an id is refused before anything is sent', async () => {
    const seeded = String(sim.addDeployment({ kind: 'preview', branch: 'feature/a', queuedMs: 0, durationMs: 30_000 })._id);
    const read = await cli(['deploy', 'status', `https://dashboard.example.com/x/deployments/${seeded}`]);
    assert.equal(read.code, 0, read.stderr);
    assert.match(read.stdout, new RegExp(`^${seeded} {2}(in_progress|success)\\n`));
    const waited = await cli(['deploy', 'status', seeded, '--wait']);
    assert.equal(waited.code, 0);
    assert.match(waited.stdout, new RegExp(`^${seeded} {2}success\\n`));
    assert.equal((await cli(['deploy', 'status', '0123456789abcdef01234567'])).code, 4);
    const before = sim.requests.length;
    const key = await cli(['deploy', 'status', KEY]);
    assert.equal(key.code, 2);
    assert.match(key.stderr, /That is the admin key, not a status id; it was not sent anywhere/);
    assert.equal(sim.requests.length, before);
    const slow = String(sim.addDeployment({ queuedMs: 0, durationMs: 3_600_000 })._id);
    const timedOut = await cli(['deploy', 'status', slow, '--wait', '--timeout', '1']);
    assert.equal(timedOut.code, 5);
    assert.match(timedOut.stderr, /Gave up waiting for job [0-9a-f]{24} after 1 s \(last status: in_progress\)/);
  });

  it('preview prints the preview URL (alone on stdout with --wait); a branch git would refuse exits 2; no plan for previews exits 3', async () => {
    const url = sim.previewUrl('docs-agent/fix-links');
    const queued = await cli(['preview', 'docs-agent/fix-links']);
    assert.equal(queued.code, 0, queued.stderr);
    assert.equal(queued.stdout, `${url}\n`);
    assert.match(queued.stderr, /^Preview of docs-agent\/fix-links queued \(status id [0-9a-f]{24}\)\.\n$/);
    const waited = await cli(['preview', 'docs-agent/fix-links', '--wait']);
    assert.equal(waited.code, 0, waited.stderr);
    assert.equal(waited.stdout, `${url}\n`);
    assert.match(waited.stderr, /success\n {2}preview +http/);
    const before = sim.requests.length;
    const bad = await cli(['preview', '--', '--upload-pack=touch /tmp/x']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /That branch cannot be previewed: a branch name may not start with "-"/);
    assert.equal(sim.requests.length, before, 'nothing was sent');
    sim.setPreviewsEnabled(false);
    try {
      const denied = await cli(['preview', 'main']);
      assert.equal(denied.code, 3);
      assert.match(denied.stderr, /plan does not include preview deployments/);
    } finally {
      sim.setPreviewsEnabled(true);
    }
  });

  it('a 429 is waited out once and the trigger sent again; a second one exits 5 and says when to retry', async () => {
    const triggers = () => sim.requests.filter((r) => r.route === 'preview.trigger').length;
    let before = triggers();
    sim.injectFault({ route: 'preview.trigger', kind: 'status', status: 429, headers: { 'retry-after': '1' } });
    const once = await cli(['preview', 'feature/limited']);
    assert.equal(once.code, 0, once.stderr);
    assert.match(once.stderr, /Rate limited \(429\): waiting 1 s, then sending once more\./);
    assert.equal(triggers() - before, 2);
    before = triggers();
    sim.injectFault({ route: 'preview.trigger', kind: 'status', status: 429, headers: { 'retry-after': '1' }, times: 2 });
    const twice = await cli(['preview', 'feature/limited']);
    assert.equal(twice.code, 5);
    assert.match(twice.stderr, /The platform's limit was hit \(5 previews per minute, 429\); nothing was started\. Try again after \d\d:\d\d/);
    assert.equal(triggers() - before, 2);
  });

  it('a preview answered 202 with its URL and no status id: the URL on stdout, a word that it cannot be followed, exit 0 (with --wait too)', async () => {
    for (const args of [['preview', 'feature/no-id'], ['preview', 'feature/no-id', '--wait']]) {
      sim.injectFault({ route: 'preview.trigger', kind: 'status', status: 202, body: { previewUrl: 'https://acme-feature-no-id.example.app' } });
      const r = await cli(args);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stdout, 'https://acme-feature-no-id.example.app\n');
      assert.match(r.stderr, /^The platform queued the preview of feature\/no-id \(202\), but its answer gives no status id, so it cannot be followed from here: open the URL, or follow it on the dashboard\.\n$/);
      assert.doesNotMatch(r.stderr, /may have been queued/);
    }
    // With no URL either: nothing to print; it was queued, and said so (exit 5, as before: nothing to show for it).
    sim.injectFault({ route: 'preview.trigger', kind: 'status', status: 202, body: {} });
    const bare = await cli(['preview', 'feature/no-id']);
    assert.equal(bare.stdout, '');
    assert.doesNotMatch(bare.stderr, /may have been queued anyway/);
  });

  it('preview "" says the branch is empty (exit 2), nothing sent', async () => {
    const before = sim.requests.length;
    const r = await cli(['preview', '']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /That branch cannot be previewed: the branch name is empty/);
    assert.doesNotMatch(r.stderr, /job/);
    assert.equal(sim.requests.length, before);
  });

  it('automation run: an answer with no run id leaves stdout empty (it holds ids only) and says so on stderr; a refused request (400) exits 7', async () => {
    const id = sim.addAutomation();
    sim.injectFault({ route: 'automation.trigger', kind: 'status', status: 202, body: {} });
    const r = await cli(['automation', 'run', id]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^The automation started, but the answer gives no run id\.\n$/);
    // The simulator answers 400 "Invalid automation ID" for an id that is not 24 hex digits.
    const refused = await cli(['automation', 'run', 'not-an-automation']);
    assert.equal(refused.code, 7, refused.stderr);
    assert.match(refused.stderr, /The server refused the request \(400: .*\)/);
  });

  it('automation run prints the run\'s id; an unknown automation exits 4; the project id is required', async () => {
    const id = sim.addAutomation();
    const run = await cli(['automation', 'run', id]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, `${sim.automationRuns(id)?.[0]?.instanceId ?? ''}\n`);
    assert.equal((await cli(['automation', 'run', '0123456789abcdef01234567'])).code, 4);
    const noProject = await cli(['deploy'], { DOCS_ADMIN_PROJECT_ID: undefined });
    assert.equal(noProject.code, 2);
    assert.match(noProject.stderr, /the project id is not set/);
    const help = await cli(['--help']);
    for (const command of ['deploy status <statusId>', 'deploy ', 'preview <branch>', 'automation run <automationId>']) assert.ok(help.stdout.includes(command), command);
  });
});
