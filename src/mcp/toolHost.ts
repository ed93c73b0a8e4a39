/**
 * The MCP server's view of the command line (core/tools/run.ts's `ToolHost`): the context's client
 * and key, the triggers (paced, one in flight), the reader analytics of a period reused a while,
 * and the docs files of the folder the server runs in.
 */
import * as l10n from '@vscode/l10n';
import { AnalyticsStore } from '../core/analytics/store';
import { DeploymentTriggers } from '../core/deployments/triggers';
import type { ToolHost } from '../core/tools/run';
import type { Parsed } from '../cli/args';
import { option, type Context } from '../cli/context';
import { findPage } from './docsFiles';

/** How long the reader analytics of a period are reused between tool calls. */
const ANALYTICS_TTL_MS = 5 * 60_000;

/** The tools' view of the CLI: the context's client and key, the reader analytics cached a while, the docs files of `cwd`. */
export function mcpToolHost(parsed: Parsed, ctx: Context, cwd: string = process.cwd()): ToolHost {
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
    page: (file) => findPage(file, cwd),
    secrets: () => ctx.secrets,
  };
}
