// `npm start`: the playground. Builds the extension, starts the API simulator with demo data,
// starts a real VS Code (code-server) with the extension loaded and pointed at the simulator,
// and prints the one URL to open (a redirect to the workbench's long one). Ctrl-C stops everything.
//   npm start -- --port 8080 --host 127.0.0.1 --time-scale 10
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ensureDeps } from './ensure-deps.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};

ensureDeps();
const { startCodeServer } = require(join(root, 'out/test/host/codeServer.js'));
const { hostPaths } = require(join(root, 'out/test/host/versions.js'));
const { workbenchUrl } = require(join(root, 'out/test/host/workbench.js'));
const { playgroundBanner, startPlaygroundLink } = require(join(root, 'out/test/host/playgroundLink.js'));
const { makePlaygroundRepository } = require(join(root, 'out/test/host/agentRepository.js'));
const { playgroundSiteFiles } = require(join(root, 'out/test/simulator/playgroundSite.js'));

function startSimulator() {
  const child = spawn(process.execPath, [join(root, 'out/test/simulator/main.js'), '--demo', '--time-scale', arg('time-scale', '10')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const info = {};
    child.once('exit', (code) => reject(new Error(`the simulator exited (${code})`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const m = /^(\w+): (.*)$/.exec(line);
      if (m) info[m[1]] = m[2];
      if (line.startsWith('ready:')) resolve({ child, info });
    });
  });
}

const { child: simulator, info } = await startSimulator();
// code-server on a port of its own; the port asked for serves the one address to open (playgroundLink.ts).
const server = await startCodeServer({
  paths: hostPaths(),
  host: arg('host', '127.0.0.1'),
  port: 0,
  settings: {
    'docsAdmin.baseUrl': info.baseUrl,
    'docsAdmin.projectId': info.projectId,
    // Open Site: the page the simulator serves for the demo site.
    'docsAdmin.siteUrl': `${info.storageBaseUrl}/site/acme/`,
    'workbench.colorTheme': 'Default Dark Modern',
    // Review Changes, Check Out Agent Branch and Preview Branch… use the built-in Git extension.
    'git.enabled': true,
  },
});
// The workspace is a clone of the demo jobs' repository (its origin sent to a bare repository on
// disk holding the agents' branches), with a docs page to ask the agent about (Ask Agent… on a selection).
// The docs site (docs/docs.json and its pages, which the simulator's reader analytics speak of,
// docs/quickstart.mdx among them) committed in the workspace's repository.
const repository = makePlaygroundRepository(server.workspace, Object.fromEntries(playgroundSiteFiles()));
// The extension, in development mode only, stores this demo key and tracks the demo jobs.
const url = workbenchUrl(server, {
  extensionDevelopmentPath: root,
  extensionEnvironment: { DOCS_ADMIN_PLAYGROUND_KEY: info.key, DOCS_ADMIN_PLAYGROUND_TRACK: info.demoJobs ?? '' },
});

const link = await startPlaygroundLink(url, { host: arg('host', '127.0.0.1'), port: Number(arg('port', process.env.PORT ?? '8080')) });
console.log(playgroundBanner(link.url, { baseUrl: info.baseUrl, projectId: info.projectId, key: info.key }));

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  simulator.kill('SIGTERM');
  await link.close();
  await server.stop();
  repository.remove();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
