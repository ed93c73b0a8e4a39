/**
 * The language-model tools' view of the editor (core/tools/runTool.ts's `ToolHost`): the active
 * environment's client and its triggers (the same ones the commands use: one in flight, paced),
 * the reader analytics of the Readers view (the same cache), the docs roots it found, and what
 * an action started tracked in the views like the commands track it.
 */
import * as vscode from 'vscode';
import { isAbsolute } from 'node:path';
import type { AdminApiClient } from '../../core/api/client';
import { ToolInputError, type PageLookup, type Started, type ToolHost } from '../../core/tools/runTool';
import { jobKey } from '../../core/jobs/trackedJob';
import { requireService, type Deps } from '../commandKit/commandToolkit';
import { trackStarted, triggersOf } from '../deployments/deploymentActions';

function client(deps: Deps): AdminApiClient {
  const env = deps.session.environment;
  requireService(deps);
  if (deps.session.state === 'noKey') {
    throw new Error(vscode.l10n.t('No admin key is set for the "{0}" environment: run Docs Admin: Set Admin Key… first. Nothing was sent.', env.name));
  }
  const c = deps.session.client;
  if (c === undefined) throw new Error(vscode.l10n.t('Set the base URL and project id of the "{0}" environment first (Docs Admin: Set Base URL, Docs Admin: Set Project ID).', env.name));
  return c;
}

/** A file named by a tool's input: absolute, or relative to a workspace folder (the first that holds it). */
async function fileUri(file: string): Promise<vscode.Uri> {
  if (isAbsolute(file)) return vscode.Uri.file(file);
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const uri = vscode.Uri.joinPath(folder.uri, file);
    try {
      await vscode.workspace.fs.stat(uri);
      return uri;
    } catch {
      // Not in this folder.
    }
  }
  throw new ToolInputError(vscode.l10n.t('The file {0} is not in the workspace (give it relative to a workspace folder).', JSON.stringify(file)));
}

async function page(deps: Deps, file: string): Promise<PageLookup> {
  const uri = await fileUri(file);
  const sites = deps.readers.sites;
  const at = await sites.rootFor(uri);
  if (at === undefined) throw new ToolInputError(vscode.l10n.t('{0} is not a page of a docs site in the workspace (no docs.json at or above it).', JSON.stringify(file)));
  const own = at.root.site.pathOfFile(at.file);
  if (own === undefined) throw new ToolInputError(vscode.l10n.t('{0} is not a page of the docs (a .md or .mdx file of the site).', JSON.stringify(file)));
  return { label: vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1), key: uri.toString(), paths: [own], resolve: (path) => sites.resolve(path) };
}

async function track(deps: Deps, what: Started): Promise<void> {
  const service = requireService(deps);
  switch (what.kind) {
    case 'agent':
      if (what.created) {
        await service.addCreatedAgentJob(what.job);
        await deps.setup.markAgentAsked();
      } else await service.reopenAgentJob(what.job);
      deps.reveal({ key: jobKey({ kind: 'agent', id: what.job.id }), kind: 'agent' });
      deps.log.info(what.created ? `Agent job ${what.job.id} created by a language-model tool.` : `Agent job ${what.job.id} took a follow-up from a language-model tool.`);
      return;
    case 'deployment':
      deps.log.info(`Deployment of ${deps.session.environment.projectId} (${deps.session.environment.name}) queued by a language-model tool: status ${what.statusId}`);
      await trackStarted(deps, what.statusId, { kind: 'production' });
      return;
    case 'preview':
      deps.log.info(`Preview of ${JSON.stringify(what.branch)} queued by a language-model tool: status ${what.statusId}`);
      await trackStarted(deps, what.statusId, { kind: 'preview', branch: what.branch, ...(what.previewUrl === undefined ? {} : { previewUrl: what.previewUrl }) });
      return;
  }
}

export function editorToolHost(deps: Deps): ToolHost {
  return {
    where: () => {
      requireService(deps);
      return { environment: deps.session.environment.name, projectId: deps.session.environment.projectId };
    },
    client: () => Promise.resolve(client(deps)),
    triggers: () => {
      client(deps);
      return Promise.resolve(triggersOf(deps));
    },
    analytics: (range) => {
      client(deps);
      return deps.readers.model.siteFor(range);
    },
    page: (file) => page(deps, file),
    secrets: () => deps.keys.known(),
    advice: (request) =>
      request.kind === 'create'
        ? vscode.l10n.t('Check the Agent Jobs view (Refresh) or the dashboard before you send it again.')
        : vscode.l10n.t('Refresh agent job {0} in the Agent Jobs view before you send it again: it is active again if it took the follow-up.', request.jobId),
    started: (what) => track(deps, what),
  };
}
