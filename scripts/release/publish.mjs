// The release's publishing steps, each one safe to run again: a version a registry has already
// is skipped with a notice, a GitHub release that exists gets its asset again, a registry whose
// token is not set is skipped with a notice. The programs come from the PATH or node_modules
// unless DOCS_ADMIN_RELEASE_<NPM|GH|VSCE|OVSX> names another (the release tests' fakes).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ReleaseError, notice, releaseNames, writeSummary } from './context.mjs';

const DEFAULTS = { npm: 'npm', gh: 'gh', vsce: join('node_modules', '.bin', 'vsce'), ovsx: join('node_modules', '.bin', 'ovsx') };

function tool(name) {
  return process.env[`DOCS_ADMIN_RELEASE_${name.toUpperCase()}`] || DEFAULTS[name];
}

/** Runs a program; its output is shown, and returned when `capture`. */
function run(name, args, { capture = false } = {}) {
  const r = spawnSync(tool(name), args, { encoding: 'utf8', stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  if (r.error) throw new ReleaseError(`${name} could not run: ${r.error.message}`);
  if (capture) {
    process.stdout.write(r.stdout);
    process.stderr.write(r.stderr);
  }
  return { status: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

function must(name, args) {
  const r = run(name, args);
  if (r.status !== 0) throw new ReleaseError(`${name} ${args.join(' ')} failed (exit ${r.status}); run the Release workflow again once the cause is fixed: what is done already is kept.`);
}

/** The file the GitHub release carries and both registries get: what `npm run package` wrote, named by version. */
const vsixFile = () => `docs-admin-${releaseNames().version}.vsix`;

/** The CLI's npm package, @docs-admin/cli, with provenance; skipped when npm has the version. */
export function publishNpm() {
  const { name, version } = JSON.parse(readFileSync('cli/package.json', 'utf8'));
  if (version !== releaseNames().version) throw new ReleaseError(`cli/package.json is at ${version}, the extension at ${releaseNames().version}: run node scripts/packages.mjs --sync-version.`);
  const view = spawnSync(tool('npm'), ['view', `${name}@${version}`, 'version'], { encoding: 'utf8' });
  if (view.status === 0 && view.stdout.trim() === version) {
    notice('npm skipped', `${name}@${version} is on npm already: not published again.`, `npm: ${name}@${version} **published already**, skipped.`);
    return;
  }
  // npm answers E404 for a package it has never had; any other failure is not an answer.
  if (view.status !== 0 && !/\bE404\b/.test(`${view.stdout}${view.stderr}`)) {
    throw new ReleaseError(`npm view ${name}@${version} failed, so whether it is published is unknown: ${view.stderr.trim()}`);
  }
  must('npm', ['publish', './cli', '--access', 'public', '--provenance']);
  writeSummary(`npm: published ${name}@${version}.`);
}

/** The extension's package: `npm run package` writes docs-admin.vsix; it is kept as docs-admin-<version>.vsix. */
export function packageVsix() {
  must('npm', ['run', 'package']);
  copyFileSync('docs-admin.vsix', vsixFile());
  console.log(`${vsixFile()} written.`);
}

function requireVsix() {
  if (!existsSync(vsixFile())) throw new ReleaseError(`${vsixFile()} is missing: the step that packages the extension runs first (node scripts/release.mjs vsix).`);
  return vsixFile();
}

/** The GitHub release of the tag, with the .vsix: created once; a rerun uploads the file again (--clobber). */
export function githubRelease() {
  const { tag, version } = releaseNames();
  const file = requireVsix();
  const view = run('gh', ['release', 'view', tag, '--json', 'tagName'], { capture: true });
  if (view.status === 0) {
    must('gh', ['release', 'upload', tag, file, '--clobber']);
  } else if (/release not found/i.test(view.out)) {
    must('gh', ['release', 'create', tag, file, '--verify-tag', '--title', `Docs Admin ${version}`, '--generate-notes']);
  } else {
    throw new ReleaseError(`gh release view ${tag} failed, so whether the release exists is unknown.`);
  }
  writeSummary(`GitHub release ${tag}: ${file} attached.`);
}

const REGISTRIES = {
  vsce: {
    title: 'VS Code Marketplace',
    secret: 'VSCE_PAT',
    args: (file) => ['publish', '--packagePath', file, '--skip-duplicate'],
    by: 'npx vsce publish --packagePath <file>',
  },
  ovsx: {
    title: 'Open VSX',
    secret: 'OVSX_PAT',
    args: (file) => ['publish', file, '--skip-duplicate'],
    by: 'npx ovsx publish <file> -p <token>',
    where: ' (Cursor, VSCodium)',
  },
};

/**
 * The .vsix to a registry, when its token is set (the tool reads it from the environment);
 * skipped with a notice otherwise. `--skip-duplicate`: the tool itself asks the registry, and a
 * version it has already is skipped, with a notice.
 */
export function publishTo(name) {
  const registry = REGISTRIES[name];
  const { version } = releaseNames();
  if (!process.env[registry.secret]) {
    notice(
      `${registry.title} skipped`,
      `The secret ${registry.secret} is not set, so the extension was not published to ${registry.title}${registry.where ?? ''}. Add it (repository settings, Secrets and variables, Actions) for the next release; to publish this one, download its .vsix from the GitHub release and run: ${registry.by}`,
      `${registry.title}: **skipped**, the secret ${registry.secret} is not set.`,
    );
    return;
  }
  const r = run(name, registry.args(requireVsix()), { capture: true });
  if (r.status !== 0) throw new ReleaseError(`${name} publish failed (exit ${r.status}); run the Release workflow again once the cause is fixed: what is done already is kept.`);
  if (/is already published/.test(r.out)) {
    notice(`${registry.title} skipped`, `${registry.title} has version ${version} already: not published again.`, `${registry.title}: ${version} **published already**, skipped.`);
  } else {
    writeSummary(`${registry.title}: published ${version}.`);
  }
}
