/**
 * Running a tool, the same way in the editor and over MCP: the input checked (the schema, then
 * the same checks the commands make: an id's pattern, the key never echoed as an id, git's rules
 * for a branch, a blank prompt) before anything is sent; then the core paths the commands use
 * (askAgent's rules for the agent, the triggers' pacing and one-in-flight for deployments); the
 * result as plain text (results.ts). Each front end gives a `ToolHost`: its client, its triggers,
 * its analytics and its docs files, and what to do with what an action started (track it).
 */
import * as l10n from '@vscode/l10n';
import { askAgent, isBlankPrompt, type CheckAdvice } from '../agent/ask';
import type { AdminApiClient } from '../api/client';
import type { AgentJob } from '../api/apiTypes';
import type { PathMatch } from '../analytics/mapping';
import { periodRange } from '../analytics/period';
import { signalsByFile, signalsByPath } from '../analytics/signals';
import type { SiteAnalytics } from '../analytics/site';
import type { DateRange } from '../analytics/analyticsTypes';
import { parsePreviewBranch, parseStatusId } from '../deployments/deploymentInput';
import { PreviewWithoutIdError } from '../deployments/deploymentSchemas';
import type { DeploymentTriggers } from '../deployments/triggers';
import { parseJobId } from '../jobs/jobInput';
import type { ToolName } from './definitions';
import { TOOL_INPUTS, type ToolInput } from './inputs';
import { dataBlock } from './quote';
import { agentJobText, deploymentText, exportJobText, questionsText, readerSignalsText, type Where } from './results';

/** The input did not pass its checks; nothing was sent. */
export class ToolInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolInputError';
  }
}

/** A page's file as a front end finds it: how it is named, its key in `resolve`'s answers, its URL paths. */
export interface PageLookup {
  label: string;
  key: string;
  /** The URL paths the file serves (for a result that found nothing). */
  paths: string[];
  /** Where a URL path leads, as the site builds it (redirects included). */
  resolve(path: string): PathMatch;
}

/** What an action started, for the front end to track (the editor's views). */
export type Started = { kind: 'agent'; created: boolean; job: AgentJob } | { kind: 'deployment'; statusId: string } | { kind: 'preview'; statusId: string; branch: string; previewUrl?: string };

export interface ToolHost {
  /** The environment and project the tools use; throws (a clear message) when not set up. */
  where(): Where;
  /** The API client; throws (a clear message, never the key) when no key is set. */
  client(): Promise<AdminApiClient>;
  triggers(): Promise<Pick<DeploymentTriggers, 'deploy' | 'preview'>>;
  /** The site's reader analytics for a range (a front end may answer from its cache). */
  analytics(range: DateRange, signal?: AbortSignal): Promise<SiteAnalytics>;
  /** The page a file is, or why not (a ToolInputError). */
  page(file: string): Promise<PageLookup>;
  /** Values never accepted as an id (the key). */
  secrets(): string[];
  advice?: CheckAdvice;
  started?(what: Started): Promise<void>;
  now?(): number;
}

/** The input checked against the tool's schema. */
export function checkInput<N extends ToolName>(name: N, input: unknown): ToolInput<N> {
  const result = TOOL_INPUTS[name].safeParse(input ?? {});
  if (result.success) return result.data as ToolInput<N>;
  const problems = result.error.issues.map((i) => (i.path.length === 0 ? i.message : `${i.path.join('.')}: ${i.message}`));
  throw new ToolInputError(l10n.t('The input of {0} is not valid ({1}); nothing was sent.', name, problems.join('; ')));
}

function jobIdOf(text: string, host: ToolHost): string {
  const r = parseJobId(text, host.secrets());
  if (!r.ok) throw new ToolInputError(r.reason);
  return r.id;
}

function promptOf(text: string): string {
  if (isBlankPrompt(text)) throw new ToolInputError(l10n.t('The prompt is empty: write what the agent should do. Nothing was sent.'));
  return text;
}

function branchOf(text: string): string {
  const r = parsePreviewBranch(text);
  if (!r.ok) throw new ToolInputError(r.reason);
  return r.branch;
}

/**
 * Checks a tool's input completely (what `runTool` checks before sending), so a confirmation is
 * asked only for an action that can be sent. Answers the values the confirmation shows.
 */
export function checkAction(name: ToolName, input: unknown, host: Pick<ToolHost, 'secrets'>): { prompt?: string; jobId?: string; branch?: string } {
  switch (name) {
    case 'docsAdmin_askAgent':
      return { prompt: promptOf(checkInput(name, input).prompt) };
    case 'docsAdmin_sendFollowUp': {
      const i = checkInput(name, input);
      return { jobId: jobIdOf(i.jobId, host as ToolHost), prompt: promptOf(i.prompt) };
    }
    case 'docsAdmin_previewBranch':
      return { branch: branchOf(checkInput(name, input).branch) };
    default:
      checkInput(name, input);
      return {};
  }
}

/** Runs a tool; answers its text result. Throws ToolInputError, the client's typed errors, or the core's. */
export async function runTool(name: ToolName, input: unknown, host: ToolHost, signal?: AbortSignal): Promise<string> {
  const call = signal === undefined ? {} : { signal };
  const now = () => (host.now === undefined ? Date.now() : host.now());
  switch (name) {
    case 'docsAdmin_agentJobStatus': {
      const id = jobIdOf(checkInput(name, input).jobId, host);
      const where = host.where();
      return agentJobText(await (await host.client()).getAgentJob(id, call), where);
    }
    case 'docsAdmin_exportStatus': {
      const id = jobIdOf(checkInput(name, input).jobId, host);
      const where = host.where();
      return exportJobText(await (await host.client()).getExportJob(id, call), where);
    }
    case 'docsAdmin_deploymentStatus': {
      const i = checkInput(name, input);
      const id = parseStatusId(i.statusId, host.secrets());
      if (!id.ok) throw new ToolInputError(id.reason);
      const where = host.where();
      return deploymentText(await (await host.client()).getDeploymentStatus(id.id, call), where, i.logLines ?? 30);
    }
    case 'docsAdmin_readerSignals': {
      const i = checkInput(name, input);
      const days = i.days ?? 30;
      const where = host.where();
      const page = await host.page(i.file);
      const site = await host.analytics(periodRange(days, now()), signal);
      const { files } = signalsByFile(signalsByPath(site), (path) => page.resolve(path));
      return readerSignalsText(page.label, files.get(page.key), days, where, page.paths);
    }
    case 'docsAdmin_unansweredQuestions': {
      const i = checkInput(name, input);
      const days = i.days ?? 30;
      const limit = i.limit ?? 25;
      const where = host.where();
      const site = await host.analytics(periodRange(days, now()), signal);
      const unanswered = site.conversations.filter((c) => c.resolutionStatus === 'unanswered').sort((a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0));
      return questionsText(unanswered.slice(0, limit), days, unanswered.length > limit || site.truncated.conversations === true, where);
    }
    case 'docsAdmin_askAgent':
    case 'docsAdmin_sendFollowUp': {
      const checked = checkAction(name, input, host);
      const where = host.where();
      const request = checked.jobId === undefined ? ({ kind: 'create' } as const) : ({ kind: 'message', jobId: checked.jobId } as const);
      const job = await askAgent(await host.client(), request, checked.prompt ?? '', { ...call, maxRateLimitWaitMs: 0, ...(host.advice === undefined ? {} : { advice: host.advice }) });
      await host.started?.({ kind: 'agent', created: request.kind === 'create', job });
      const said = request.kind === 'create' ? l10n.t('Agent job {0} created: the docs agent is working on it.', job.id) : l10n.t('Agent job {0} took the follow-up: it is active again.', job.id);
      return `${said} ${l10n.t('Follow it with the agent job status tool ({0}). (Docs Admin environment "{1}", project "{2}".)', 'docsAdmin_agentJobStatus', where.environment, where.projectId)}`;
    }
    case 'docsAdmin_previewBranch': {
      const { branch } = checkAction(name, input, host);
      const where = host.where();
      let started;
      try {
        started = await (await host.triggers()).preview(branch ?? '', call);
      } catch (error) {
        if (!(error instanceof PreviewWithoutIdError)) throw error;
        const said = l10n.t('Preview of branch {0} queued, but the server gave no status id: it cannot be followed from here. Its URL is below; the dashboard shows its progress. (Docs Admin environment "{1}", project "{2}".)', JSON.stringify(branch), where.environment, where.projectId);
        return [said, dataBlock([['preview URL', error.previewUrl]], l10n.t('The preview as the server described it'))].join('\n\n');
      }
      await host.started?.({ kind: 'preview', statusId: started.statusId, branch: branch ?? '', ...(started.previewUrl === undefined ? {} : { previewUrl: started.previewUrl }) });
      const said = `${l10n.t('Preview of branch {0} queued: status id {1}.', JSON.stringify(branch), started.statusId)} ${started.previewUrl === undefined ? l10n.t('The server gave no preview URL.') : l10n.t('Its URL is below.')} ${l10n.t('Follow it with the deployment status tool ({0}). (Docs Admin environment "{1}", project "{2}".)', 'docsAdmin_deploymentStatus', where.environment, where.projectId)}`;
      // The URL is the server's, checked as a link at parse time, and quoted anyway.
      return [said, dataBlock([['preview URL', started.previewUrl]], l10n.t('The preview as the server described it'))].filter((part) => part !== '').join('\n\n');
    }
    case 'docsAdmin_deploy': {
      checkInput(name, input);
      const where = host.where();
      const { statusId } = await (await host.triggers()).deploy(call);
      await host.started?.({ kind: 'deployment', statusId });
      return `${l10n.t('Deployment to the live site queued: status id {0}.', statusId)} ${l10n.t('Follow it with the deployment status tool ({0}). (Docs Admin environment "{1}", project "{2}".)', 'docsAdmin_deploymentStatus', where.environment, where.projectId)}`;
    }
  }
}
