/**
 * The release workflow (.github/workflows/release.yml) read against the package: the .vsix it
 * attaches and publishes is the file `npm run package` writes; each registry publishes only when
 * its token is set and says it skipped otherwise; what both registries require is in the
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
  jobs: Record<string, { env?: Record<string, string>; steps: Step[] }>;
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

  it('builds the .vsix with `npm run package`, after every check, and attaches the file that script writes to the release of the tag', () => {
    assert.equal(vsixName, 'docs-admin.vsix');
    const checks = step(/^Every check/);
    const build = step(/\.vsix\)$/);
    const release = step(/GitHub release/);
    assert.match(build.run ?? '', /^npm run package$/m);
    assert.match(build.run ?? '', new RegExp(`cp ${vsixName.replace('.', '\\.')} "docs-admin-\\$version\\.vsix"`));
    assert.ok(index(checks) < index(build) && index(build) < index(release));
    // The tag v<version> exists by then: the action's release step pushes it.
    assert.ok(index(step(/^The action/)) < index(release));
    assert.equal(release.env?.VSIX, '${{ steps.vsix.outputs.file }}');
    assert.equal(release.env?.GH_TOKEN, '${{ github.token }}');
    assert.match(release.run ?? '', /gh release create "v\$VERSION" "\$VSIX" --verify-tag/);
    assert.match(release.run ?? '', /gh release upload "v\$VERSION" "\$VSIX" --clobber/);
  });

  for (const [registry, secret, tool, command] of [
    ['VS Code Marketplace', 'VSCE_PAT', 'vsce', `npx --no-install vsce publish --packagePath ${vsixName}`],
    ['Open VSX', 'OVSX_PAT', 'ovsx', `npx --no-install ovsx publish ${vsixName}`],
  ] as const) {
    it(`${registry}: published with ${tool} from the same .vsix when ${secret} is set, skipped with a notice and a summary line when it is not`, () => {
      // The secret reaches the steps as a variable (secrets cannot be read in `if:`).
      assert.equal(job?.env?.[secret], `\${{ secrets.${secret} }}`);
      const publish = step(new RegExp(`^${registry}$`));
      const skipped = step(new RegExp(`^${registry} \\(skipped`));
      assert.equal(publish.if, `env.${secret} != ''`);
      assert.equal(skipped.if, `env.${secret} == ''`);
      assert.ok(publish.run?.split('\n').includes(command), publish.run);
      assert.ok(index(step(/\.vsix\)$/)) < index(publish));
      assert.match(skipped.run ?? '', new RegExp(`^echo "::notice title=${registry} skipped::The secret ${secret} is not set`, 'm'));
      assert.match(skipped.run ?? '', new RegExp(`echo "${registry}: \\*\\*skipped\\*\\*, the secret ${secret} is not set\\." >> "\\$GITHUB_STEP_SUMMARY"`));
      // The token is read from the environment by the tool itself; it is never on a command line.
      assert.doesNotMatch(publish.run ?? '', /secrets\.|\$\{?[A-Z]+_PAT/);
    });
  }

  it('ovsx runs on the Node it needs (its engines field), set up only when Open VSX is published to', () => {
    const ovsxEngines = (JSON.parse(readFileSync(join(ROOT, 'node_modules/ovsx/package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    const needed = Number(/\d+/.exec(ovsxEngines)?.[0]);
    const setup = steps.filter((s) => s.uses?.startsWith('actions/setup-node@') === true && index(s) < index(step(/^Open VSX$/)));
    const last = setup[setup.length - 1];
    assert.ok(Number(last?.with?.['node-version']) >= needed, `Node ${String(last?.with?.['node-version'])} for ovsx ${ovsxEngines}`);
    assert.equal(last?.if, "env.OVSX_PAT != ''");
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
