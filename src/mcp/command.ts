/**
 * `docs-admin mcp`: the MCP server over stdio, for an AI assistant (VS Code's mcp.json, Cursor,
 * Claude Code). Loaded only for this command: no other command pays for the SDK. The key comes
 * from DOCS_ADMIN_API_KEY only; the base URL and project id from the flags or the environment.
 * The server starts without them (a client can list the tools), and a tool called without them
 * says what to set. stdout carries the protocol alone; the log goes to stderr.
 */
import * as l10n from '@vscode/l10n';
import { version } from '../../package.json';
import { AnalyticsStore } from '../core/analytics/store';
import { DeploymentTriggers } from '../core/deployments/triggers';
import type { ToolHost } from '../core/tools/run';
import type { Parsed } from '../cli/args';
import { option, type Context } from '../cli/context';
import { EXIT } from '../cli/exit';
import { findPage } from './docsFiles';
import { createServer } from './server';

/** How long the reader analytics of a period are reused between tool calls. */
const ANALYTICS_TTL_MS = 5 * 60_000;

function host(parsed: Parsed, ctx: Context): ToolHost {
  let triggers: DeploymentTriggers | undefined;
  let store: AnalyticsStore | undefined;
  return {
    where() {
      const projectId = (option(parsed, 'project-id') ?? ctx.io.env.DOCS_ADMIN_PROJECT_ID ?? '').trim();
      // The CLI has no named environments: the admin API's address names it.
      const environment = option(parsed, 'base-url') ?? ctx.io.env.DOCS_ADMIN_BASE_URL ?? '';
      if (projectId === '') throw new Error(l10n.t('the project id is not set: pass --project-id or set DOCS_ADMIN_PROJECT_ID in the MCP server\'s configuration.'));
      return { environment, projectId };
    },
    client: () => ctx.api(),
    async triggers() {
      triggers ??= new DeploymentTriggers({ client: await ctx.api() });
      return triggers;
    },
    async analytics(range, signal) {
      const client = await ctx.api();
      const [{ AnalyticsApi }, { loadSite }] = await Promise.all([import('../core/analytics/api.js'), import('../core/analytics/site.js')]);
      store ??= new AnalyticsStore({ ttlMs: ANALYTICS_TTL_MS, load: (r, s) => loadSite(new AnalyticsApi(client), r, { log: ctx.log, paging: { signal: s, maxRateLimitWaitMs: 60_000 } }) });
      const loading = store.get(range);
      // A cancelled call stops waiting; the load goes on for the next one.
      if (signal === undefined) return loading;
      return Promise.race([loading, new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error(l10n.t('Cancelled.'))), { once: true }))]);
    },
    page: (file) => findPage(file, process.cwd()),
    secrets: () => [ctx.key].filter((k) => k !== ''),
  };
}

export async function run(parsed: Parsed, ctx: Context): Promise<number> {
  const [{ StdioServerTransport }] = await Promise.all([import('@modelcontextprotocol/sdk/server/stdio.js')]);
  const server = createServer(host(parsed, ctx), { version, log: ctx.log });
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(new StdioServerTransport());
  ctx.log.info('docs-admin MCP server: serving on stdio.');
  // Until the client goes (stdin ends) or the process is told to stop.
  const stop = () => void server.close();
  ctx.io.signal.addEventListener('abort', stop, { once: true });
  process.stdin.once('end', stop);
  await closed;
  return EXIT.ok;
}
