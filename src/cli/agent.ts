/** `docs-admin agent …`: an agent job, read or waited for. */
import * as l10n from '@vscode/l10n';
import type { AgentJob } from '../core/api/types';
import { waitForAgentJob } from '../core/jobs/wait';
import type { Parsed } from './args';
import { jobId, print, progressLine, waitOptions, type Context } from './context';
import { describeAgent } from './describe';
import { EXIT, JobFailedError, UsageError } from './exit';

export async function run(parsed: Parsed, ctx: Context): Promise<number> {
  const client = await ctx.api();
  switch (parsed.spec.name) {
    case 'agent get': {
      const job = await client.getAgentJob(jobId(parsed, ctx.key), { signal: ctx.io.signal });
      print(ctx, job, describeAgent(job));
      return EXIT.ok;
    }
    case 'agent wait': {
      const line = progressLine(ctx);
      const job = await waitForAgentJob(client, jobId(parsed, ctx.key), waitOptions<AgentJob>(parsed, ctx, (j) => line.show(`${j.id}: ${j.rawStatus}`)));
      line.done();
      print(ctx, job, describeAgent(job));
      if (job.status === 'failed') throw new JobFailedError(l10n.t('The agent job {0} failed.', job.id));
      return EXIT.ok;
    }
    default:
      throw new UsageError(l10n.t('"{0}" is not implemented.', parsed.spec.name));
  }
}
