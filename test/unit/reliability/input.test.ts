/**
 * Reliability matrix, input: what a person types or pastes (ids, domains, links, base URLs,
 * keys, project ids), in the input boxes' checks (the same core functions the editor's
 * validateInput calls), through the API client (the request log shows the path the server got),
 * and through the CLI's arguments and environment.
 *
 * The checks' own answers (one input, the reason a pure function gives) are table rows (@row):
 * they assert what the person reads, not what is kept. That nothing is sent or saved when a check
 * refuses is asserted by the cases that go through the client, the CLI and the editor's boxes.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { InvalidInputError, InvalidResponseError } from '../../../src/core/api/errors';
import { checkAdminKey, checkEnvironmentName, checkProjectId, parseExportDomain, parseJobId } from '../../../src/core/jobs/input';
import { systemClock } from '../../../src/core/jobs/clock';
import { JobRegistry } from '../../../src/core/jobs/registry';
import { JobsService } from '../../../src/core/jobs/service';
import { checkBaseUrl, checkOpenableLink } from '../../../src/core/links';
import { Simulator } from '../../simulator';
import { MemoryStore } from '../support/memoryStore';
import { AdminApiClient } from '../../../src/core/api/client';
import { collector } from '../support/collector';
import { recordingLogger } from '../support/logger';

const KEY = 'da_reliability_input_key_5e1f0c';
/** Nothing raw that a terminal or a notification would act on or hide. */
const RAW_CONTROL = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

function refused<T extends { ok: boolean }>(result: T): string {
  assert.equal(result.ok, false, JSON.stringify(result));
  const reason = (result as unknown as { reason: string }).reason;
  assert.ok(reason.length > 15, 'a reason a person can act on');
  assert.ok(!RAW_CONTROL.test(reason), `no raw control or invisible character in: ${JSON.stringify(reason)}`);
  return reason;
}

describe('reliability: input @input', function () {
  this.timeout(30_000);

  describe('job ids in the Track Agent Job box (and the CLI)', () => {
    const accepted: [string, string][] = [
      [' job_123 \n', 'job_123'],
      ['\u200bjob_123\ufeff', 'job_123'],
      ['exp.2026:11-23', 'exp.2026:11-23'],
      ['https://dashboard.example.com/agent/jobs/job-7/', 'job-7'],
      ['https://api.example.com/v2/agent/proj/job/job_9?x=1', 'job_9'],
    ];
    for (const [input, id] of accepted) {
      it(`takes ${JSON.stringify(input)} as ${id} @row`, () => {
        assert.deepEqual(parseJobId(input), { ok: true, id, fromUrl: input.startsWith('https:') });
      });
    }

    const refusals: [string, RegExp][] = [
      ['a/b', /no spaces or slashes/],
      ['../x', /not a job id/],
      ['..', /not a job id/],
      ['.', /not a job id/],
      ['x?y', /not a job id/],
      ['x#y', /not a job id/],
      ['job 12', /no spaces/],
      ['jöb_12', /not a job id/],
      ['job_12\u0000', /\\u0000" holds a control character/],
      ['job_\n12', /\\u000a12" holds a control character/],
      ['job_12\u202egnp.exe', /\\u202e/],
      ['https://example.com/job/a%2Fb', /No job id was found/],
      ['https://example.com/job/a%00b', /No job id was found/],
    ];
    for (const [input, says] of refusals) {
      it(`refuses ${JSON.stringify(input)}, saying why @row`, () => {
        assert.match(refused(parseJobId(input)), says);
      });
    }

    it('refuses the admin key pasted as a job id, without repeating it @row', () => {
      for (const input of [KEY, ` ${KEY}\n`, `https://dashboard.example.com/agent/jobs/${KEY}`]) {
        const reason = refused(parseJobId(input, [KEY]));
        assert.match(reason, /That is the admin key, not a job id; it was not sent anywhere/);
        assert.ok(!reason.includes(KEY));
      }
    });
  });

  describe('ids that reach the API client are encoded: they cannot change the path', () => {
    let sim: Simulator;
    let client: AdminApiClient;

    before(async () => {
      sim = await Simulator.start({ keys: [{ key: KEY }] });
      client = new AdminApiClient({ baseUrl: sim.baseUrl, projectId: sim.projectId, getKey: () => KEY, maxAttempts: 1, log: recordingLogger('client') });
    });

    after(async () => {
      await client.close();
      await sim.stop();
    });

    const hostile = ['a/b', 'a/../../v2/agent/x', '../..', 'x?y=1', 'x#frag', 'with space', 'jöb-ü', '100%', 'a\\b', 'a\u0000b', '...'];
    for (const id of hostile) {
      it(`export job ${JSON.stringify(id)}: one segment to the right job, whose answer (no job id) is refused`, async () => {
        sim.addExportJob({ jobId: id, queuedMs: 0, durationMs: 0 });
        sim.clearRequests();
        // The server answered the very job asked for; an id that is no id is refused where it arrives.
        await assert.rejects(client.getExportJob(id), (e: unknown) => e instanceof InvalidResponseError && /field "jobId" is not a job id/.test(e.message));
        const [request] = sim.requests;
        assert.equal(request?.path, `/v1/static-export/jobs/${encodeURIComponent(id)}`);
        assert.equal(request?.route, 'export.status');
      });
    }

    it('an agent job id with separators, and a project id with a slash, stay single segments', async () => {
      sim.addAgentJob({ id: 'a/b?c#d é' });
      sim.clearRequests();
      await assert.rejects(client.getAgentJob('a/b?c#d é'), (e: unknown) => e instanceof InvalidResponseError && /field "id" is not a job id/.test(e.message));
      assert.equal(sim.requests[0]?.path, `/v2/agent/${sim.projectId}/job/a%2Fb%3Fc%23d%20%C3%A9`);
      const other = new AdminApiClient({ baseUrl: sim.baseUrl, projectId: 'team/proj', getKey: () => KEY, maxAttempts: 1, log: recordingLogger('client') });
      try {
        sim.clearRequests();
        await assert.rejects(other.getAgentJob('x'));
        assert.equal(sim.requests[0]?.path, '/v2/agent/team%2Fproj/job/x');
      } finally {
        await other.close();
      }
    });

    for (const id of ['.', '..']) {
      it(`refuses the id ${JSON.stringify(id)} before sending anything (URL parsing would resolve it)`, async () => {
        sim.clearRequests();
        await assert.rejects(client.getExportJob(id), (e: unknown) => e instanceof InvalidInputError && /is not an id; it was not sent/.test(e.message));
        await assert.rejects(client.generateBundle(id), InvalidInputError);
        await assert.rejects(client.getAgentJob(id), InvalidInputError);
        assert.deepEqual(sim.requests, []);
      });
    }

    it('a server that starts an export with the id "..": refused where it arrives, nothing tracked, and no other path is asked', async () => {
      sim.injectFault({ route: 'export.start', kind: 'status', status: 202, body: { jobId: '..', status: 'queued' } });
      const registry = new JobRegistry(new MemoryStore(), 'jobs', recordingLogger('registry'));
      const service = new JobsService({ client, registry, clock: systemClock, isFocused: () => true, log: recordingLogger('service') });
      try {
        sim.clearRequests();
        await assert.rejects(service.startExport('docs.acme.dev'), (e: unknown) => e instanceof InvalidResponseError && /field "jobId" is not a job id/.test(e.message));
        assert.deepEqual(service.list(), [], 'nothing tracked');
        await new Promise((resolve) => setTimeout(resolve, 100));
        assert.deepEqual(sim.requests.map((r) => r.path), ['/v1/static-export/jobs']);
      } finally {
        service.dispose();
      }
    });
  });

  describe('domains in the Start Static Export box (and the CLI)', () => {
    const accepted: [string, string, RegExp | undefined][] = [
      ['docs.example.com', 'docs.example.com', undefined],
      ['  Docs.Example.COM. \n', 'docs.example.com', undefined],
      ['\u200bdocs.example.com\ufeff', 'docs.example.com', undefined],
      ['https://docs.example.com:8443/guides/install?token=s3cret#top', 'docs.example.com', /removed "https:\/\/".*removed "\/guides\/install\?…".*removed the port ":8443"/],
      ['dócs.example.com', 'xn--dcs-gna.example.com', /"dócs\.example\.com" written as DNS knows it/],
      ['münchen.de', 'xn--mnchen-3ya.de', /written as DNS knows it/],
      ['ｄｏｃｓ.example.com', 'docs.example.com', /written as DNS knows it/],
      ['docs\u200b.example.com', 'docs.example.com', /"docs\\u200b\.example\.com" written as DNS knows it/],
    ];
    for (const [input, domain, note] of accepted) {
      it(`takes ${JSON.stringify(input)} as ${domain}${note ? ', saying what changed' : ''} @row`, () => {
        const result = parseExportDomain(input);
        assert.ok(result.ok, JSON.stringify(result));
        assert.equal(result.domain, domain);
        if (note === undefined) assert.equal(result.note, undefined);
        else {
          assert.match(result.note ?? '', note);
          assert.ok(!(result.note ?? '').includes('s3cret'), 'a query string is not repeated');
          assert.ok(!RAW_CONTROL.test(result.note ?? ''));
        }
      });
    }

    const refusals: [string, RegExp][] = [
      ['', /Enter the domain/],
      ['docs example.com', /holds spaces/],
      ['docs.example.com\u0000', /\\u0000" holds a control character/],
      ['docs.exa\nmple.com', /control character/],
      ['docs\texample.com', /control character/],
      ['docs.example.com\u202e', /cannot have/],
      ['../etc', /not a host name/],
      ['docs/../etc', /not a host name/],
      ['docs..example.com', /not a host name/],
      ['-docs.example.com', /not a host name/],
      ['docs_site.example.com', /not a host name/],
      ['localhost', /not a host name/],
      ['127.0.0.1', /IP address/],
      ['user:s3cret@docs.example.com', /no user name/],
      ['https://user:s3cret@docs.example.com/', /no user name/],
    ];
    for (const [input, says] of refusals) {
      it(`refuses ${JSON.stringify(input)}, saying why @row`, () => {
        const reason = refused(parseExportDomain(input));
        assert.match(reason, says);
        assert.ok(!reason.includes('s3cret'), 'a password is not repeated');
      });
    }
  });

  describe('links the extension would open', () => {
    for (const link of ['https://github.com/acme/docs/pull/7', 'http://127.0.0.1:8080/x', 'http://localhost/x']) {
      it(`opens ${link} @row`, () => assert.ok(checkOpenableLink(link, { loopbackHttp: true }).ok));
    }
    const refusals: [string, RegExp][] = [
      ['javascript:alert(1)', /scheme "javascript:"/],
      ['JavaScript:alert(1)', /scheme "javascript:"/],
      [' javascript:alert(1)', /scheme "javascript:"/],
      ['java\tscript:alert(1)', /scheme "javascript:"/],
      ['command:workbench.action.terminal.new', /scheme "command:"/],
      ['vscode:extension/evil.evil', /scheme "vscode:"/],
      ['vscode-insiders://settings', /scheme "vscode-insiders:"/],
      ['file:///etc/passwd', /scheme "file:"/],
      ['data:text/html,<script>alert(1)</script>', /scheme "data:"/],
      ['http://github.com/acme', /plain http: to a remote host/],
      // A name under .localhost is looked up like any other: not taken for this machine.
      ['http://docs.localhost/x', /plain http: to a remote host/],
      ['https://github.com@evil.example/pull/1', /user name or password/],
      ['https://user:token@github.com/acme/docs/pull/1', /user name or password/],
      ['not a url', /not a valid URL/],
    ];
    for (const [link, says] of refusals) {
      it(`refuses ${JSON.stringify(link)} @row`, () => {
        const verdict = checkOpenableLink(link, { loopbackHttp: true });
        assert.equal(verdict.ok, false);
        if (!verdict.ok) {
          assert.match(verdict.reason, says);
          assert.ok(!verdict.reason.includes('token'));
        }
      });
    }
  });

  describe('the base URL in the Set Base URL box (and --base-url)', () => {
    const accepted: [string, string][] = [
      [' https://api.example.com/admin/ \n', 'https://api.example.com/admin'],
      ['http://127.0.0.1:4000', 'http://127.0.0.1:4000'],
      ['https://bücher.example/api', 'https://xn--bcher-kva.example/api'],
    ];
    for (const [input, base] of accepted) {
      it(`takes ${JSON.stringify(input)} as ${base} @row`, () => assert.deepEqual(checkBaseUrl(input), { ok: true, baseUrl: base }));
    }
    const refusals: [string, RegExp][] = [
      ['https://user:s3cret@api.example.com', /Remove the user name and password/],
      ['https://:s3cret@api.example.com', /Remove the user name and password/],
      ['https://s3cret@api.example.com', /Remove the user name and password/],
      ['user:s3cret@api.example.com', /Enter a full URL, starting with https:\/\//],
      ['api.example.com', /Enter a full URL/],
      ['http://user:s3cret@api.example.com', /must use https:/],
      ['https://api.exa\nmple.com', /line breaks/],
      ['https://api.example.com/\u200badmin', /invisible characters/],
      ['https://api.example.com/?key=s3cret', /query string/],
      ['https://api.example.com/#s3cret', /fragment/],
      ['ftp://api.example.com', /must use https:/],
    ];
    for (const [input, says] of refusals) {
      it(`refuses ${JSON.stringify(input)}, never repeating the password @row`, () => {
        const reason = refused(checkBaseUrl(input));
        assert.match(reason, says);
        assert.ok(!reason.includes('s3cret'), reason);
      });
    }
  });

  describe('the admin key in the Set Admin Key box (and DOCS_ADMIN_API_KEY)', () => {
    const accepted: [string, string | undefined][] = [
      [`  ${KEY}\n`, undefined],
      [`\r\n${KEY}\r\n`, undefined],
      [`\ufeff${KEY}\u200b`, undefined],
      [`Bearer ${KEY}`, 'Took off the "Bearer "'],
      [`Authorization: Bearer ${KEY}`, 'Took off the "Bearer "'],
    ];
    for (const [input, note] of accepted) {
      it(`takes ${JSON.stringify(input.replace(KEY, '<key>'))} as the key @row`, () => {
        const result = checkAdminKey(input);
        assert.ok(result.ok);
        assert.equal(result.value, KEY);
        assert.equal(result.note?.slice(0, note?.length), note);
      });
    }
    const refusals: [string, RegExp][] = [
      ['', /Paste the admin key/],
      [`${KEY.slice(0, 10)} ${KEY.slice(10)}`, /spaces or line breaks inside/],
      [`${KEY.slice(0, 10)}\n${KEY.slice(10)}`, /spaces or line breaks inside/],
      [`${KEY.slice(0, 10)}\u200b${KEY.slice(10)}`, /spaces or line breaks inside/],
      [`${KEY}é`, /characters a key cannot have/],
      [`${KEY}\u0007`, /characters a key cannot have/],
      [`https://api.example.com/?key=${KEY}`, /That is a URL/],
      ['proj_demo', /That is the project id, not the admin key/],
    ];
    for (const [input, says] of refusals) {
      it(`refuses ${JSON.stringify(input.replace(KEY.slice(10), '<rest>').replace(KEY.slice(0, 10), '<key>'))}, never repeating it @row`, () => {
        const reason = refused(checkAdminKey(input, ['proj_demo']));
        assert.match(reason, says);
        assert.ok(!reason.includes(KEY.slice(0, 10)) && !reason.includes('proj_demo'));
      });
    }
  });

  describe('the project id in the Set Project ID box (and --project-id)', () => {
    it('takes a project id, trimmed @row', () => {
      assert.deepEqual(checkProjectId(' proj_demo\n'), { ok: true, value: 'proj_demo' });
      assert.deepEqual(checkProjectId('\u200b64a1f0c2e9b7d3a5c8f1e2d4'), { ok: true, value: '64a1f0c2e9b7d3a5c8f1e2d4' });
    });
    const refusals: [string, RegExp][] = [
      ['', /Enter the project id/],
      [KEY, /That is the admin key, not the project id; it was not saved/],
      [` ${KEY} `, /That is the admin key/],
      [`proj_${KEY}`, /That is the admin key/],
      ['https://dashboard.example.com/proj_demo', /That is a URL/],
      ['proj demo', /no spaces or line breaks/],
      ['proj\ndemo', /no spaces or line breaks/],
      ['team/proj', /no slashes/],
      ['proj\u0000', /one word/],
      ['prój', /one word/],
    ];
    for (const [input, says] of refusals) {
      it(`refuses ${JSON.stringify(input.replace(KEY, '<key>'))}, never repeating the key @row`, () => {
        const reason = refused(checkProjectId(input, [KEY]));
        assert.match(reason, says);
        assert.ok(!reason.includes(KEY));
      });
    }

    it('environment names: no control or invisible characters @row', () => {
      assert.equal(checkEnvironmentName(' staging '), undefined);
      assert.match(checkEnvironmentName('stag\ning') ?? '', /control or invisible/);
      assert.match(checkEnvironmentName('prod\u202e') ?? '', /control or invisible/);
      assert.match(checkEnvironmentName('') ?? '', /Enter a name/);
    });
  });

  describe('the CLI refuses what would send a key where it does not belong, and sends nothing', () => {
    const CLI = resolve(__dirname, '../../../../dist/cli.js');
    let sim: Simulator;
    const printed: string[] = [];

    before(async () => {
      assert.ok(existsSync(CLI), `${CLI} is built by "node esbuild.mjs"`);
      sim = await Simulator.start({ keys: [{ key: KEY }] });
    });

    after(async () => {
      await sim.stop();
      assert.ok(!printed.join('\n').includes(KEY), 'the key was printed');
      assert.ok(!printed.join('\n').includes('s3cret'), 'a password was printed');
    });

    beforeEach(() => sim.clearRequests());

    function cli(args: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
      const merged = Object.fromEntries(Object.entries({ PATH: process.env.PATH, DOCS_ADMIN_API_KEY: KEY, DOCS_ADMIN_BASE_URL: sim.baseUrl, DOCS_ADMIN_PROJECT_ID: sim.projectId, ...env }).filter((e): e is [string, string] => e[1] !== undefined));
      return new Promise((done) => {
        execFile(process.execPath, [CLI, ...args], { env: merged }, (error, stdout, stderr) => {
          printed.push(stdout, stderr);
          collector.record(`cli: docs-admin ${args.join(' ')} (stdout)`, stdout);
          collector.record(`cli: docs-admin ${args.join(' ')} (stderr)`, stderr);
          done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
        });
      });
    }

    async function usageError(args: string[], env: Record<string, string | undefined>, says: RegExp): Promise<void> {
      const run = await cli(args, env);
      assert.equal(run.code, 2, run.stderr);
      // --verbose adds the stack.
      if (!args.includes('--verbose')) assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
      assert.match(run.stderr, says);
      assert.deepEqual(sim.requests, [], 'nothing was sent');
    }

    for (const id of ['a/b', '..', 'x?y', 'job\u0001']) {
      it(`agent get ${JSON.stringify(id)}: exit 2`, () => usageError(['agent', 'get', id], {}, /not a job id|control character/));
    }

    it('agent get <the key>: exit 2, the key not sent nor printed', () => usageError(['agent', 'get', KEY], {}, /That is the admin key, not a job id/));

    it('DOCS_ADMIN_PROJECT_ID holding the key: exit 2', () => usageError(['agent', 'get', 'job-1'], { DOCS_ADMIN_PROJECT_ID: KEY }, /hold the same value/));

    it('--project-id with a slash: exit 2', () => usageError(['agent', 'get', 'job-1', '--project-id', 'team/proj'], {}, /no slashes/));

    it('DOCS_ADMIN_API_KEY with a line break inside: exit 2, said so', () => usageError(['export', 'status', 'x'], { DOCS_ADMIN_API_KEY: `${KEY.slice(0, 9)}\n${KEY.slice(9)}` }, /DOCS_ADMIN_API_KEY: The key holds spaces or line breaks inside/));

    it('DOCS_ADMIN_API_KEY with a newline around it: trimmed, and the request carries it clean', async () => {
      sim.addAgentJob({ id: 'job-trim' });
      const run = await cli(['agent', 'get', 'job-trim'], { DOCS_ADMIN_API_KEY: `\n  ${KEY}\r\n` });
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(sim.requests.map((r) => r.headers.authorization), [`Bearer ${KEY}`]);
    });

    it('--base-url with a password: exit 2, the password never printed, even with --verbose', () => usageError(['export', 'status', 'x', '--verbose', '--base-url', 'https://admin:s3cret@api.example.com'], {}, /Remove the user name and password/));

    it('export start with an international domain: sent in punycode, with a note', async () => {
      const run = await cli(['export', 'start', 'dócs.example.com']);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /note: Using "xn--dcs-gna\.example\.com"/);
      assert.deepEqual(JSON.parse(sim.requests[0]?.body ?? '{}'), { domain: 'xn--dcs-gna.example.com' });
    });

    it('export start with a control character: exit 2', () => usageError(['export', 'start', 'docs.example.com\u0007'], {}, /\\u0007" holds a control character/));
  });
});
