/**
 * The API fault matrix through the CLI: for every fault, one line on stderr that names the
 * cause and says what to do, nothing on stdout, the exit code the README documents; with
 * `--verbose` the same exit code, the requests and a stack, and still no secret (everything
 * printed goes to the suite's collector).
 *
 * The built `dist/cli.js` (what ships) is loaded in this process and its `run()` called with
 * captured output, so the HTTP waits can be shortened (`Io.http`): the timeouts here are
 * 250 ms, not 30 s.
 */
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Io } from '../../../src/cli/context';
import { abortableSleep } from '../../../src/core/abort';
import { collector } from '../support/collector';
import { AGENT_ID, EXPORT_ID, FAULTS, keyOf, timeoutsFor, type Call, type FaultCase } from './cases';
import { seedJobs, startWorld, type World } from './world';

const CLI = resolve(__dirname, '../../../../dist/cli.js');

type Run = (argv: string[], io: Io) => Promise<number>;

const ARGS: Record<Call, string[]> = {
  'agent.get': ['agent', 'get', AGENT_ID],
  'export.status': ['export', 'status', EXPORT_ID],
  'export.start': ['export', 'start', 'docs.acme.dev'],
  'export.bundle': ['export', 'bundle', EXPORT_ID],
};

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

describe('reliability: API faults through the CLI (one line, an exit code) @api-faults @seen', () => {
  let run: Run;
  let w: World;

  before(() => {
    assert.ok(existsSync(CLI), `${CLI} is built by "node esbuild.mjs"`);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    run = (require(CLI) as { run: Run }).run;
  });
  beforeEach(async () => {
    w = await startWorld();
    seedJobs(w);
  });
  afterEach(() => w.close());

  async function cli(c: FaultCase, extra: string[] = []): Promise<Outcome> {
    const target = c.target?.(w, 'cli') ?? { baseUrl: w.sim.baseUrl };
    let stdout = '';
    let stderr = '';
    const io: Io = {
      out: (text) => {
        stdout += text;
      },
      err: (text) => {
        stderr += text;
      },
      isTTY: false,
      env: { DOCS_ADMIN_API_KEY: keyOf(c), DOCS_ADMIN_BASE_URL: target.baseUrl, DOCS_ADMIN_PROJECT_ID: w.sim.projectId },
      signal: new AbortController().signal,
      http: {
        ...timeoutsFor(c),
        connectTimeoutMs: 1_000,
        sleep: (ms, signal) => abortableSleep(Math.min(ms, 2), signal),
        ...(target.dispatcher === undefined ? {} : { dispatcher: target.dispatcher }),
      },
    };
    const args = [...ARGS[c.call], ...extra];
    const code = await run(args, io);
    collector.record(`cli: docs-admin ${args.join(' ')} (stdout)`, stdout);
    collector.record(`cli: docs-admin ${args.join(' ')} (stderr)`, stderr);
    return { code, stdout, stderr };
  }

  for (const c of FAULTS) {
    it(`${c.name}: exit ${c.exit}`, async () => {
      await c.arrange(w, c.call);
      const plain = await cli(c);
      assert.equal(plain.code, c.exit, plain.stderr);
      assert.equal(plain.stdout, '', 'nothing on stdout');
      const lines = plain.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, `one line: ${plain.stderr}`);
      assert.match(lines[0] ?? '', /^docs-admin: /);
      assert.match(plain.stderr, c.cause, 'names the cause');
      assert.match(plain.stderr, c.action, 'says what to do');

      const verbose = await cli(c, ['--verbose']);
      assert.equal(verbose.code, c.exit, verbose.stderr);
      assert.match(verbose.stderr, c.cause);
      assert.match(verbose.stderr, /^\s+at .+:\d+:\d+\)?$/m, 'a stack with --verbose');
      if (c.target === undefined) assert.match(verbose.stderr, /\[debug\] (GET|POST) \/v\d\//, 'the requests with --verbose');
    });
  }
});
