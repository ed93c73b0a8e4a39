/**
 * Starts code-server (a real VS Code: server, web workbench and Node extension host) on
 * loopback with throw-away state (and any further arguments, such as `--locale`), in its own
 * process group; stops it with everything it spawned, and only then removes its folders.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopTree } from './processTree';
import type { HostPaths } from './versions';

export interface CodeServerOptions {
  paths: HostPaths;
  host?: string;
  /** 0 or absent: a free port. */
  port?: number;
  /** Workbench user settings. */
  settings?: Record<string, unknown>;
  /** Extra environment for the server and its extension host. */
  env?: NodeJS.ProcessEnv;
  /** More code-server arguments, e.g. `['--locale', 'qps-ploc']` (the display language). */
  args?: string[];
  /** Called with every line code-server prints. */
  onOutput?: (line: string) => void;
}

export interface CodeServer {
  url: string;
  host: string;
  port: number;
  /** An empty folder to open as the workspace. */
  workspace: string;
  /** The user-data dir (its `User/settings.json` holds the settings). */
  userDataDir: string;
  /**
   * Stops code-server and everything it started (extension hosts, pty host, watchers), and
   * resolves once every one has exited: nothing writes to its folders any more (read them now).
   */
  stop(): Promise<void>;
  /** Stops it (see `stop`), then removes its folders. */
  dispose(): Promise<void>;
}

export const QUIET_SETTINGS: Record<string, unknown> = {
  'chat.disableAIFeatures': true,
  'workbench.startupEditor': 'none',
  'telemetry.telemetryLevel': 'off',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'git.enabled': false,
  'workbench.tips.enabled': false,
  'update.mode': 'none',
  'security.workspace.trust.enabled': false,
};

export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port !== undefined && options.port !== 0 ? options.port : await freePort(host);
  const temp = mkdtempSync(join(tmpdir(), 'docs-admin-host-'));
  const dirs = {
    userData: join(temp, 'user-data'),
    extensions: join(temp, 'extensions'),
    workspace: join(temp, 'workspace'),
    xdgConfig: join(temp, 'xdg-config'),
    xdgData: join(temp, 'xdg-data'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  mkdirSync(join(dirs.userData, 'User'), { recursive: true });
  writeFileSync(join(dirs.userData, 'User', 'settings.json'), JSON.stringify({ ...QUIET_SETTINGS, ...options.settings }, null, 2));
  const config = join(temp, 'config.yaml');
  writeFileSync(config, `bind-addr: ${host}:${port}\nauth: none\ncert: false\n`);

  const child = spawn(
    options.paths.nodeBin,
    [
      options.paths.codeServerEntry,
      '--config', config,
      '--bind-addr', `${host}:${port}`,
      '--auth', 'none',
      '--user-data-dir', dirs.userData,
      '--extensions-dir', dirs.extensions,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--ignore-last-opened',
      '--vscode-option', 'enable-smoke-test-driver',
      ...(options.args ?? []),
    ],
    {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      // DOCS_ADMIN_API_KEY as a CI job would have it: the rollout task must not inherit it (issue 17, 8b).
      env: { ...process.env, DOCS_ADMIN_API_KEY: 'da_editor_started_with_key_0000', ...options.env, XDG_CONFIG_HOME: dirs.xdgConfig, XDG_DATA_HOME: dirs.xdgData, PORT: String(port) },
    },
  );

  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const recent: string[] = [];
  let onListening: (() => void) | undefined;
  const onData = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line.trim() === '') continue;
      recent.push(line);
      if (recent.length > 50) recent.shift();
      options.onOutput?.(line);
      if (line.includes('HTTP server listening')) onListening?.();
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);

  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= stopTree(child));
  const dispose = async () => {
    await stop();
    rmSync(temp, { recursive: true, force: true });
  };

  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('code-server did not start within 60 s')), 60_000);
      onListening = () => {
        clearTimeout(timer);
        resolve();
      };
      void exit.then(() => {
        clearTimeout(timer);
        reject(new Error(`code-server exited before it was ready:\n${recent.join('\n')}`));
      });
    });
  } catch (error) {
    await dispose();
    throw error;
  }
  return { url: `http://${host}:${port}`, host, port, workspace: dirs.workspace, userDataDir: dirs.userData, stop, dispose };
}
