/**
 * The playground's one address to open (`npm start`): a small loopback server on the port asked
 * for (8080 by default) whose `/` sends the browser on to the workbench URL that opens the
 * playground ready (the workspace, the extension in development mode, the demo key and jobs: a
 * URL of a thousand characters), while code-server itself listens on a port of its own. So the
 * address a person types, or the first one the banner shows, is never an empty editor.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PlaygroundLink {
  /** `http://127.0.0.1:8080/`: what to open. */
  url: string;
  close(): Promise<void>;
}

/** Serves `/` as a redirect to `target` on `host:port` (0: a free port). */
export function startPlaygroundLink(target: string, options: { host?: string; port?: number } = {}): Promise<PlaygroundLink> {
  const host = options.host ?? '127.0.0.1';
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && (path === '/' || path === '')) {
      // Not cached: the next run's workbench listens elsewhere.
      res.writeHead(302, { location: target, 'cache-control': 'no-store' });
      res.end();
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('The Docs Admin playground is at /\n');
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      const { port } = server.address() as AddressInfo;
      const urlHost = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${urlHost}:${port}/`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

/** What `npm start` prints: one address to open, then what is running and what to try. */
export function playgroundBanner(link: string, simulator: { baseUrl: string; projectId: string; key: string }): string {
  return `
Docs Admin playground: open ${link} in your browser.
  It opens VS Code with the extension loaded in development mode, the simulator's demo key
  stored and its demo jobs tracked. (The simulator's API: ${simulator.baseUrl}, project
  ${simulator.projectId}, demo key ${simulator.key}.)

Try Ask Agent: open docs/quickstart.mdx, select a few lines, right-click, Docs Admin: Ask
Agent…, write what to change and press Ctrl+Enter. The job runs for about 9 s and opens a
pull request.

The workspace is a git repository whose origin is the demo jobs' repository: on the agent job
"acme/docs @ agent/quickstart", Review Changes, Check Out Agent Branch and Preview Agent Branch
work; the Deployments view shows a deployment of each status (Show Deployment Logs on the failed
one), and Deploy Docs, Preview Branch… and Open Site work against the simulator.

Try Readers: docs/quickstart.mdx shows what readers said of it on its first line; the Readers
view ranks the pages, lists the unanswered questions and the searches that found nothing; Ask
Agent About This on any row opens the composer with the readers' words quoted.

Ctrl-C stops everything.`;
}
