import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publish, type PublishOptions, type PublishStep } from '../../src/core/helm/publishPipeline';
import { readStaticExport } from '../../src/core/helm/values';
import { valuesFile } from '../../src/core/helm/valuesFile';
import { Simulator } from '../simulator';
import { recordingLogger } from './support/logger';
import { AdminApiClient } from '../../src/core/api/client';
import { ExportFailedError, InsecureBundleUrlError, RolloutError } from '../../src/core/helm/publishErrors';
import { LinkExpiredOnArrivalError } from '../../src/core/bundle/links/linkCache';

const VALUES = `# docs deployment
image:
  tag: "1.0"   # pinned
staticExport:
  enabled: false
  bundleUrl: ""
`;

describe('the publish pipeline against the simulator', function () {
  this.timeout(20_000);
  let sim: Simulator;
  let client: AdminApiClient;
  let dir: string;
  let path: string;

  beforeEach(async () => {
    // 1 real ms is 1 simulated second: a 60 s export takes 60 ms.
    sim = await Simulator.start({ timeScale: 1_000, exportDefaults: { queuedMs: 2_000, durationMs: 60_000 } });
    client = new AdminApiClient({ baseUrl: sim.baseUrl, projectId: sim.projectId, getKey: () => sim.key, log: recordingLogger('publish'), baseDelayMs: 1, maxDelayMs: 1 });
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-publish-'));
    path = join(dir, 'values.yaml');
    writeFileSync(path, VALUES);
  });

  afterEach(async () => {
    await client.close();
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  function options(over: Partial<PublishOptions> = {}): PublishOptions & { steps: PublishStep[] } {
    const steps: PublishStep[] = [];
    return {
      client,
      domain: 'docs.acme.dev',
      values: valuesFile(path),
      onStep: (s) => steps.push(s),
      log: recordingLogger('publish'),
      wait: { floorMs: 20, ceilingMs: 100 },
      conflictDelayMs: 10,
      steps,
      ...over,
    };
  }

  it('starts, waits, generates the bundle, updates the values file, rolls out', async () => {
    const rollouts: string[] = [];
    const o = options({
      version: 'v42',
      rollout: () => {
        // The rollout sees the new values already written.
        rollouts.push(readFileSync(path, 'utf8'));
        return Promise.resolve();
      },
    });
    const progress: number[] = [];
    const result = await publish({ ...o, onProgress: (job) => progress.push(job.progress ?? 0) });
    assert.deepEqual(o.steps, ['start', 'wait', 'bundle', 'values', 'rollout']);
    assert.ok(result.rolledOut && result.valuesChanged);
    const block = readStaticExport(readFileSync(path, 'utf8'));
    assert.equal(block?.enabled?.value, true);
    assert.equal(block?.bundleUrl?.value, result.bundle.bundleUrl);
    assert.equal(block?.version?.value, 'v42');
    assert.ok(result.bundle.bundleUrl.startsWith(`${sim.storageBaseUrl}/bundles/`));
    assert.match(readFileSync(path, 'utf8'), /tag: "1.0" {3}# pinned/, 'the rest is kept');
    assert.equal(rollouts.length, 1);
    assert.equal(readStaticExport(rollouts[0] ?? '')?.bundleUrl?.value, result.bundle.bundleUrl);
    const started = sim.requests.find((r) => r.route === 'export.start');
    assert.deepEqual(JSON.parse(started?.body ?? '{}'), { domain: 'docs.acme.dev', version: 'v42' });
    assert.ok(progress.length > 0);
    assert.deepEqual(readdirSync(dir), ['values.yaml'], 'no temporary file left');
  });

  it('stops with the job\'s error when the export fails, leaving the values file alone', async () => {
    sim.setExportDefaults({ outcome: 'failed', error: 'Build failed: broken link in /guides/install' });
    const o = options({ rollout: () => Promise.reject(new Error('must not run')) });
    await assert.rejects(publish(o), (error: unknown) => error instanceof ExportFailedError && /broken link in \/guides\/install/.test(error.message));
    assert.deepEqual(o.steps, ['start', 'wait']);
    assert.equal(readFileSync(path, 'utf8'), VALUES);
    assert.equal(sim.requests.filter((r) => r.route === 'export.bundle').length, 0);
  });

  it('asks for the bundle again after a 409 right after completion', async () => {
    sim.injectFault({ route: 'export.bundle', kind: 'status', status: 409, body: { error: 'Export job is not completed' }, times: 2 });
    const result = await publish(options());
    assert.equal(sim.requests.filter((r) => r.route === 'export.bundle').length, 3);
    assert.equal(readStaticExport(readFileSync(path, 'utf8'))?.bundleUrl?.value, result.bundle.bundleUrl);
    assert.equal(result.rolledOut, false);
  });

  it('puts the values file back when the rollout fails', async () => {
    const o = options({ rollout: () => Promise.reject(new RolloutError('helm exited with code 1', 1)) });
    await assert.rejects(publish(o), RolloutError);
    assert.deepEqual(o.steps, ['start', 'wait', 'bundle', 'values', 'rollout']);
    assert.equal(readFileSync(path, 'utf8'), VALUES);
  });

  it('refuses an invalid values file before changing anything', async () => {
    writeFileSync(path, 'staticExport:\n  enabled: [true\n');
    await assert.rejects(publish(options()), /not valid YAML at line/);
    assert.equal(readFileSync(path, 'utf8'), 'staticExport:\n  enabled: [true\n');
  });

  it('refuses a plain http: bundle link to a remote host unless allowed; loopback http: is fine', async () => {
    const remote = (jobId: string) => ({ jobId, bundleUrl: `http://bundles.example.com/${jobId}.tar.gz`, sizeBytes: 10, expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    sim.setExportDefaults({ queuedMs: 0, durationMs: 1_000 });
    const rollouts: number[] = [];
    const rollout = () => {
      rollouts.push(1);
      return Promise.resolve();
    };
    const first = sim.addExportJob({ queuedMs: 0, durationMs: 0 });
    sim.injectFault({ route: 'export.bundle', kind: 'status', status: 200, body: remote(String(first.jobId)), times: 1 });
    await assert.rejects(publish(options({ rollout })), (e: Error) => e instanceof InsecureBundleUrlError && /plain http: to bundles\.example\.com.*allowHttpBundleUrl/.test(e.message));
    assert.equal(readFileSync(path, 'utf8'), VALUES, 'the values file is untouched');
    assert.deepEqual(rollouts, [], 'nothing rolled out');
    // Allowed explicitly: written.
    sim.injectFault({ route: 'export.bundle', kind: 'status', status: 200, body: remote('any'), times: 1 });
    const allowed = await publish(options({ rollout, allowHttpBundleUrl: { allowed: true, hint: '--allow-http-bundle' } }));
    assert.match(String(readStaticExport(readFileSync(path, 'utf8'))?.bundleUrl?.value), /^http:\/\/bundles\.example\.com\//);
    assert.equal(allowed.rolledOut, true);
    // The simulator's own links are http: on 127.0.0.1: allowed without asking.
    writeFileSync(path, VALUES);
    assert.match((await publish(options())).bundle.bundleUrl, /^http:\/\/127\.0\.0\.1:/);
  });

  it('never writes a link that came already expired: asks for a new one, as a download does; when every one has expired, stops before the values and the rollout', async () => {
    const rollouts: number[] = [];
    const rollout = () => {
      rollouts.push(1);
      return Promise.resolve();
    };
    const bundles = () => sim.requests.filter((r) => r.route === 'export.bundle').length;
    // Every link expired two minutes before it was given (a clock far off).
    sim.setLinkTtlSeconds(-120);
    await assert.rejects(publish(options({ rollout })), (e: Error) => e instanceof LinkExpiredOnArrivalError && /had already expired .*3 asked for in all.*clock/.test(e.message));
    assert.equal(readFileSync(path, 'utf8'), VALUES, 'the values file is untouched');
    assert.deepEqual(rollouts, [], 'nothing rolled out');
    assert.equal(bundles(), 3);
    // One expired link, then good ones: the good one is written.
    sim.setLinkTtlSeconds(3600);
    sim.clearRequests();
    sim.injectFault({ route: 'export.bundle', kind: 'status', status: 200, body: { jobId: 'any', bundleUrl: `${sim.storageBaseUrl}/bundles/any/bundle.tar.gz`, sizeBytes: 10, expiresAt: '2019-08-24T14:15:22Z' }, times: 1 });
    const done = await publish(options({ rollout }));
    assert.equal(bundles(), 2);
    assert.ok(Date.parse(done.bundle.expiresAt ?? '') > Date.now() + 3_000_000, done.bundle.expiresAt);
    assert.equal(readStaticExport(readFileSync(path, 'utf8'))?.bundleUrl?.value, done.bundle.bundleUrl);
    assert.deepEqual(rollouts, [1]);
  });
});
