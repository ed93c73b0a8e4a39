/**
 * Stand-ins for the programs the release's publishing steps run (npm, gh, vsce, ovsx), with the
 * registries' state in a JSON file: they answer what the real ones answer for the calls the
 * release makes (npm view's E404, gh's "release not found", `--skip-duplicate`'s "is already
 * published"), refuse without their token, record every call, and fail on demand (a call whose
 * words start with an entry of `fail`, then `partial` releases left as a real failure leaves them).
 *   node fakeReleaseTools.js <npm|gh|vsce|ovsx> args...   (FAKE_RELEASE_STATE: the state file)
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

export interface FakeRegistries {
  npm: string[];
  vsce: string[];
  ovsx: string[];
  /** GitHub releases by tag: their assets' names. */
  releases: Record<string, string[]>;
  /** Calls that fail, by their first words: `npm publish`, `gh release create`, `vsce publish`. */
  fail: string[];
  /** Every call: the tool and its arguments, whether it succeeded, and which tokens its environment held. */
  calls: { tool: string; args: string[]; ok: boolean; tokens: string[] }[];
}

export const emptyRegistries = (): FakeRegistries => ({ npm: [], vsce: [], ovsx: [], releases: {}, fail: [], calls: [] });

export function readRegistries(file: string): FakeRegistries {
  return JSON.parse(readFileSync(file, 'utf8')) as FakeRegistries;
}

function versionOfVsix(file: string): string {
  if (!existsSync(file)) throw new Error(`${file}: no such file`);
  return readFileSync(file, 'utf8').replace(/^vsix /, '').trim();
}

/** What one call does to the state: [exit code, stdout, stderr]. */
function answer(state: FakeRegistries, tool: string, args: string[]): [number, string, string] {
  const words = [tool, ...args].join(' ');
  const failing = state.fail.some((f) => words.startsWith(f));
  const [a, b] = args;
  if (tool === 'npm' && a === 'view') {
    const version = (b ?? '').split('@').at(-1) ?? '';
    if (state.npm.length === 0) return [1, '', 'npm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/@docs-admin%2fcli - Not found\n'];
    return [0, state.npm.includes(version) ? `${version}\n` : '', ''];
  }
  if (tool === 'npm' && a === 'publish') {
    if (!process.env.NODE_AUTH_TOKEN) return [1, '', 'npm error code ENEEDAUTH\n'];
    if (failing) return [1, '', 'npm error code E500 (injected)\n'];
    const { version } = JSON.parse(readFileSync(join(b ?? '.', 'package.json'), 'utf8')) as { version: string };
    if (state.npm.includes(version)) return [1, '', 'npm error code E403\nnpm error You cannot publish over the previously published versions\n'];
    state.npm.push(version);
    return [0, `+ @docs-admin/cli@${version}\n`, ''];
  }
  if (tool === 'npm' && a === 'run' && b === 'package') {
    if (failing) return [1, '', 'vsce failed (injected)\n'];
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    writeFileSync('docs-admin.vsix', `vsix ${version}\n`);
    return [0, 'DONE  Packaged: docs-admin.vsix\n', ''];
  }
  if (tool === 'gh') {
    if (!process.env.GH_TOKEN) return [4, '', 'To get started with GitHub CLI, please run:  gh auth login\n'];
    const tag = args[2] ?? '';
    const release = state.releases[tag];
    if (b === 'view') return release === undefined ? [1, '', 'release not found\n'] : [0, JSON.stringify({ tagName: tag }), ''];
    if (b === 'create') {
      const verified = execFileSync('git', ['ls-remote', '--tags', 'origin', `refs/tags/${tag}`], { encoding: 'utf8' }).trim();
      if (verified === '') return [1, '', `tag ${tag} doesn't exist in the repo, aborting due to --verify-tag\n`];
      if (release !== undefined) return [1, '', 'a release with the same tag name already exists\n'];
      // A failure after the release exists: its asset's upload.
      state.releases[tag] = [];
      if (failing) return [1, '', 'failed to upload the asset (injected)\n'];
      state.releases[tag] = [basename(args[3] ?? '')];
      return [0, `https://github.com/docs-admin/docs-admin/releases/tag/${tag}\n`, ''];
    }
    if (b === 'upload') {
      if (release === undefined) return [1, '', 'release not found\n'];
      if (failing) return [1, '', 'failed to upload the asset (injected)\n'];
      const name = basename(args[3] ?? '');
      if (release.includes(name) && !args.includes('--clobber')) return [1, '', `asset ${name} already exists\n`];
      state.releases[tag] = [...release.filter((n) => n !== name), name];
      return [0, '', ''];
    }
  }
  if ((tool === 'vsce' || tool === 'ovsx') && a === 'publish') {
    const token = tool === 'vsce' ? process.env.VSCE_PAT : process.env.OVSX_PAT;
    if (!token) return [1, '', `ERROR  Missing personal access token\n`];
    const file = tool === 'vsce' ? args[args.indexOf('--packagePath') + 1] : b;
    const version = versionOfVsix(file ?? '');
    if (state[tool].includes(version)) {
      if (args.includes('--skip-duplicate')) return [0, tool === 'vsce' ? `DONE  Version ${version} is already published. Skipping publish.\n` : `docs-admin.docs-admin v${version} is already published. Skipping publish.\n`, ''];
      return [1, '', `ERROR  docs-admin.docs-admin v${version} already exists.\n`];
    }
    if (failing) return [1, '', 'ERROR  The service is unavailable (injected)\n'];
    state[tool].push(version);
    return [0, `DONE  Published docs-admin.docs-admin v${version}.\n`, ''];
  }
  return [2, '', `fake ${tool}: no answer for ${words}\n`];
}

if (require.main === module) {
  const file = process.env.FAKE_RELEASE_STATE ?? '';
  const [tool = '', ...args] = process.argv.slice(2);
  const state = readRegistries(file);
  let result: [number, string, string];
  try {
    result = answer(state, tool, args);
  } catch (error) {
    result = [1, '', `${error instanceof Error ? error.message : String(error)}\n`];
  }
  const tokens = ['NODE_AUTH_TOKEN', 'GH_TOKEN', 'GITHUB_TOKEN', 'VSCE_PAT', 'OVSX_PAT'].filter((name) => (process.env[name] ?? '') !== '');
  state.calls.push({ tool, args, ok: result[0] === 0, tokens });
  writeFileSync(file, JSON.stringify(state, null, 2));
  process.stdout.write(result[1]);
  process.stderr.write(result[2]);
  appendFileSync(`${file}.log`, `${tool} ${args.join(' ')} -> ${result[0]}\n`);
  process.exitCode = result[0];
}
