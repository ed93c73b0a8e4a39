import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Simulator } from '../simulator';
import { collector } from './support/collector';

const CLI = resolve(__dirname, '../../../dist/cli.js');
const KEY = 'da_cli_agent_key_3f90aa';

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

describe('docs-admin agent create / message, as a child process against the simulator', function () {
  this.timeout(30_000);
  let sim: Simulator;
  let dir: string;

  before(async () => {
    assert.ok(existsSync(CLI), `${CLI} is built by "node esbuild.mjs"`);
    sim = await Simulator.start({ timeScale: 1_000, keys: [{ key: KEY }] });
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-cli-agent-'));
  });
  after(async () => {
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    sim.clearFaults();
    sim.clearRequests();
    sim.setAgentDefaults({ durationMs: 90_000, outcome: 'pr', hourlyLimit: 100, retryAfter: true });
  });

  function cli(args: string[], input?: string, env: Record<string, string> = {}): Promise<Outcome> {
    const merged = { PATH: process.env.PATH ?? '', DOCS_ADMIN_API_KEY: KEY, DOCS_ADMIN_BASE_URL: sim.baseUrl, DOCS_ADMIN_PROJECT_ID: sim.projectId, ...env };
    return new Promise((done) => {
      const child = execFile(process.execPath, [CLI, ...args], { env: merged, cwd: dir }, (error, stdout, stderr) => {
        collector.record(`cli: docs-admin ${args.join(' ')} (stdout)`, stdout);
        collector.record(`cli: docs-admin ${args.join(' ')} (stderr)`, stderr);
        done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
      });
      child.stdin?.end(input ?? '');
    });
  }

  const posts = () => sim.requests.filter((r) => r.route === 'agent.create' || r.route === 'agent.message');

  it('create prints the new job id; the prompt is sent unchanged, from a flag, a file or standard input', async () => {
    const prompt = 'In docs/a.mdx, lines 3-4:\n  3 | Old\n  4 | More\n\nRewrite them.\n';
    const r = await cli(['agent', 'create', '--prompt', prompt]);
    assert.equal(r.code, 0, r.stderr);
    const id = r.stdout.trim();
    assert.match(r.stdout, /^\S+\n$/);
    assert.deepEqual(sim.agentPrompts(id), [prompt]);
    const file = join(dir, 'prompt.md');
    writeFileSync(file, 'From a file\r\nline two\n');
    const fromFile = await cli(['agent', 'create', '--prompt-file', file, '--json']);
    assert.equal(fromFile.code, 0, fromFile.stderr);
    const job = JSON.parse(fromFile.stdout) as { id: string; status: string };
    assert.equal(job.status, 'active');
    assert.deepEqual(sim.agentPrompts(job.id), ['From a file\r\nline two\n']);
    const fromStdin = await cli(['agent', 'create', '--prompt-file', '-'], 'Piped\nprompt');
    assert.equal(fromStdin.code, 0, fromStdin.stderr);
    assert.deepEqual(sim.agentPrompts(fromStdin.stdout.trim()), ['Piped\nprompt']);
  });

  it('--wait follows the job to its end and shows the pull request; a failed job exits 1', async () => {
    const r = await cli(['agent', 'create', '--prompt', 'Fix it', '--wait', '--timeout', '20']);
    assert.equal(r.code, 0, r.stderr);
    const [id] = r.stdout.split('\n');
    assert.match(r.stdout, /completed/);
    assert.match(r.stdout, new RegExp(`pull request\\s+https://github\\.com/acme/docs/pull/\\d+`));
    assert.equal(sim.agentJob(id ?? '')?.status, 'completed');
    sim.setAgentDefaults({ outcome: 'failed' });
    const failed = await cli(['agent', 'create', '--prompt', 'Break it', '--wait', '--json']);
    assert.equal(failed.code, 1, failed.stderr);
    assert.equal((JSON.parse(failed.stdout) as { status: string }).status, 'failed');
  });

  it('message sends a follow-up: the job is active again, and --wait follows it to its end again', async () => {
    const id = String(sim.addAgentJob({ durationMs: 0, createdAt: sim.now() - 60_000 }).id);
    const r = await cli(['agent', 'message', id, '--prompt', 'Also the title', '--wait']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(sim.agentPrompts(id), ['Also the title']);
    assert.match(r.stdout, /completed/);
    const missing = await cli(['agent', 'message', 'no-such-job', '--prompt', 'x']);
    assert.equal(missing.code, 4, missing.stderr);
  });

  it('usage: no prompt, a blank one, or both flags exit 2 and send nothing', async () => {
    for (const [args, input] of [
      [['agent', 'create']],
      [['agent', 'create', '--prompt', '']],
      [['agent', 'create', '--prompt', ' \n\t ']],
      [['agent', 'create', '--prompt-file', '-'], '  \n'],
      [['agent', 'create', '--prompt', 'x', '--prompt-file', 'y']],
      [['agent', 'message', 'j1']],
      [['agent', 'create', '--prompt-file', join(dir, 'missing.md')]],
    ] as [string[], string?][]) {
      const r = await cli(args, input);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /^docs-admin: /);
    }
    assert.equal(posts().length, 0);
  });

  it('a 429 of at most 60 s is waited out and retried once; a longer one, or none, exits 5 and says when to try again', async () => {
    sim.injectFault({ route: 'agent.create', kind: 'status', status: 429, body: { error: 'rate limited' }, headers: { 'retry-after': '1' } });
    const retried = await cli(['agent', 'create', '--prompt', 'x']);
    assert.equal(retried.code, 0, retried.stderr);
    assert.equal(posts().length, 2);
    assert.match(retried.stderr, /waiting 1 s/);
    sim.clearRequests();
    sim.injectFault({ route: 'agent.create', kind: 'status', status: 429, body: { error: 'rate limited' }, headers: { 'retry-after': '120' } });
    const long = await cli(['agent', 'create', '--prompt', 'x']);
    assert.equal(long.code, 5);
    assert.match(long.stderr, /limit was hit .*Try again after \d\d:\d\d \(in 120 s\)/);
    assert.equal(posts().length, 1);
    sim.clearRequests();
    sim.setAgentDefaults({ hourlyLimit: 0, retryAfter: false });
    const none = await cli(['agent', 'create', '--prompt', 'x']);
    assert.equal(none.code, 5);
    assert.match(none.stderr, /did not say when/);
    assert.equal(posts().length, 1);
  });

  it('a create that got a 5xx or timed out is never resent: exit 5, saying the job may exist', async function () {
    // The timeout is real: the CLI waits its 30 s for an answer, as it does for a person.
    this.timeout(90_000);
    sim.injectFault({ route: 'agent.create', kind: 'status', status: 503, headers: { 'retry-after': '1' } });
    const r = await cli(['agent', 'create', '--prompt', 'x']);
    assert.equal(r.code, 5);
    assert.match(r.stderr, /^docs-admin: The server failed \(503 Service Unavailable: simulated 503\)\. The agent job may have been created anyway/);
    // What happened, without its "try again": this request must not be sent again blindly.
    assert.doesNotMatch(r.stderr, /try again/i);
    assert.equal(posts().length, 1);

    // The simulator holds its answer past the CLI's request timeout: the request arrived, so the
    // job may exist (here it does, once the answer is let go); it is not sent again.
    sim.clearRequests();
    sim.injectFault({ route: 'agent.create', kind: 'delay', ms: 32_000 });
    const started = Date.now();
    const t = await cli(['agent', 'create', '--prompt', 'held']);
    const waited = Date.now() - started;
    assert.equal(t.code, 5, t.stderr);
    assert.match(t.stderr, /^docs-admin: The server at 127\.0\.0\.1:\d+ did not answer within 30 s\. The agent job may have been created anyway/);
    assert.doesNotMatch(t.stderr, /try again/i);
    assert.equal(t.stdout, '', 'no job id printed: none came back');
    assert.ok(waited >= 29_000, `it waited its timeout (${waited} ms)`);
    assert.equal(posts().length, 1, 'sent once, not resent');
  });

  it("the server's words reach the terminal defused: a 400 with escape sequences and a workflow command", async () => {
    sim.injectFault({ route: 'agent.create', kind: 'status', status: 400, body: { error: 'bad \u001b[31mred\n::add-mask::x' } });
    const r = await cli(['agent', 'create', '--prompt', 'x']);
    assert.equal(r.code, 7, 'a refused request');
    assert.ok(!r.stderr.includes('\u001b'), 'no raw escape');
    assert.match(r.stderr, /\\u001b\[31mred/);
  });
});
