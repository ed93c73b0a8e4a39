/**
 * The release workflow (.github/workflows/release.yml) read against the package: the .vsix it
 * attaches and publishes is the file `npm run package` writes; the tests run in a job of their
 * own with a read-only token, the release from main only; each secret reaches only its step
 * (test/unit/release.test.ts runs the steps themselves); what both registries require is in the
 * manifest, checked by each tool's own code, offline: `vsce package` (its whole validation, on
 * the built extension) and ovsx's manifest and license checks (what `ovsx publish` runs before
 * any request) and its reading of the .vsix (where it takes the namespace from).
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isLicenseOk, validateManifest } from 'ovsx';
import { parse } from 'yaml';

const ROOT = resolve(__dirname, '../../..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown> & { name: string; publisher: string; scripts: Record<string, string> };

interface Step {
  name?: string;
  uses?: string;
  if?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Workflow {
  permissions?: Record<string, string>;
  jobs: Record<string, { env?: Record<string, string>; needs?: string; if?: string; permissions?: Record<string, string>; steps: Step[] }>;
}

function vsce(args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [join(ROOT, 'node_modules/@vscode/vsce/vsce'), ...args], { cwd, maxBuffer: 8 * 1024 * 1024 }, (error, stdout, stderr) => {
      done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, output: `${stdout}${stderr}` });
    });
  });
}

describe('the release workflow and the registries (.github/workflows/release.yml)', function () {
  this.timeout(120_000);
  const workflow = parse(readFileSync(join(ROOT, '.github/workflows/release.yml'), 'utf8')) as Workflow;
  const job = workflow.jobs.release;
  const steps = job?.steps ?? [];
  const step = (name: RegExp): Step => {
    const found = steps.filter((s) => name.test(s.name ?? ''));
    assert.equal(found.length, 1, `one step named ${String(name)}: ${JSON.stringify(steps.map((s) => s.name))}`);
    return found[0] as Step;
  };
  const index = (s: Step) => steps.indexOf(s);
  /** What `npm run package` writes: the `--out` of the package script. */
  const vsixName = /--out\s+(\S+\.vsix)/.exec(manifest.scripts.package ?? '')?.[1];

  it('the release job runs on main only, after the tests, which run in their own job with a read-only token', () => {
    assert.deepEqual(workflow.permissions, { contents: 'read' });
    assert.deepEqual(workflow.jobs.test?.permissions, { contents: 'read' });
    assert.match(workflow.jobs.test?.steps.map((s) => s.run ?? '').join('\n') ?? '', /^bash \.ci\/run$/m);
    assert.equal(job?.needs, 'test');
    assert.equal(job?.if, "github.ref == 'refs/heads/main'");
    assert.deepEqual(job?.permissions, { contents: 'write', 'id-token': 'write' });
    // The script's own refusal comes first (scripts/release.mjs check; test/unit/release.test.ts runs it).
    assert.equal(steps.find((s) => s.run?.startsWith('node scripts/release.mjs') === true)?.run, 'node scripts/release.mjs check');
  });

  it('each secret reaches only the step that uses it; the checkout keeps no credentials and only the steps that push get the token', () => {
    for (const [name, j] of Object.entries(workflow.jobs)) {
      assert.equal(j.env, undefined, `${name}: no job-level env`);
      for (const s of j.steps) if (s.uses?.startsWith('actions/checkout@') === true) assert.equal(s.with?.['persist-credentials'], false, `${name}: ${s.uses}`);
    }
    const users = (expression: string) =>
      Object.values(workflow.jobs)
        .flatMap((j) => j.steps)
        .filter((s) => JSON.stringify(s).includes(expression))
        .map((s) => s.run);
    assert.deepEqual(users('secrets.NPM_TOKEN'), ['node scripts/release.mjs npm']);
    assert.equal(step(/^The CLI package$/).env?.NODE_AUTH_TOKEN, '${{ secrets.NPM_TOKEN }}');
    assert.deepEqual(users('secrets.VSCE_PAT'), ['node scripts/release.mjs vsce']);
    assert.deepEqual(users('secrets.OVSX_PAT'), ['node scripts/release.mjs ovsx']);
    assert.deepEqual(users('github.token'), ['node scripts/release.mjs check', 'node scripts/release.mjs action', 'node scripts/release.mjs tags', 'node scripts/release.mjs github']);
    assert.equal(step(/GitHub release/).env?.GH_TOKEN, '${{ github.token }}');
    // A token is read from the environment by the tool itself; never on a command line.
    for (const s of steps) assert.doesNotMatch(s.run ?? '', /secrets\.|github\.token|\$\{?[A-Z_]*(PAT|TOKEN)\b/, s.run);
  });

  it('builds the .vsix with `npm run package` (docs-admin.vsix, what its --out names), after the build and before the registries', () => {
    assert.equal(vsixName, 'docs-admin.vsix');
    const order = ['Install', 'Build', 'The action (releases/v<major>)', 'The tags v<version> and v<major>', 'The extension package (.vsix)', 'The GitHub release of v<version>, with the .vsix', 'VS Code Marketplace', 'Open VSX'];
    const at = order.map((name) => index(step(new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`))));
    assert.deepEqual([...at].sort((a, b) => a - b), at, `in this order: ${order.join(', ')}`);
    assert.equal(step(/^Build$/).run, 'node esbuild.mjs --production');
  });

  it('the Node the release job sets up is one the publishing tools support (their engines fields)', () => {
    const setup = steps.filter((s) => s.uses?.startsWith('actions/setup-node@') === true);
    assert.equal(setup.length, 1);
    const node = Number(setup[0]?.with?.['node-version']);
    for (const tool of ['ovsx', '@vscode/vsce']) {
      const engines = (JSON.parse(readFileSync(join(ROOT, `node_modules/${tool}/package.json`), 'utf8')) as { engines: { node: string } }).engines.node;
      assert.ok(node >= Number(/\d+/.exec(engines)?.[0]), `Node ${node} for ${tool} ${engines}`);
    }
  });

  it('what both registries require is in the manifest: publisher, name, license, repository, a PNG icon, engines', () => {
    assert.match(manifest.publisher, /^[a-z0-9][a-z0-9-]*$/i);
    assert.match(manifest.name, /^[a-z0-9][a-z0-9-]*$/);
    assert.equal(manifest.license, 'MIT');
    assert.ok(existsSync(join(ROOT, 'LICENSE')));
    assert.match((manifest.repository as { url: string }).url, /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/);
    assert.match(manifest.icon as string, /\.png$/);
    assert.ok(existsSync(join(ROOT, manifest.icon as string)));
    assert.match((manifest.engines as { vscode: string }).vscode, /^\^1\.\d+\.0$/);
    // Kept private: npm refuses to publish it (the extension is not an npm package); neither vsce nor ovsx reads the field.
    assert.equal(manifest.private, true);
  });

  it("vsce's own validation: `vsce package` builds the extension as it is, offline, and refuses a manifest a registry would refuse", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-admin-vsce-'));
    try {
      const out = join(dir, 'check.vsix');
      const built = await vsce(['package', '--no-dependencies', '--out', out], ROOT);
      assert.equal(built.code, 0, built.output);
      assert.ok(existsSync(out));
      // The same check refuses what the marketplace would: a publisher with a space, no engines.
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...manifest, publisher: 'docs admin' }));
      const badPublisher = await vsce(['ls', '--no-dependencies'], dir);
      assert.notEqual(badPublisher.code, 0);
      assert.match(badPublisher.output, /publisher/i);
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...manifest, engines: undefined }));
      const noEngines = await vsce(['ls', '--no-dependencies'], dir);
      assert.notEqual(noEngines.code, 0);
      assert.match(noEngines.output, /engines/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("ovsx's own checks, offline: the manifest and the license pass (what `ovsx publish` checks before any request), and fail without them", async () => {
    validateManifest(manifest as never);
    assert.equal(await isLicenseOk(ROOT), true);
    const dir = mkdtempSync(join(tmpdir(), 'docs-admin-ovsx-'));
    try {
      const { license: _license, ...unlicensed } = manifest;
      writeFileSync(join(dir, 'package.json'), JSON.stringify(unlicensed));
      assert.equal(await isLicenseOk(dir), false, 'no license field and no LICENSE file');
      copyFileSync(join(ROOT, 'LICENSE'), join(dir, 'LICENSE'));
      assert.equal(await isLicenseOk(dir), true, 'a LICENSE file is enough');
      const { publisher: _publisher, ...nameless } = manifest;
      assert.throws(() => validateManifest(nameless as never), /publisher/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
