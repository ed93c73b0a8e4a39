/**
 * The GitHub Action's entry (dist/action/index.js) run as the runner runs it: a process of the
 * Node that action.yml names (node24: the test host's, see support/actionNode.ts) with its inputs
 * in `INPUT_<NAME>` variables (action.yml's defaults filled in), `GITHUB_OUTPUT` and
 * `GITHUB_STEP_SUMMARY` files, the workspace as its folder, against the simulator. And
 * action.yml held to the inputs and outputs the entry reads and writes.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { readStaticExport } from '../../src/core/helm/values';
import { splitCommand } from '../../src/action/rolloutInput';
import { checkOutput } from '../../src/action/outputs';
import { inputVariable } from '../../src/action/runner';
import { ENTRY, INPUTS, OUTPUTS } from '../../src/action/spec';
import { playgroundAnalytics, PLAYGROUND_CONTACTS, Simulator } from '../simulator';
import { makeTestCertificates, type TestCertificates } from '../support/certificates';
import { actionNode, type ActionNode } from './support/actionNode';
import { docsJson, writeSite } from './support/site';
import { collector } from './support/collector';

const ROOT = resolve(__dirname, '../../..');
const KEY = 'da_action_test_key_93b1c2';

interface ActionYml {
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string }>;
  runs: { using: string; main: string };
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  /** Everything the run left where a person or a later step can read it. */
  everything: string;
}

const actionYml = () => parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as ActionYml;

/** The outputs file, read as the runner reads it (the delimited form only). */
function readOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  let rest = text;
  for (;;) {
    const head = /^([\w-]+)<<(\S+)\n/.exec(rest);
    if (head === null) break;
    const [whole, name = '', delimiter = ''] = head;
    const end = rest.indexOf(`\n${delimiter}\n`, whole.length - 1);
    assert.ok(end >= 0, `the delimiter of ${name} closes it`);
    outputs[name] = rest.slice(whole.length, end);
    rest = rest.slice(end + delimiter.length + 2);
  }
  assert.equal(rest, '', 'nothing else in GITHUB_OUTPUT');
  return outputs;
}

describe('the GitHub Action, run as the runner runs it, against the simulator', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let pki: TestCertificates;
  let work: string;
  let node: ActionNode;
  let runs = 0;
  const written = new Set<string>();

  before(async () => {
    assert.ok(existsSync(join(ROOT, ENTRY)), `${ENTRY} is built by "node esbuild.mjs"`);
    node = actionNode(actionYml().runs.using);
    if (node.warning !== undefined) console.warn(`warning: ${node.warning}`);
    // TLS, as every real API and object store uses it: the bundle link output is https: only.
    pki = makeTestCertificates();
    sim = await Simulator.start({ timeScale: 1_000, keys: [{ key: KEY }], exportDefaults: { queuedMs: 0, durationMs: 0, pages: 12 }, agentDefaults: { durationMs: 0 }, tls: { key: pki.key, cert: pki.cert } });
    work = mkdtempSync(join(tmpdir(), 'docs-admin-action-'));
  });

  after(async () => {
    // Nothing was started when the Node the action names is missing (before() failed first).
    await (sim as Simulator | undefined)?.stop();
    (pki as TestCertificates | undefined)?.remove();
    if ((work as string | undefined) !== undefined) rmSync(work, { recursive: true, force: true });
  });

  function action(inputs: Record<string, string>, env: Record<string, string> = {}): Promise<Run> {
    const dir = join(work, `run-${++runs}`);
    const workspace = join(dir, 'workspace');
    mkdirSync(workspace, { recursive: true });
    const outputFile = join(dir, 'output');
    const summaryFile = join(dir, 'summary');
    writeFileSync(outputFile, '');
    writeFileSync(summaryFile, '');
    // As the runner does: each declared input given or defaulted becomes INPUT_<NAME>.
    const runnerEnv: Record<string, string> = { PATH: process.env.PATH ?? '', GITHUB_OUTPUT: outputFile, GITHUB_STEP_SUMMARY: summaryFile, GITHUB_WORKSPACE: workspace, DOCS_ADMIN_CA_FILE: pki.caFile, ...env };
    const all: Record<string, string> = { 'base-url': sim.baseUrl, 'project-id': sim.projectId, 'api-key': KEY, ...inputs };
    for (const [name, spec] of Object.entries(actionYml().inputs)) {
      const value = all[name] ?? spec.default;
      if (value !== undefined) runnerEnv[inputVariable(name)] = value;
    }
    for (const name of Object.keys(all)) assert.ok(name in actionYml().inputs, `${name} is an input of action.yml`);
    return new Promise((done) => {
      execFile(node.path, [join(ROOT, ENTRY)], { cwd: workspace, env: runnerEnv }, (error, stdout, stderr) => {
        const outputText = readFileSync(outputFile, 'utf8');
        const summary = readFileSync(summaryFile, 'utf8');
        // The masking lines hold the key by design (bare, and as given when that differs); everything after them must not.
        const lines = stdout.split('\n');
        const afterMask = lines.slice(Math.max(1, lines.findIndex((line) => !line.startsWith('::add-mask::')))).join('\n');
        collector.record(`action ${inputs.operation ?? 'publish'} (log)`, afterMask);
        collector.record(`action ${inputs.operation ?? 'publish'} (stderr)`, stderr);
        collector.record(`action ${inputs.operation ?? 'publish'} (outputs)`, outputText);
        collector.record(`action ${inputs.operation ?? 'publish'} (summary)`, summary);
        const outputs = readOutputs(outputText);
        for (const name of Object.keys(outputs)) written.add(name);
        done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr, outputs, summary, everything: [afterMask, stderr, outputText, summary].join('\n') });
      });
    });
  }

  /** What every run must hold to: the key masked first, and in nothing else. */
  function masked(run: Run): void {
    assert.equal(run.stdout.split('\n')[0], `::add-mask::${KEY}`, 'the masking line comes before any other output');
    assert.ok(!run.everything.includes(KEY), 'the key is in no output, log line or summary');
    assert.doesNotMatch(run.everything, /X-Amz-Signature=[0-9a-f]/i, 'no link signature anywhere');
  }

  it('export: sets the job id, the bundle link without its signature and its expiry, and summarises', async () => {
    const run = await action({ operation: 'export', domain: 'docs.acme.dev', version: '2.4.0' });
    assert.equal(run.code, 0, run.everything);
    masked(run);
    const jobId = run.outputs['job-id'] ?? '';
    assert.ok(sim.requests.some((r) => r.method === 'POST' && r.path === '/v1/static-export/jobs'));
    assert.match(jobId, /\S/);
    assert.match(run.outputs['bundle-url'] ?? '', /^https:\/\/127\.0\.0\.1:\d+\/.+\?\[redacted\]$/);
    assert.ok(Math.abs(Date.parse(run.outputs['expires-at'] ?? '') - (Date.now() + 3600_000)) < 60_000, run.outputs['expires-at']);
    assert.deepEqual(Object.keys(run.outputs).sort(), ['bundle-url', 'expires-at', 'job-id']);
    assert.match(run.summary, /^### Docs Admin: export docs\\\.acme\\\.dev\n/);
    assert.match(run.summary, /\*\*Exported\*\*/);
    assert.ok(run.summary.includes(`- **Export job:** ${jobId.replace(/[-_.]/g, (c) => `\\${c}`)}`), run.summary);
    assert.match(run.summary, /- \*\*Pages:\*\* 12\n/);
    assert.match(run.summary, /Bundle link \(without its signature\):\*\* https\\:/);
    assert.doesNotMatch(run.stdout, /^::error/m);
  });

  it('an api-key given as "Bearer <key>": the key sent is masked bare (and as given) before anything else, and is in nothing after', async () => {
    const run = await action({ operation: 'export', domain: 'docs.acme.dev', 'api-key': `Bearer ${KEY}` });
    assert.equal(run.code, 0, run.everything);
    const masks = run.stdout.split('\n').filter((line) => line.startsWith('::add-mask::'));
    assert.ok(masks.includes(`::add-mask::${KEY}`), `the bare key is masked (${masks.length} masking lines)`);
    assert.ok(masks.includes(`::add-mask::Bearer ${KEY}`), 'and the value as given');
    const before = run.stdout.split('\n').findIndex((line) => !line.startsWith('::add-mask::'));
    assert.equal(before, masks.length, 'the masking lines come before any other output');
    assert.ok(!run.stdout.split('\n').slice(masks.length).join('\n').includes(KEY), 'the key is in no line after the masks');
  });

  it('publish: updates the values file, runs the rollout as argv without a shell or the key, and summarises', async () => {
    const before = written.size;
    const workspaceOf = (n: number) => join(work, `run-${n}`, 'workspace');
    const next = workspaceOf(runs + 1);
    mkdirSync(join(next, 'deploy'), { recursive: true });
    writeFileSync(join(next, 'deploy/values.yaml'), 'replicaCount: 2\nstaticExport:\n  enabled: true\n  bundleUrl: ""\n');
    writeFileSync(
      join(next, 'rollout.js'),
      "const fs = require('fs');\n" +
        "fs.writeFileSync('rollout.json', JSON.stringify({ argv: process.argv.slice(2), env: Object.keys(process.env).filter((k) => /^input_/i.test(k) || /^docs_admin_api_key$/i.test(k)), values: fs.readFileSync('deploy/values.yaml', 'utf8') }));\n" +
        "console.log('::warning::from the rollout');\nconsole.log('release upgraded');\n",
    );
    const run = await action(
      { domain: 'docs.acme.dev', 'values-file': 'deploy/values.yaml', 'rollout-command': `node rollout.js "two words" 'single quoted' back\\ slash --set=a` },
      // Windows reads variable names whatever their case: each spelling is the key.
      { DOCS_ADMIN_API_KEY: KEY, docs_admin_api_key: KEY, 'input_api-key': KEY },
    );
    assert.equal(run.code, 0, run.everything);
    masked(run);
    const rollout = JSON.parse(readFileSync(join(next, 'rollout.json'), 'utf8')) as { argv: string[]; env: string[]; values: string };
    assert.deepEqual(rollout.argv, ['two words', 'single quoted', 'back slash', '--set=a']);
    assert.deepEqual(rollout.env, [], 'neither the key nor any input reaches the rollout, whatever the case of its name');
    const url = readStaticExport(rollout.values, 'values.yaml')?.bundleUrl?.value;
    assert.match(String(url), /X-Amz-Signature=/, 'the values file holds the signed link when the rollout runs');
    // The rollout's output is in the log, a workflow command in it defused.
    assert.match(run.stdout, /^release upgraded$/m);
    assert.doesNotMatch(run.stdout, /^::warning::from the rollout/m);
    assert.match(run.stdout, /^:\u200b:warning::from the rollout$/m);
    assert.equal(run.outputs['bundle-url'], `${String(url).split('?')[0]}?[redacted]`);
    assert.match(run.summary, /^### Docs Admin: publish docs\\\.acme\\\.dev\n\n\*\*Published\*\*: the values file points at the new bundle, and the rollout is done\./);
    assert.match(run.summary, /- \*\*Values file:\*\* deploy\/values\\\.yaml \(updated\)\n/);
    assert.match(run.summary, /- \*\*Rollout:\*\* done\n/);
    assert.ok(written.size >= before);
  });

  it('a failed export fails the step: exit 1, one error annotation, the server text defused, the summary says so', async () => {
    sim.setExportDefaults({ outcome: 'failed', error: 'render failed\n::add-mask::x <img src=x onerror=alert(1)> [retry](https://evil.example)' });
    try {
      const run = await action({ operation: 'export', domain: 'docs.acme.dev' });
      assert.equal(run.code, 1, run.everything);
      masked(run);
      const errors = run.stdout.split('\n').filter((l) => l.startsWith('::error'));
      assert.equal(errors.length, 1, run.everything);
      assert.match(errors[0] ?? '', /^::error title=Docs Admin export failed::The export \S+ failed: render failed%0A:\u200b:add-mask::x <img/);
      assert.doesNotMatch(run.stdout, /^::add-mask::x/m, 'the server cannot add a command of its own');
      assert.match(run.outputs['job-id'] ?? '', /\S/, 'the job id is set: the job exists');
      assert.equal(run.outputs['bundle-url'], undefined);
      assert.match(run.summary, /\*\*Failed:\*\* The export \S+ failed\\: render failed \\:\\:add\\-mask\\:\\:x /);
      assert.match(run.summary, /&lt;img src\\=x onerror\\=alert\\\(1\\\)/);
      assert.doesNotMatch(run.summary, /<img|\[retry\]\(/);
    } finally {
      sim.setExportDefaults({ outcome: 'completed' });
    }
  });

  it('agent: creates the job from the prompt, waits for it, sets the pull request link', async () => {
    const run = await action({ operation: 'agent', prompt: 'Document the new --timeout flag.' });
    assert.equal(run.code, 0, run.everything);
    masked(run);
    const id = run.outputs['job-id'] ?? '';
    assert.deepEqual(sim.agentPrompts(id), ['Document the new --timeout flag.']);
    assert.match(run.outputs['pr-link'] ?? '', /^https:\/\/github\.com\/acme\/docs\/pull\/\d+$/);
    assert.match(run.summary, /\*\*Done\*\*: the agent opened a pull request\./);
    assert.ok(run.summary.includes(`- **Pull request:** [https\\://github\\.com/acme/docs/pull/`), run.summary);
    sim.setAgentDefaults({ outcome: 'failed' });
    try {
      const failed = await action({ operation: 'agent', prompt: 'Break it.' });
      assert.equal(failed.code, 1);
      assert.match(failed.stdout, /^::error title=Docs Admin agent failed::The agent job \S+ failed\.$/m);
    } finally {
      sim.setAgentDefaults({ outcome: 'pr' });
    }
  });

  it('agent: a 429 on create is waited out once when Retry-After fits in the timeout, and fails the step otherwise', async () => {
    const creates = () => sim.requests.filter((r) => r.method === 'POST' && r.path === `/v2/agent/${sim.projectId}/job`).length;
    let before = creates();
    sim.injectFault({ route: 'agent.create', kind: 'status', status: 429, body: { error: 'Rate limit exceeded' }, headers: { 'retry-after': '1' } });
    const started = Date.now();
    const run = await action({ operation: 'agent', prompt: 'Once more.' });
    assert.equal(run.code, 0, run.everything);
    assert.ok(Date.now() - started >= 1_000, 'it waited as told');
    assert.match(run.stdout, /rate limited \(429\); trying again in 1 s/);
    assert.equal(creates() - before, 2);
    assert.deepEqual(sim.agentPrompts(run.outputs['job-id'] ?? ''), ['Once more.']);

    before = creates();
    sim.injectFault({ route: 'agent.create', kind: 'status', status: 429, headers: { 'retry-after': '1' }, times: 2 });
    const twice = await action({ operation: 'agent', prompt: 'Twice.' });
    assert.equal(twice.code, 5, twice.everything);
    assert.equal(creates() - before, 2, 'waited out once, not twice');
    assert.equal(twice.outputs['job-id'], undefined);

    before = creates();
    sim.injectFault({ route: 'agent.create', kind: 'status', status: 429, headers: { 'retry-after': '3600' } });
    const long = await action({ operation: 'agent', prompt: 'Later.', timeout: '60' });
    assert.equal(long.code, 5);
    assert.match(long.stdout, /^::error title=Docs Admin agent failed::The agent's limit was hit .*Try again after \d\d:\d\d \(in 3600 s\)/m);
    assert.equal(creates() - before, 1, 'not waited: longer than the timeout');
  });

  it('agent: a create that got a 5xx is never sent again (the job may exist), and the annotation says so', async () => {
    const creates = () => sim.requests.filter((r) => r.method === 'POST' && r.path === `/v2/agent/${sim.projectId}/job`).length;
    const before = creates();
    sim.injectFault({ route: 'agent.create', kind: 'status', status: 502 });
    const run = await action({ operation: 'agent', prompt: 'Maybe.' });
    assert.equal(run.code, 5, run.everything);
    assert.match(run.stdout, /^::error title=Docs Admin agent failed::.*may have been created anyway/m);
    assert.equal(creates() - before, 1);
  });

  it('a job id that is no id (shell syntax) is refused where it arrives: the step fails, and no output carries it', async () => {
    const marker = join(work, 'job-id-ran');
    sim.injectFault({ route: 'export.start', kind: 'status', status: 202, body: { jobId: `e1$(touch ${marker})`, status: 'queued' } });
    const run = await action({ operation: 'export', domain: 'docs.acme.dev' });
    assert.equal(run.code, 5, run.everything);
    masked(run);
    assert.match(run.stdout, /^::error title=Docs Admin export failed::.*field "jobId" is not a job id/m);
    assert.deepEqual(run.outputs, {}, 'no output is set');
    assert.equal(existsSync(marker), false);
  });

  it('a pull request link that is not https:, or holds shell syntax, is not set as pr-link: a warning says why', async () => {
    const marker = join(work, 'pr-link-ran');
    for (const prLink of [`https://github.com/acme/docs/pull/1$(touch ${marker})`, 'https://github.com/acme/docs/pull/1";touch x;"', 'http://github.com/acme/docs/pull/1', 'javascript:alert(1)', 'not a link']) {
      const answer = { id: 'job-hostile-pr', status: 'completed', source: { repository: 'https://github.com/acme/docs', ref: 'docs-agent/x' }, model: 'm', prLink, createdAt: '2026-01-01T00:00:00Z', archivedAt: null };
      sim.injectFault({ route: 'agent.create', kind: 'status', status: 201, body: { ...answer, status: 'active', prLink: null } });
      sim.injectFault({ route: 'agent.get', kind: 'status', status: 200, body: answer, times: 5 });
      const run = await action({ operation: 'agent', prompt: 'Fix it.' });
      sim.clearFaults();
      assert.equal(run.code, 0, `${prLink}: ${run.everything}`);
      masked(run);
      assert.equal(run.outputs['job-id'], 'job-hostile-pr');
      assert.equal(run.outputs['pr-link'], undefined, prLink);
      assert.match(run.stdout, /^::warning::The pr-link output was not set: /m, prLink);
    }
    assert.equal(existsSync(marker), false);
  });

  it('a bundle link that holds shell syntax is not set as bundle-url (nor a plain http: one): a warning says why', async () => {
    const marker = join(work, 'bundle-url-ran');
    for (const bundleUrl of [`https://storage.example/b$(touch ${marker}).tar.gz?X-Amz-Signature=abc`, 'https://storage.example/b`id`.tar.gz', 'http://storage.example/b.tar.gz?X-Amz-Signature=abc']) {
      sim.injectFault({ route: 'export.bundle', kind: 'status', status: 200, body: { bundleUrl, expiresAt: new Date(Date.now() + 3_600_000).toISOString() } });
      const run = await action({ operation: 'export', domain: 'docs.acme.dev' });
      assert.equal(run.code, 0, `${bundleUrl}: ${run.everything}`);
      masked(run);
      assert.equal(run.outputs['bundle-url'], undefined, bundleUrl);
      assert.match(run.outputs['expires-at'] ?? '', /^\d{4}-\d\d-\d\dT/);
      assert.match(run.stdout, /^::warning::The bundle-url output was not set: /m, bundleUrl);
      assert.doesNotMatch(run.stdout, /X-Amz-Signature=abc/);
    }
    assert.equal(existsSync(marker), false);
  });

  it("the documented workflow steps, run as the runner runs them, take the outputs (and the event's text) as data: a hostile value runs nothing", async () => {
    // Every workflow example of docs/github-actions.md (publish, preview, deploy, report): the steps that read an expression.
    const page = readFileSync(join(ROOT, 'docs', 'github-actions.md'), 'utf8');
    const blocks = [...page.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] ?? '').filter((b) => b.includes('uses: docs-admin/docs-admin@'));
    assert.ok(blocks.length >= 3, `docs/github-actions.md has the workflow examples (${blocks.length})`);
    const steps = blocks.flatMap((block) => Object.values((parse(block) as { jobs: Record<string, { steps: { id?: string; uses?: string; run?: string; env?: Record<string, string> }[] }> }).jobs).flatMap((job) => job.steps));
    const users = steps.filter((step) => step.run !== undefined && `${step.run} ${JSON.stringify(step.env ?? {})}`.includes('${{'));
    assert.ok(users.some((step) => JSON.stringify(step.env ?? {}).includes('steps.docs.outputs.')), 'a step uses the outputs of publish');
    assert.ok(users.some((step) => JSON.stringify(step.env ?? {}).includes('steps.preview.outputs.preview-url')), 'a step uses the preview URL');
    const dir = mkdtempSync(join(tmpdir(), 'docs-admin-readme-step-'));
    try {
      const marker = join(dir, 'PWNED');
      const hostile = `e1$(touch ${marker})\`touch ${marker}\`";touch ${marker};"'`;
      // The runner replaces each ${{ … }} expression with its value as text, in run: and env: alike:
      // an output, or the event's own text (a pull request's branch name is the author's choice).
      const expand = (text: string) => text.replace(/\$\{\{[^}]*\}\}/g, () => hostile);
      for (const step of users) {
        const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([name, value]) => [name, expand(String(value))]));
        const script = join(dir, 'step.sh');
        writeFileSync(script, expand(step.run ?? ''));
        // GitHub's default shell on Linux runners: bash --noprofile --norc -eo pipefail {0}.
        const out = await new Promise<string>((done) => execFile('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd: dir, env: { PATH: process.env.PATH ?? '', ...env } }, (_error, stdout) => done(stdout)));
        assert.equal(existsSync(marker), false, `the documented step ran a value: ${step.run ?? ''}`);
        assert.ok(out.includes(hostile), `the value is printed as it is: ${out}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('usage and credential problems fail with exit 2 or 3 and an annotation, before any request', async () => {
    const requests = sim.requests.length;
    for (const [inputs, code, message] of [
      [{ operation: 'destroy' }, 2, /The operation input is "destroy"/],
      [{ operation: 'preview' }, 2, /The branch input is required by the preview operation/],
      [{ operation: 'preview', branch: '--upload-pack=x' }, 2, /The branch input: That branch cannot be previewed: a branch name may not start with "-"/],
      [{ domain: 'docs.acme.dev' }, 2, /The values-file input is required by the publish operation/],
      [{ operation: 'export', domain: 'docs acme dev' }, 2, /The domain input/],
      [{ operation: 'agent' }, 2, /The prompt input is required/],
      [{ operation: 'export', domain: 'docs.acme.dev', timeout: 'soon' }, 2, /The timeout input takes a positive number/],
      [{ domain: 'docs.acme.dev', 'values-file': 'v.yaml', 'rollout-command': 'helm upgrade docs ./chart && kubectl rollout status' }, 2, /runs without a shell, so "&"/],
    ] as const) {
      const run = await action(inputs);
      assert.equal(run.code, code, `${JSON.stringify(inputs)}: ${run.everything}`);
      masked(run);
      assert.match(run.stdout, message);
      assert.match(run.stdout, inputs.operation === 'destroy' ? /^::error title=Docs Admin failed::/m : /^::error title=Docs Admin \w+ failed::/m);
      assert.match(run.summary, /^### Docs Admin(: \w+)?/);
      assert.match(run.summary, /\*\*Failed:\*\* /);
    }
    assert.equal(sim.requests.length, requests, 'nothing was sent');
    const wrongKey = await action({ operation: 'export', domain: 'docs.acme.dev', 'api-key': 'da_not_a_known_key_00' });
    assert.equal(wrongKey.code, 3);
  });

  it('report: what readers said in the last 7 days, in the job summary, every outside text escaped and no reader contact anywhere', async () => {
    const data = playgroundAnalytics(sim.now());
    const at = sim.now() - 86_400_000;
    data.searches.push({ query: '[free](https://evil.example) | <img src=x onerror=alert(1)>', at, hits: 50, clicks: {} });
    data.conversations.push({ id: '01JDQ8V7W4T2M8X6Y1Z3A5B7C9', at, query: '**bold** ::error::x\n# heading', response: '', sources: [], resolutionStatus: 'unanswered', queryCategory: 'a|b', pageUrl: 'https://docs.acme.dev/quickstart', caller: 'web' });
    sim.setAnalytics(data);
    sim.clearRequests();
    const run = await action({ operation: 'report' });
    assert.equal(run.code, 0, run.everything);
    masked(run);
    assert.deepEqual(run.outputs, {});
    assert.match(run.summary, /^### Docs Admin: what readers said, \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}\n/);
    assert.match(run.summary, /#### Pages with the most thumbs down\n\n\| Page \| Thumbs down \| Thumbs up \| Open comments \| Unanswered questions \| Views \|\n\| --- \|/);
    // The quickstart first (the most thumbs down); the counts depend on the hour the test runs (7 days from midnight).
    assert.match(run.summary, /\| --- \| --- \| --- \| --- \| --- \| --- \|\n\| \/quickstart \| [1-9]\d* \| \d+ \| \d+ \| \d+ \| [1-9]\d* \|\n/);
    assert.match(run.summary, /#### Questions the docs assistant could not answer\n[\s\S]*How do I install the CLI on Windows\?/);
    assert.match(run.summary, /#### Searches that found nothing useful\n[\s\S]*\| windows install \| 14 \| 0 % \| none \|/);
    // Outside text can neither make a link, a tag, a cell, a heading nor a workflow command.
    assert.ok(run.summary.includes('\\[free\\]\\(https\\:'), run.summary);
    assert.ok(!run.summary.includes('<img'));
    assert.ok(run.summary.includes('a\\|b'));
    assert.doesNotMatch(run.summary, /^# heading/m);
    assert.doesNotMatch(run.stdout, /^::error::x/m);
    for (const contact of PLAYGROUND_CONTACTS) assert.ok(!run.everything.includes(contact), 'no reader contact in the log or the summary');
    // One set of requests for the whole site, with the 7-day range.
    const routes = sim.requests.filter((r) => r.route.startsWith('analytics.'));
    assert.deepEqual([...new Set(routes.map((r) => r.route))].sort(), ['analytics.assistant', 'analytics.feedback', 'analytics.feedbackByPage', 'analytics.searches', 'analytics.views']);
    const q = new URLSearchParams(routes[0]!.query);
    assert.equal((Date.parse(q.get('dateTo') ?? '') - Date.parse(q.get('dateFrom') ?? '')) / 86_400_000, 7);
    const bad = await action({ operation: 'report', days: '0' });
    assert.equal(bad.code, 2);
    assert.match(bad.stdout, /The days input takes a whole number from 1 to 90/);
    const noProject = await action({ operation: 'report', 'project-id': '' });
    assert.equal(noProject.code, 2);
  });

  it('deploy: queues a deployment, follows it to success, sets status-id and status, and summarises the commit', async () => {
    const run = await action({ operation: 'deploy' });
    assert.equal(run.code, 0, run.everything);
    masked(run);
    const id = run.outputs['status-id'] ?? '';
    assert.match(id, /^[0-9a-f]{24}$/);
    assert.equal(sim.deployment(id)?.status, 'success');
    assert.equal(run.outputs.status, 'success');
    assert.equal(run.outputs['preview-url'], undefined);
    assert.equal(sim.requests.filter((r) => r.route === 'deploy.trigger' && r.status === 202).length >= 1, true);
    assert.match(run.summary, /^### Docs Admin: deploy\n\n\*\*Deployed\*\*: the site is live\./);
    assert.match(run.summary, /- \*\*Commit:\*\* [0-9a-f]{12} \\\(main\\\) Merge pull request \\#128 from acme\/quickstart\n/);
    assert.match(run.stdout, /^ {2}Deployment complete$/m, 'the log lines are in the step\'s log');
  });

  it('preview: sets the preview URL at once, follows the preview, and a redeploy of the branch keeps the URL', async () => {
    const first = await action({ operation: 'preview', branch: 'docs-agent/fix-links' });
    assert.equal(first.code, 0, first.everything);
    masked(first);
    assert.equal(first.outputs['preview-url'], sim.previewUrl('docs-agent/fix-links'));
    assert.equal(first.outputs.status, 'success');
    assert.match(first.summary, /^### Docs Admin: preview of docs\\-agent\/fix\\-links\n\n\*\*Preview ready\.\*\*/);
    const again = await action({ operation: 'preview', branch: 'docs-agent/fix-links', wait: 'false' });
    assert.equal(again.code, 0, again.everything);
    assert.equal(again.outputs['preview-url'], first.outputs['preview-url']);
    assert.notEqual(again.outputs['status-id'], first.outputs['status-id']);
    assert.equal(again.outputs.status, undefined, 'not followed: no status');
    const sent = sim.requests.filter((r) => r.route === 'preview.trigger').at(-1);
    assert.deepEqual(JSON.parse(sent?.body ?? '{}'), { branch: 'docs-agent/fix-links' });
  });

  it('a failed deployment fails the step (exit 1); the summary holds the escaped tail of its logs', async () => {
    const hostile = ['<img src=x onerror=alert(1)> [click](command:workbench.action.terminal.new)', '::add-mask::oops', 'Error: page /broken failed'];
    sim.setDeploymentDefaults({ outcome: 'failure', seed: { failureLines: hostile, summary: 'Build failed <b>badly</b>' } });
    try {
      const run = await action({ operation: 'deploy' });
      assert.equal(run.code, 1, run.everything);
      masked(run);
      assert.equal(run.outputs.status, 'failure');
      assert.match(run.stdout, /^::error title=Docs Admin deploy failed::The deployment [0-9a-f]{24} failed: Build failed <b>badly<\/b>$/m);
      assert.doesNotMatch(run.stdout, /^::add-mask::oops/m, 'a log line cannot become a workflow command');
      assert.match(run.summary, /\*\*The last \d+ log lines:\*\*/);
      assert.match(run.summary, /^> Error\\: page \/broken failed {2}$/m);
      assert.match(run.summary, /^> &lt;img src\\=x onerror\\=alert\\\(1\\\)\\> \\\[click\\\]\\\(command\\:workbench/m);
      assert.doesNotMatch(run.summary, /<img|<b>|\]\(command:/);
    } finally {
      sim.setDeploymentDefaults({ outcome: 'success', seed: {} });
    }
  });

  it('preview: a 403 says the plan lacks previews (exit 3); a preview URL that is not https is not written', async () => {
    sim.setPreviewsEnabled(false);
    try {
      const run = await action({ operation: 'preview', branch: 'feature/x' });
      assert.equal(run.code, 3, run.everything);
      assert.match(run.stdout, /^::error title=Docs Admin preview failed::Access denied \(403: Preview deployments are not available on your current plan\.\)\. The cause: the organization's plan does not include preview deployments\./m);
    } finally {
      sim.setPreviewsEnabled(true);
    }
    sim.injectFault({ route: 'preview.trigger', kind: 'status', status: 202, body: { statusId: 'abc123', previewUrl: 'javascript:alert(document.cookie)' } });
    const hostile = await action({ operation: 'preview', branch: 'feature/x', wait: 'false' });
    assert.equal(hostile.code, 0, hostile.everything);
    assert.equal(hostile.outputs['status-id'], 'abc123');
    assert.equal(hostile.outputs['preview-url'], undefined);
    assert.match(hostile.stdout, /^::warning::The preview URL in the answer was not kept: its scheme "javascript:" is not allowed/m, 'refused where the answer is read');
    assert.doesNotMatch(hostile.summary, /\]\(javascript:/);
  });

  it('preview: a 202 with the URL and no status id sets preview-url, says it cannot be followed, and succeeds', async () => {
    sim.injectFault({ route: 'preview.trigger', kind: 'status', status: 202, body: { previewUrl: 'https://acme-no-id.example.app' } });
    const run = await action({ operation: 'preview', branch: 'feature/no-id' });
    masked(run);
    assert.equal(run.code, 0, run.everything);
    assert.equal(run.outputs['preview-url'], 'https://acme-no-id.example.app/');
    assert.equal(run.outputs['status-id'], undefined);
    assert.match(run.stdout, /^Preview of feature\/no-id queued, but the answer gives no status id, so it cannot be followed: open its URL, or follow it on the dashboard\.$/m);
  });

  it('preview: a preview URL with shell syntax, or plain http: (even to loopback), is not set as preview-url, and a later script runs nothing', async () => {
    const marker = join(work, 'preview-url-ran');
    for (const previewUrl of [`https://acme-feature.example.app/$(touch ${marker})`, 'https://acme-feature.example.app/`id`', "https://acme-feature.example.app/';id;'", 'http://127.0.0.1:8080/', 'https://user:pw@acme-feature.example.app/']) {
      sim.injectFault({ route: 'preview.trigger', kind: 'status', status: 202, body: { statusId: 'abc124', previewUrl } });
      const run = await action({ operation: 'preview', branch: 'feature/x', wait: 'false' });
      sim.clearFaults();
      assert.equal(run.code, 0, `${previewUrl}: ${run.everything}`);
      assert.equal(run.outputs['status-id'], 'abc124');
      assert.equal(run.outputs['preview-url'], undefined, previewUrl);
      // Refused where the answer is read (no link: a blank, a user name), or where the output is set (shell syntax, plain http:).
      assert.match(run.stdout, /^::warning::(The preview-url output was not set: |The preview URL in the answer was not kept: )/m, previewUrl);
      assert.ok(!run.summary.includes(previewUrl), 'the summary links it only when it passed');
    }
    assert.equal(existsSync(marker), false);
  });

  it('check: annotations on the lines of the docs folder and a summary; exit 1 on an error, 0 when clean; no API call', async () => {
    const site = join(work, 'site');
    writeSite(join(site, 'broken'), { 'docs.json': docsJson(['index']), 'index.mdx': '# Home\n\n[a](/missing) [b](#nowhere)\n' });
    writeSite(join(site, 'clean'), { 'docs.json': docsJson(['index']), 'index.mdx': '# Home\n' });
    const requests = sim.requests.length;
    const broken = await action({ operation: 'check', root: join(site, 'broken') });
    masked(broken);
    assert.equal(broken.code, 1, broken.everything);
    const annotations = broken.stdout.split('\n').filter((l) => l.startsWith('::error '));
    assert.equal(annotations.length, 3, broken.stdout);
    assert.match(annotations[0] ?? '', /broken\/index\.mdx,line=3,col=5,.*title=docs-admin link-missing::"\/missing" leads/);
    assert.match(annotations[1] ?? '', /line=3,col=19,.*anchor-missing::No heading or id on this page makes the anchor #nowhere/);
    assert.match(annotations[2] ?? '', /title=Docs Admin check failed::The site check found 2 errors/);
    assert.match(broken.summary, /### Docs Admin: site health of/);
    assert.match(broken.summary, /\*\*2 errors, 0 warnings:\*\*/);
    const clean = await action({ operation: 'check', root: join(site, 'clean') });
    assert.equal(clean.code, 0, clean.everything);
    assert.match(clean.summary, /\*\*Clean\*\*: 0 errors, 0 warnings in 2 files\./);
    assert.equal(sim.requests.length, requests, 'check sends no request');
  });

  it('action.yml declares exactly the inputs and outputs the entry reads and writes', () => {
    const yml = actionYml();
    assert.deepEqual(Object.keys(yml.inputs), Object.keys(INPUTS));
    for (const [name, spec] of Object.entries(INPUTS)) {
      const declared = yml.inputs[name];
      assert.ok(declared !== undefined && declared.description.length > 10, `${name} is described`);
      assert.equal(declared.required ?? false, spec.required, `${name}: required`);
      assert.equal(declared.default, 'default' in spec ? spec.default : undefined, `${name}: default`);
    }
    assert.deepEqual(Object.keys(yml.outputs), [...OUTPUTS]);
    assert.equal(yml.runs.main, ENTRY);
    assert.match(yml.runs.using, /^node(2[0-9]|[3-9][0-9])$/, 'node20 or newer');
    // The runs above ran on the Node it names (or, outside CI only, said they did not).
    assert.ok(node.warning !== undefined || node.version.startsWith(`v${yml.runs.using.slice(4)}.`), `the entry ran on ${node.version}, not ${yml.runs.using}`);
    // The names the entry's source reads and writes, each declared, and each declaration used.
    const source = readdirSync(join(ROOT, 'src/action'))
      .map((f) => readFileSync(join(ROOT, 'src/action', f), 'utf8'))
      .join('\n');
    const read = new Set([...source.matchAll(/\binput\('([\w-]+)'\)/g)].map((m) => m[1]));
    const set = new Set([...source.matchAll(/\boutput\('([\w-]+)'/g)].map((m) => m[1]));
    assert.deepEqual([...read].sort(), Object.keys(INPUTS).sort());
    assert.deepEqual([...set].sort(), [...OUTPUTS].sort());
    // And the runs above saw every output written.
    assert.deepEqual([...written].sort(), [...OUTPUTS].sort());
  });

  it('checks every output before it is set: a job id is a job id, a link https: without shell syntax, a time ISO 8601', () => {
    assert.deepEqual(checkOutput('job-id', 'se_3f9a2c1b8e7d4a06'), { ok: true, value: 'se_3f9a2c1b8e7d4a06' });
    assert.deepEqual(checkOutput('pr-link', 'https://GitHub.com/acme/docs/pull/7'), { ok: true, value: 'https://github.com/acme/docs/pull/7' }, 'written as the URL parser writes it');
    assert.deepEqual(checkOutput('bundle-url', 'https://s3.example/b.tar.gz?[redacted]'), { ok: true, value: 'https://s3.example/b.tar.gz?[redacted]' });
    assert.deepEqual(checkOutput('expires-at', '2026-11-24T10:00:00.000Z'), { ok: true, value: '2026-11-24T10:00:00.000Z' });
    assert.deepEqual(checkOutput('status-id', '65f1c0de0000000000000001'), { ok: true, value: '65f1c0de0000000000000001' });
    assert.deepEqual(checkOutput('status', 'in_progress'), { ok: true, value: 'in_progress' });
    assert.deepEqual(checkOutput('preview-url', 'https://Acme-Feature.example.app'), { ok: true, value: 'https://acme-feature.example.app/' });
    for (const [name, value] of [
      ['job-id', 'e1$(id)'],
      ['job-id', 'e1;id'],
      ['job-id', ''],
      ['pr-link', 'https://github.com/a/b/pull/1$(id)'],
      ['pr-link', "https://github.com/a/b/pull/1'"],
      ['pr-link', 'https://github.com/a/b/pull/1 x'],
      ['pr-link', 'https://user:pw@github.com/a/b/pull/1'],
      ['pr-link', 'http://github.com/a/b/pull/1'],
      ['pr-link', 'javascript:alert(1)'],
      ['bundle-url', 'https://s3.example/b`id`.tar.gz'],
      ['bundle-url', 'https://s3.example/b.tar.gz?a=1&b=2'],
      ['expires-at', '$(id)'],
      ['status-id', 'abc$(id)'],
      ['status-id', '../abc'],
      ['status', 'success$(id)'],
      ['status', 'done'],
      ['preview-url', 'https://p.example/$(id)'],
      ['preview-url', 'http://127.0.0.1:8080/'],
      ['preview-url', 'https://p.example/a b'],
    ] as const) {
      const checked = checkOutput(name, value);
      assert.equal(checked.ok, false, `${name} ${value}`);
    }
  });

  it('splits the rollout command as a shell would, and refuses what only a shell does', () => {
    assert.deepEqual(splitCommand('helm upgrade --install docs ./chart -f values.yaml --wait'), ['helm', 'upgrade', '--install', 'docs', './chart', '-f', 'values.yaml', '--wait']);
    assert.deepEqual(splitCommand(`  helm  --set "a=b c" --set 'x="y"' "q\\"uote" es\\ caped ''  `), ['helm', '--set', 'a=b c', '--set', 'x="y"', 'q"uote', 'es caped', '']);
    assert.deepEqual(splitCommand(`helm --set 'list={a,b}' "a|b;c&d"`), ['helm', '--set', 'list={a,b}', 'a|b;c&d']);
    for (const text of ['helm upgrade | tee log', 'a && b', 'a; b', 'a > out', 'helm --set key=$SECRET', 'echo `id`', 'echo $(id)', '"$HOME"', `'open`, '"open', 'a\\', '   ']) {
      assert.throws(() => splitCommand(text), /rollout-command/, text);
    }
  });
});
