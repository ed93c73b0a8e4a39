/**
 * The Node that runs the GitHub Action's entry in the tests: the major that action.yml names
 * (`runs.using: node24`), as GitHub's runner runs it. The offline VS Code test host installs that
 * Node (test/host/install.ts, into the cache of test/host/versions.ts; `npm test` and `.ci/run`
 * install it before the unit tests), so the tests use it; where there is no test host (CI's
 * Windows and macOS unit jobs), DOCS_ADMIN_ACTION_NODE names it. When neither it nor the Node running
 * mocha has that major: a clear failure in CI; elsewhere the entry runs on this Node, and a
 * warning says so.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { HOST_VERSIONS, hostPaths } from '../../host/versions';
import { isCi } from '../../support/skipped';

export interface ActionNode {
  /** The node binary to run the entry with. */
  path: string;
  /** Its `--version`: `v24.21.0`. */
  version: string;
  /** Set when this is not the Node action.yml names (outside CI only): why, and how to get it. */
  warning?: string;
}

function versionOf(node: string): string {
  return execFileSync(node, ['--version'], { encoding: 'utf8', timeout: 30_000 }).trim();
}

const majorOf = (version: string) => Number(/^v(\d+)\./.exec(version)?.[1]);

export function actionNode(using: string, env: NodeJS.ProcessEnv = process.env, host: string = hostPaths().nodeBin): ActionNode {
  const major = Number(/^node(\d+)$/.exec(using)?.[1]);
  if (!Number.isInteger(major)) throw new Error(`action.yml says "runs.using: ${using}": the tests know only nodeNN.`);
  // Where there is no test host (CI's Windows and macOS unit jobs), the workflow names that Node.
  const named = env.DOCS_ADMIN_ACTION_NODE;
  if (named !== undefined && named !== '') {
    const version = versionOf(named);
    if (majorOf(version) !== major) throw new Error(`DOCS_ADMIN_ACTION_NODE is Node ${version} (${named}); the Action runs on Node ${major} (action.yml: runs.using: ${using}).`);
    return { path: named, version };
  }
  const hostVersion = existsSync(host) ? versionOf(host) : undefined;
  if (hostVersion !== undefined && majorOf(hostVersion) === major) return { path: host, version: hostVersion };
  if (majorOf(process.version) === major) return { path: process.execPath, version: process.version };
  const why =
    hostVersion === undefined
      ? `the test host's Node ${HOST_VERSIONS.node} is not installed (${host}): "node out/test/host/install.js" installs it (npm test and .ci/run do it first)`
      : `the test host's Node is ${hostVersion} (${host}): set HOST_VERSIONS.node in test/host/versions.ts to a Node ${major}`;
  const message = `The Action runs on Node ${major} (action.yml: runs.using: ${using}), and its tests run its entry on that Node, but ${why}; this Node is ${process.version}.`;
  if (isCi(env)) throw new Error(message);
  return { path: process.execPath, version: process.version, warning: `${message} Outside CI the entry runs on ${process.version}.` };
}
