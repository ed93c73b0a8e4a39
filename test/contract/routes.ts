/**
 * Every route the project uses, with the vendor document and operation it is held against. A
 * new route (deployments in `openapi.json`, analytics in `analytics.openapi.json`) joins the
 * contract tests by being listed here: its requests and the simulator's answers are then
 * validated, and the client is fed every vendor-valid answer generated from its schemas.
 */
import * as assert from 'node:assert/strict';
import type { AdminApiClient } from '../../src/core/api/client';
import { InvalidResponseError } from '../../src/core/api/apiErrors';
import type { AgentJob, Bundle, ExportJob } from '../../src/core/api/apiTypes';
import type { AutomationTriggered, Deployment, PreviewTriggered } from '../../src/core/deployments/deploymentTypes';
import { checkOpenableLink } from '../../src/core/links';
import type { RouteName } from '../simulator';
import { ANALYTICS_ROUTES } from './analyticsRoutes';
import type { DocumentName } from './documents';

export interface ContractRoute {
  /** The simulator's name of the route (its faults and its request log use it). */
  route: RouteName;
  document: DocumentName;
  method: 'get' | 'post';
  /** The operation's path, exactly as the document writes it (under its server's path). */
  path: string;
  /** Has the client call the route once, about the job `id` (the simulator answers what it is told to). */
  call(client: AdminApiClient, id: string): Promise<unknown>;
  /**
   * Asserts what the client made of a vendor-valid success answer `body` to a call about `id`:
   * `outcome` is what the call returned, or the error it threw.
   */
  read(outcome: unknown, body: unknown, id: string): void;
}

type Fields = Record<string, unknown>;

/** What a call returned; it must not have thrown. */
function value(outcome: unknown): unknown {
  assert.ok(!(outcome instanceof Error), `refused: ${outcome instanceof Error ? outcome.message : ''}`);
  return outcome;
}

/** A string with something in it: what the client takes as given (an empty one is not). */
function given(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** An agent job, read: each field as the answer gave it; the id and status from the call when it gave none. */
function agentJob(context: { status?: 'active'; askedId: boolean }) {
  return (outcome: unknown, body: unknown, id: string): void => {
    const b = body as Fields;
    if (!context.askedId && given(b.id) === undefined) {
      // A create answered 2xx without an id: the job exists, and nothing can follow it. The
      // client says exactly that (never "may have been created", never a wrong shape).
      assert.ok(outcome instanceof InvalidResponseError, `read as ${String(outcome)}`);
      assert.match(outcome.message, /^The agent took the prompt and created a job \(201\), but the answer does not say its id, so it cannot be followed from here\. Find the new job on the dashboard/);
      return;
    }
    const job = value(outcome) as AgentJob;
    const source = (b.source ?? {}) as Fields;
    const status = given(b.status) ?? context.status;
    assert.equal(job.id, given(b.id) ?? (context.askedId ? id : undefined), 'id');
    assert.equal(job.rawStatus, status, 'rawStatus');
    assert.equal(job.status, status === undefined ? 'unknown' : ['active', 'completed', 'archived', 'failed'].includes(status) ? status : 'unknown', 'status');
    assert.equal(job.source.repository, given(source.repository), 'source.repository');
    assert.equal(job.source.ref, given(source.ref) ?? null, 'source.ref');
    assert.equal(job.model, given(b.model), 'model');
    assert.equal(job.prLink, b.prLink ?? null, 'prLink');
    assert.equal(job.createdAt, given(b.createdAt), 'createdAt');
    assert.equal(job.archivedAt, b.archivedAt ?? null, 'archivedAt');
  };
}

function exportJob(outcome: unknown, body: unknown): void {
  const job = value(outcome) as ExportJob;
  const b = body as Fields;
  assert.equal(job.jobId, b.jobId, 'jobId');
  assert.equal(job.rawStatus, b.status, 'rawStatus');
  assert.equal(job.status, b.status, 'status');
  assert.equal(job.progress, b.progress, 'progress');
  assert.equal(job.pageCount, b.pageCount, 'pageCount');
  assert.equal(job.createdAt, b.createdAt, 'createdAt');
  assert.equal(job.updatedAt, b.updatedAt, 'updatedAt');
  assert.equal(job.error, b.error ?? undefined, 'error');
}

export const CONTRACT_ROUTES: readonly ContractRoute[] = [
  {
    route: 'agent.get',
    document: 'admin',
    method: 'get',
    path: '/v2/agent/{projectId}/job/{id}',
    call: (client, id) => client.getAgentJob(id),
    read: agentJob({ askedId: true }),
  },
  {
    route: 'agent.create',
    document: 'admin',
    method: 'post',
    path: '/v2/agent/{projectId}/job',
    call: (client) => client.createAgentJob('Fix the typo on the quickstart page.'),
    read: agentJob({ status: 'active', askedId: false }),
  },
  {
    route: 'agent.message',
    document: 'admin',
    method: 'post',
    path: '/v2/agent/{projectId}/job/{id}/message',
    call: (client, id) => client.sendAgentMessage(id, 'Also fix the one on the next page.'),
    read: agentJob({ status: 'active', askedId: true }),
  },
  {
    route: 'export.start',
    document: 'staticExport',
    method: 'post',
    path: '/static-export/jobs',
    call: (client) => client.startExport({ domain: 'docs.example.com' }),
    read: (outcome, body) => {
      exportJob(outcome, body);
      // The answer names no domain: the one asked for is kept.
      assert.equal((outcome as ExportJob).domain, 'docs.example.com');
    },
  },
  {
    route: 'export.status',
    document: 'staticExport',
    method: 'get',
    path: '/static-export/jobs/{jobId}',
    call: (client, id) => client.getExportJob(id),
    read: exportJob,
  },
  {
    route: 'export.bundle',
    document: 'staticExport',
    method: 'post',
    path: '/static-export/jobs/{jobId}/bundle',
    call: (client, id) => client.generateBundle(id),
    read: (outcome, body) => {
      const bundle = value(outcome) as Bundle;
      const b = body as Fields;
      assert.equal(bundle.bundleUrl, b.bundleUrl, 'bundleUrl');
      assert.equal(bundle.jobId, b.jobId, 'jobId');
      assert.equal(bundle.sizeBytes, b.sizeBytes, 'sizeBytes');
      assert.equal(bundle.expiresAt, b.expiresAt, 'expiresAt');
    },
  },
  {
    route: 'deploy.trigger',
    document: 'platform',
    method: 'post',
    path: '/project/update/{projectId}',
    call: (client) => client.triggerDeployment(),
    read: (outcome, body) => {
      const b = body as Fields;
      if (given(b.statusId) === undefined) {
        // Queued, but nothing to follow it by: the client says so (never "the wrong shape").
        assert.ok(outcome instanceof InvalidResponseError, `read as ${String(outcome)}`);
        assert.match(outcome.message, /^The platform queued the deployment \(202\), but the answer does not say its status id, so it cannot be followed from here\./);
        return;
      }
      assert.deepEqual(value(outcome), { statusId: b.statusId });
    },
  },
  {
    route: 'preview.trigger',
    document: 'platform',
    method: 'post',
    path: '/project/preview/{projectId}',
    call: (client) => client.triggerPreview('docs-agent/fix-links'),
    read: (outcome, body) => {
      const b = body as Fields;
      if (given(b.statusId) === undefined) {
        assert.ok(outcome instanceof InvalidResponseError, `read as ${String(outcome)}`);
        assert.match(outcome.message, /^The platform queued the preview (at \S+ )?\(202\), but the answer does not say its status id/);
        return;
      }
      const started = value(outcome) as PreviewTriggered;
      assert.equal(started.statusId, b.statusId, 'statusId');
      // Kept only as a link the editor would open (issue 35): the generator's "string" is none.
      const url = given(b.previewUrl);
      assert.equal(started.previewUrl, url !== undefined && checkOpenableLink(url, { loopbackHttp: true }).ok ? url.trim() : undefined, 'previewUrl');
    },
  },
  {
    route: 'deploy.status',
    document: 'platform',
    method: 'get',
    path: '/project/update-status/{statusId}',
    call: (client, id) => client.getDeploymentStatus(id),
    read: (outcome, body, id) => {
      const d = value(outcome) as Deployment;
      const b = body as Fields;
      assert.equal(d.id, id, 'id: the one asked about');
      assert.equal(d.rawStatus, b.status ?? '', 'rawStatus');
      assert.equal(d.status, typeof b.status === 'string' && ['queued', 'in_progress', 'success', 'failure'].includes(b.status) ? b.status : 'unknown', 'status');
      assert.deepEqual(d.logs, b.logs ?? [], 'logs');
      for (const field of ['projectId', 'createdAt', 'endedAt', 'summary', 'subdomain', 'screenshot', 'screenshotLight', 'screenshotDark', 'source'] as const) assert.equal(d[field], b[field] ?? undefined, field);
      const author = b.author as Fields | null | undefined;
      assert.equal(d.author?.name, author?.name ?? undefined, 'author.name');
      assert.equal(d.author?.githubUserId, author?.githubUserId ?? undefined, 'author.githubUserId');
      const commit = b.commit as Fields | undefined;
      assert.equal(d.commit?.sha, commit?.sha ?? undefined, 'commit.sha');
      assert.equal(d.commit?.message, commit?.message ?? undefined, 'commit.message');
      const files = commit?.filesChanged as Fields | undefined;
      if (files !== undefined) assert.deepEqual(d.commit?.filesChanged, { added: files.added ?? [], modified: files.modified ?? [], removed: files.removed ?? [] }, 'filesChanged');
    },
  },
  {
    route: 'automation.trigger',
    document: 'platform',
    method: 'post',
    path: '/workflow/{projectId}/{workflowSchemaId}/trigger',
    call: (client, id) => client.triggerAutomation(id),
    read: (outcome, body) => {
      const run = value(outcome) as AutomationTriggered;
      const b = body as Fields;
      assert.equal(run.schemaId, b.schemaId ?? undefined, 'schemaId');
      assert.equal(run.instanceId, b.instanceId ?? undefined, 'instanceId');
      assert.equal(run.jobId, b.jobId ?? undefined, 'jobId');
    },
  },
  ...ANALYTICS_ROUTES,
];
