/**
 * What every operation of the action is given (`OperationContext`) and fills in (`Report`): the
 * one file the operations, the summary and the entry share, so none of them imports another.
 */
import type { AdminApiClient } from '../core/api/client';
import type { AgentJob } from '../core/api/apiTypes';
import type { DateRange, Conversation, SearchRow } from '../core/analytics/analyticsTypes';
import type { Deployment } from '../core/deployments/deploymentTypes';
import type { Logger } from '../core/log';
import type { SiteReport } from './checkOperation';
import type { Operation, OutputName } from './spec';

/** The report operation's findings (report.ts). */
export interface ReaderReport {
  range: DateRange;
  pages: { path: string; thumbsDown: number; thumbsUp: number; openComments: number; unanswered: number; views: number | undefined }[];
  questions: Conversation[];
  searches: SearchRow[];
  /** How many of each there were in all (the summary shows at most `rows`). */
  counts: { pages: number; questions: number; searches: number };
  /** Lists cut at their cap, or that could not be read. */
  notes: string[];
}

/** What a run did, for the outputs and the job summary (server text as it came: the summary neutralises it). */
export interface Report {
  /** Undefined until the operation input is read (it may be invalid). */
  operation?: Operation;
  domain?: string;
  jobId?: string;
  pages?: number;
  /** The bundle link without its signature. */
  bundleUrl?: string;
  expiresAt?: string;
  valuesFile?: string;
  valuesChanged?: boolean;
  rolledOut?: boolean;
  agent?: AgentJob;
  /** The deployment or preview, as last read. */
  deployment?: Deployment;
  branch?: string;
  previewUrl?: string;
  /** The report operation's findings. */
  readers?: ReaderReport;
  /** The check operation's findings. */
  site?: SiteReport;
  failure?: string;
}

export interface OperationContext {
  client: AdminApiClient;
  report: Report;
  /** A line for the log (the caller makes it safe). */
  line(text: string): void;
  /** Sets an output as soon as its value is known. */
  output(name: OutputName, value: string): void;
  input(name: 'domain' | 'version' | 'values-file' | 'rollout-command' | 'prompt' | 'branch' | 'wait' | 'days' | 'rows'): string;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  log: Logger;
  signal: AbortSignal;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}
