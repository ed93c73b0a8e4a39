/**
 * The CLI (the built dist/cli.js, a child process) against vendor-valid answers the simulator is
 * told to give: agent jobs without the fields the vendor leaves optional, an export's bundle link
 * that has already expired, a 404 on each export route, and a send that may have reached the agent.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Simulator, type Fault } from '../simulator';
import { collector } from './support/collector';

const CLI = resolve(__dirname, '../../../dist/cli.js');
const KEY = 'da_cli_vendor_key_8e1f';
/** The vendor document's own example of a bundle answer (its `expiresAt` is in 2019). */
const VENDOR_BUNDLE = {
  jobId: 'se_3f9a2c1b8e7d4a06',
  bundleUrl: 'https://mintlify-static-exports.s3.amazonaws.com/se_3f9a2c1b8e7d4a06/bundle.tar.gz?X-Amz-Signature=...',
  sizeBytes: 18432000,
  expiresAt: '2019-08-24T14:15:22Z',
};

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

describe('docs-admin against vendor-valid answers (a child process against the simulator)', function () {
  this.timeout(30_000);
  let sim: Simulator;
  let dir: string;

  before(async () => {
    assert.ok(existsSync(CLI), `${CLI} is built by "node esbuild.mjs"`);
    sim = await Simulator.start({ timeScale: 1_000, keys: [{ key: KEY }] });
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-cli-vendor-'));
  });
  after(async () => {
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    sim.clearFaults();
    sim.clearRequests();
  });

  function cli(args: string[]): Promise<Outcome> {
    const env = { PATH: process.env.PATH ?? '', DOCS_ADMIN_API_KEY: KEY, DOCS_ADMIN_BASE_URL: sim.baseUrl, DOCS_ADMIN_PROJECT_ID: sim.projectId };
    return new Promise((done) => {
      execFile(process.execPath, [CLI, ...args], { env, cwd: dir }, (error, stdout, stderr) => {
        collector.record(`cli: docs-admin ${args.join(' ')} (stdout)`, stdout, { mayHoldLink: args[1] === 'bundle' });
        collector.record(`cli: docs-admin ${args.join(' ')} (stderr)`, stderr);
        done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
      });
    });
  }

  const answer = (route: Fault['route'], status: number, body: unknown, times = 1) => sim.injectFault({ route, kind: 'status', status, body, times });
  const sent = (route: string) => sim.requests.filter((r) => r.route === route).length;

  describe('agent jobs without the fields the vendor leaves optional', () => {
    it('agent get: an answer without source, model or createdAt is shown (exit 0), and --json holds what was given', async () => {
      answer('agent.get', 200, { id: 'job-v1', status: 'active' }, 2);
      const shown = await cli(['agent', 'get', 'job-v1']);
      assert.equal(shown.code, 0, shown.stderr);
      assert.equal(shown.stdout, 'job-v1  active\n');
      const json = await cli(['agent', 'get', 'job-v1', '--json']);
      assert.equal(json.code, 0, json.stderr);
      assert.deepEqual(JSON.parse(json.stdout), { id: 'job-v1', status: 'active', rawStatus: 'active', source: { ref: null }, prLink: null, archivedAt: null });
    });

    it('agent create: a 201 with the id only prints the id; with a field of the wrong type too (exit 0)', async () => {
      answer('agent.create', 201, { id: 'job-v2' });
      const bare = await cli(['agent', 'create', '--prompt', 'Fix the typo.']);
      assert.equal(bare.code, 0, bare.stderr);
      assert.equal(bare.stdout, 'job-v2\n');
      answer('agent.create', 201, { id: 'job-v3', status: 'active', createdAt: 1_764_000_000, source: 'acme/docs' });
      const odd = await cli(['agent', 'create', '--prompt', 'Fix the typo.']);
      assert.equal(odd.code, 0, odd.stderr);
      assert.equal(odd.stdout, 'job-v3\n', 'the id of the job the 201 made is never lost');
      assert.match(odd.stderr, /Agent job job-v3 was created \(201\), but its answer could not be read whole/);
    });

    it('agent create --wait: followed to its end by id and status alone', async () => {
      answer('agent.create', 201, { id: 'job-v4' });
      answer('agent.get', 200, { status: 'completed' });
      const r = await cli(['agent', 'create', '--prompt', 'Fix the typo.', '--wait']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'job-v4\njob-v4  completed, no changes\n');
    });

    it('agent create: a 201 without an id says the job was made and where to find it (exit 5), never "may have been", never sent again', async () => {
      answer('agent.create', 201, {});
      const r = await cli(['agent', 'create', '--prompt', 'Fix the typo.']);
      assert.equal(r.code, 5);
      assert.equal(r.stdout, '');
      assert.equal(
        r.stderr,
        "docs-admin: The agent took the prompt and created a job (201), but the answer does not say its id, so it cannot be followed from here. Find the new job on the dashboard; sending the prompt again would make a second job. The request was not sent again. Check the project's agent jobs on the dashboard before you run this again (the API cannot list them).\n",
      );
      assert.equal(sent('agent.create'), 1);
    });
  });

  describe('a send that may have reached the agent: what a CLI user can check', () => {
    it('create: the dashboard, not a view of the editor', async () => {
      answer('agent.create', 503, { error: 'upstream unavailable' });
      const r = await cli(['agent', 'create', '--prompt', 'Fix the typo.']);
      assert.equal(r.code, 5);
      assert.match(r.stderr, /The agent job may have been created anyway, so the request was not sent again\. Check the project's agent jobs on the dashboard before you run this again \(the API cannot list them\)\.\n$/);
      assert.doesNotMatch(r.stderr, /Agent Jobs view/);
      assert.equal(sent('agent.create'), 1);
    });

    it('message: `docs-admin agent get <id>`', async () => {
      const id = String(sim.addAgentJob({ durationMs: 0 }).id);
      answer('agent.message', 503, { error: 'upstream unavailable' });
      const r = await cli(['agent', 'message', id, '--prompt', 'And the FAQ.']);
      assert.equal(r.code, 5);
      assert.ok(r.stderr.endsWith(`The follow-up may have reached agent job ${id} anyway, so it was not sent again. Run \`docs-admin agent get ${id}\` before you send it again: the job is active again if it took the follow-up.\n`), r.stderr);
      assert.doesNotMatch(r.stderr, /Agent Jobs view|Refresh the job/);
    });
  });

  describe('export bundle with a link that has already expired', () => {
    const completed = () => String(sim.addExportJob({ queuedMs: 0, durationMs: 0, createdAt: sim.now() - 60_000 }).jobId);

    it('asks for a new link, as a download does; when every one has expired, says so (exit 5) and prints no link', async () => {
      const id = completed();
      answer('export.bundle', 200, { ...VENDOR_BUNDLE, jobId: id }, Infinity);
      const r = await cli(['export', 'bundle', id]);
      assert.equal(r.code, 5);
      assert.equal(r.stdout, '', 'no expired link is printed');
      assert.match(
        r.stderr,
        new RegExp(`^docs-admin: The bundle link the server gave for export ${id} had already expired \\(\\d+d ago, at 2019-08-24T14:15:2\\d\\.\\d{3}Z\\), and so had each new one it gave \\(3 asked for in all\\)\\. Check that this computer's clock is right; if it is, the service is giving out expired links: try again later\\.\\n$`),
      );
      assert.doesNotMatch(r.stderr, /in 0s/);
      assert.equal(sent('export.bundle'), 3);
      const json = await cli(['export', 'bundle', id, '--json']);
      assert.equal(json.code, 5);
      assert.equal(json.stdout, '', 'no negative expiresInSeconds');
    });

    it('a new link that has not expired is printed with its real time left (exit 0)', async () => {
      const id = completed();
      answer('export.bundle', 200, { ...VENDOR_BUNDLE, jobId: id });
      const r = await cli(['export', 'bundle', id]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`^${sim.storageBaseUrl}/bundles/${id}/bundle\\.tar\\.gz\\?`));
      assert.match(r.stderr, /^The link expires at \S+ \(in (59m|1h)\)\.\n$/);
      assert.equal(sent('export.bundle'), 2);
      answer('export.bundle', 200, { ...VENDOR_BUNDLE, jobId: id });
      const json = await cli(['export', 'bundle', id, '--json']);
      assert.equal(json.code, 0, json.stderr);
      const printed = JSON.parse(json.stdout) as { expiresInSeconds: number; expiresAt: string };
      assert.ok(printed.expiresInSeconds > 3_000 && printed.expiresInSeconds <= 3_600, String(printed.expiresInSeconds));
      assert.ok(Date.parse(printed.expiresAt) > Date.now());
    });
  });

  describe('a 404 from an export route says what to check there (export routes have no project id)', () => {
    for (const [args, route, said] of [
      [['export', 'status', 'se_gone'], 'export.status', 'Export job "se_gone" was not found (404: No job exists with the provided ID). Check the export job id, and that the base URL and the admin key are those of the organization that started it.'],
      [['export', 'bundle', 'se_gone'], 'export.bundle', 'No bundle can be generated for export job "se_gone": the job was not found (404: No job exists with the provided ID). Check the export job id, and that the base URL and the admin key are those of the organization that started it.'],
      [['export', 'start', 'docs.example.com'], 'export.start', "The static export endpoint was not found (404: No job exists with the provided ID). Check the base URL: it must be the admin API's, where the static export routes are under /v1/static-export."],
    ] as const) {
      it(`${args.slice(0, 2).join(' ')}: exit 4`, async () => {
        answer(route, 404, { error: 'No job exists with the provided ID' });
        const r = await cli([...args]);
        assert.equal(r.code, 4);
        assert.equal(r.stderr, `docs-admin: ${said}\n`);
        assert.doesNotMatch(r.stderr, /project id/);
      });
    }
  });
});
