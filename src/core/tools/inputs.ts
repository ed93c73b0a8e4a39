/**
 * The tools' input schemas (zod): what each tool accepts, checked before it runs, and given as
 * JSON Schema to the manifest (`inputSchema`, checked by a test) and the MCP listing.
 */
import * as z from 'zod/mini';
import { PERIOD_DAYS } from '../analytics/period';
import type { ToolName } from './definitions';

/** An id as the API's routes take it (checked again, with the key's echo refused, when run). */
const id = (description: string) => z.string().check(z.minLength(1), z.maxLength(400), z.describe(description));
const days = z.optional(z.union(PERIOD_DAYS.map((d) => z.literal(d))).check(z.describe('How many days back to look: 7, 30 or 90 (default 30).')));

export const TOOL_INPUTS = {
  docsAdmin_agentJobStatus: z.strictObject({ jobId: id('The agent job id (or a dashboard URL holding it).') }),
  docsAdmin_exportStatus: z.strictObject({ jobId: id('The static export job id.') }),
  docsAdmin_deploymentStatus: z.strictObject({
    statusId: id('The deployment status id (as deploy and preview return it).'),
    logLines: z.optional(z.int().check(z.minimum(0), z.maximum(200), z.describe('How many of the last log lines to include (default 30, at most 200).'))),
  }),
  docsAdmin_readerSignals: z.strictObject({
    file: z.string().check(z.minLength(1), z.maxLength(1000), z.describe('The page\'s source file (`docs/quickstart.mdx`): relative to the workspace (the folder the MCP server runs in), or absolute inside it.')),
    days,
  }),
  docsAdmin_unansweredQuestions: z.strictObject({
    days,
    limit: z.optional(z.int().check(z.minimum(1), z.maximum(200), z.describe('How many questions at most, newest first (default 25).'))),
  }),
  docsAdmin_askAgent: z.strictObject({
    prompt: z.string().check(z.minLength(1), z.maxLength(20_000), z.describe('What the docs agent should change, in the author\'s words. It opens a pull request on the docs repository.')),
  }),
  docsAdmin_sendFollowUp: z.strictObject({
    jobId: id('The agent job to send the follow-up to.'),
    prompt: z.string().check(z.minLength(1), z.maxLength(20_000), z.describe('The follow-up instruction for that job.')),
  }),
  docsAdmin_previewBranch: z.strictObject({
    branch: z.string().check(z.minLength(1), z.maxLength(255), z.describe('The git branch of the docs repository to deploy as a preview.')),
  }),
  docsAdmin_deploy: z.strictObject({}),
} as const satisfies Record<ToolName, z.ZodMiniType>;

export type ToolInput<N extends ToolName> = z.infer<(typeof TOOL_INPUTS)[N]>;


/** The input schema of a tool as JSON Schema (the manifest's `inputSchema`, the MCP listing's). */
export function inputSchemaOf(name: ToolName): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(TOOL_INPUTS[name]) as Record<string, unknown>;
  return schema;
}
