/** `docs-admin agent …`: an agent job, read, waited for, created or sent a follow-up. */
import * as l10n from '@vscode/l10n';
import { readFile } from 'node:fs/promises';
import { askAgent, isBlankPrompt, type AgentRequest } from '../core/agent/ask';
import type { AgentJob } from '../core/api/apiTypes';
import { agentStatusText } from '../core/jobs/jobLabels';
import { waitForAgentJob } from '../core/jobs/wait';
import { forTerminal } from '../core/untrusted';
import type { Parsed } from './args';
import { jobId, option, print, progressLine, waitOptions, type Context } from './context';
import { describeAgent } from './describe';
import { EXIT, JobFailedError, UsageError } from './exit';

export async function run(parsed: Parsed, ctx: Context): Promise<number> {
  switch (parsed.spec.name) {
    case 'agent get': {
      const client = await ctx.api();
      const job = await client.getAgentJob(jobId(parsed, ctx), { signal: ctx.io.signal });
      print(ctx, job, forTerminal(describeAgent(job)));
      return EXIT.ok;
    }
    case 'agent wait': {
      const job = await follow(parsed, ctx, jobId(parsed, ctx));
      print(ctx, job, forTerminal(describeAgent(job)));
      return failedOrOk(job);
    }
    case 'agent create':
    case 'agent message': {
      // The job id and the prompt are checked before anything is sent (or the client is made).
      const request: AgentRequest = parsed.spec.name === 'agent create' ? { kind: 'create' } : { kind: 'message', jobId: jobId(parsed, ctx) };
      const prompt = await readPrompt(parsed, ctx);
      const client = await ctx.api();
      const sent = await askAgent(client, request, prompt, {
        signal: ctx.io.signal,
        onRateLimitWait: (ms) => ctx.io.err(`${l10n.t('The agent is rate limited (429): waiting {0} s, then sending once more.', Math.ceil(ms / 1000))}\n`),
        advice: cliAdvice,
      });
      if (parsed.options.wait !== true) {
        print(ctx, sent, sent.id);
        return EXIT.ok;
      }
      // The id first, so a script (or a person) has it even if the wait is cut short.
      if (!ctx.json) ctx.io.out(`${sent.id}\n`);
      const job = await follow(parsed, ctx, sent.id);
      print(ctx, job, forTerminal(describeAgent(job)));
      return failedOrOk(job);
    }
    default:
      throw new UsageError(l10n.t('"{0}" is not implemented.', parsed.spec.name));
  }
}

async function follow(parsed: Parsed, ctx: Context, id: string): Promise<AgentJob> {
  const client = await ctx.api();
  const line = progressLine(ctx);
  const job = await waitForAgentJob(client, id, waitOptions<AgentJob>(parsed, ctx, (j) => line.show(forTerminal(`${j.id}: ${agentStatusText(j)}`))));
  line.done();
  return job;
}

/**
 * What a CLI user can check before sending again: the job with `agent get` when its id is
 * known (a follow-up), the dashboard otherwise (the API cannot list a project's jobs).
 */
function cliAdvice(request: AgentRequest): string {
  return request.kind === 'create'
    ? l10n.t("Check the project's agent jobs on the dashboard before you run this again (the API cannot list them).")
    : l10n.t('Run `docs-admin agent get {0}` before you send it again: the job is active again if it took the follow-up.', request.jobId);
}

function failedOrOk(job: AgentJob): number {
  if (job.status === 'failed') throw new JobFailedError(l10n.t('The agent job {0} failed.', job.id));
  return EXIT.ok;
}

/** The prompt of `--prompt` or `--prompt-file` (one of them; "-" is standard input), unchanged. */
async function readPrompt(parsed: Parsed, ctx: Context): Promise<string> {
  const text = option(parsed, 'prompt');
  const file = option(parsed, 'prompt-file');
  if (text !== undefined && file !== undefined) throw new UsageError(l10n.t('pass --prompt or --prompt-file, not both.'));
  if (text === undefined && file === undefined) throw new UsageError(l10n.t('no prompt: pass --prompt <text> or --prompt-file <file> ("-" reads standard input).'));
  let prompt: string;
  if (text !== undefined) prompt = text;
  else if (file === '-') {
    if (ctx.io.stdin === undefined) throw new UsageError(l10n.t('standard input cannot be read here.'));
    prompt = await ctx.io.stdin();
  } else {
    try {
      prompt = await readFile(file ?? '', 'utf8');
    } catch (error) {
      throw new UsageError(l10n.t('the prompt file "{0}" cannot be read: {1}', file ?? '', error instanceof Error ? error.message : String(error)));
    }
  }
  if (isBlankPrompt(prompt)) throw new UsageError(l10n.t('the prompt is empty: write what the agent should do. Nothing was sent.'));
  return prompt;
}
