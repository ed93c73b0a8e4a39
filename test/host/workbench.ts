import type { CodeServer } from './codeServer';

/** Known noise of an offline workbench, hidden unless DOCS_ADMIN_TEST_HOST_VERBOSE=1. */
const NOISE = [
  /open-vsx|marketplace|gallery|vscode-unpkg|update\.code\.visualstudio/i,
  /vsda/i,
  /^\s*Canceled\b|Error: Canceled/,
  /ERR_NAME_NOT_RESOLVED|getaddrinfo|ENOTFOUND|EAI_AGAIN/,
  /Failed to load resource/,
  /\[(?:File Watcher|uncaught exception in sharedProcess)\]/,
  /Extension host \(Remote\) is unresponsive|Found unexpected service worker controller|service ?worker/i,
  /punycode/,
  // The workbench's own start-up chatter.
  /^(Resolving connection token|Resolved connection token|Creating a socket|Updating additional builtin)/,
  /^\[(reconnection-grace-time|AgentHost:remote|AccountPolicyGate|Extension Host)\]/,
];

export function isNoise(line: string): boolean {
  return NOISE.some((pattern) => pattern.test(line));
}

export function verbose(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.DOCS_ADMIN_TEST_HOST_VERBOSE === '1';
}

export interface WorkbenchPayload {
  /** Absolute path of the extension to load in development mode. */
  extensionDevelopmentPath: string;
  /** Absolute path of a compiled suite index exporting `run()`. */
  extensionTestsPath?: string;
  /** Environment for the extension host (reaches `process.env`). */
  extensionEnvironment?: Record<string, string>;
  /** Log levels, as `--log` takes them: `trace`, or per extension `publisher.name:trace`, comma-separated. */
  logLevel?: string;
}

/**
 * The workbench URL that opens the workspace and loads the extension. The web workbench reads
 * `payload` only when code-server runs with the smoke-test driver enabled (it does here).
 */
export function workbenchUrl(server: CodeServer, payload: WorkbenchPayload, folder = server.workspace): string {
  const remote = (path: string) => `vscode-remote://${server.host}:${server.port}${path}`;
  const pairs: [string, string][] = [['extensionDevelopmentPath', remote(payload.extensionDevelopmentPath)]];
  if (payload.extensionTestsPath !== undefined) pairs.push(['extensionTestsPath', remote(payload.extensionTestsPath)]);
  if (payload.extensionEnvironment !== undefined) pairs.push(['extensionEnvironment', JSON.stringify(payload.extensionEnvironment)]);
  if (payload.logLevel !== undefined) pairs.push(['logLevel', payload.logLevel]);
  pairs.push(['skipWelcome', 'true']);
  return `${server.url}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(pairs))}`;
}
