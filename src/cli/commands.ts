/**
 * Which module runs a command: one per group (agent, export, publish, analytics), loaded when a command
 * of the group runs, so a command loads only what it needs.
 */
import * as l10n from '@vscode/l10n';
import type { Parsed } from './args';
import type { Context } from './context';
import { UsageError } from './exit';

type Group = { run(parsed: Parsed, ctx: Context): Promise<number> };

const GROUPS: Record<string, () => Promise<Group>> = {
  agent: () => import('./agent.js'),
  export: () => import('./export.js'),
  publish: () => import('./publish.js'),
  deploy: () => import('./deploy.js'),
  preview: () => import('./deploy.js'),
  automation: () => import('./deploy.js'),
  analytics: () => import('./analytics.js'),
  check: () => import('./check.js'),
  // The MCP server and its SDK: loaded for `docs-admin mcp` only.
  mcp: () => import('../mcp/command.js'),
};

export async function runCommand(parsed: Parsed, ctx: Context): Promise<number> {
  const load = GROUPS[parsed.spec.name.split(' ')[0] ?? ''];
  if (load === undefined) throw new UsageError(l10n.t('"{0}" is not implemented.', parsed.spec.name));
  return (await load()).run(parsed, ctx);
}
