import type { Simulator } from './server';

const MINUTE = 60_000;

/**
 * Demo data for the playground: agent jobs in every status (one finishing soon, with a pull
 * request), one export running and one completed, and the readers' analytics of its pages.
 */
/** The demo jobs, as `kind:id`, for the playground to track. */
export const DEMO_JOBS = [
  'agent:agent-rewrite-quickstart',
  'agent:agent-fix-broken-links',
  'agent:agent-api-reference',
  'agent:agent-translate-fr',
  'agent:agent-old-cleanup',
  'export:exp-demo-running',
  'export:exp-demo-done',
];

export function seedDemo(sim: Simulator): void {
  const now = sim.now();
  // At the playground's time scale (10) these finish one to three minutes after start.
  sim.addAgentJob({ id: 'agent-rewrite-quickstart', repository: 'https://github.com/acme/docs', ref: 'agent/quickstart', durationMs: 12 * MINUTE, outcome: 'pr' });
  sim.addAgentJob({ id: 'agent-fix-broken-links', repository: 'https://github.com/acme/docs', ref: 'main', durationMs: 20 * MINUTE, outcome: 'no-changes' });
  sim.addAgentJob({ id: 'agent-api-reference', repository: 'https://github.com/acme/api-docs', ref: 'agent/api-ref', createdAt: now - 2 * 60 * MINUTE, durationMs: 10 * MINUTE, outcome: 'pr' });
  sim.addAgentJob({ id: 'agent-translate-fr', repository: 'https://github.com/acme/docs', ref: 'agent/fr', createdAt: now - 30 * MINUTE, durationMs: 5 * MINUTE, outcome: 'failed' });
  sim.addAgentJob({ id: 'agent-old-cleanup', repository: 'https://github.com/acme/docs', ref: null, createdAt: now - 3 * 24 * 60 * MINUTE, durationMs: MINUTE, status: 'archived' });
  sim.addExportJob({ jobId: 'exp-demo-running', domain: 'docs.acme.dev', queuedMs: 20_000, durationMs: 25 * MINUTE, pages: 240 });
  sim.addExportJob({ jobId: 'exp-demo-done', domain: 'staging.docs.acme.dev', createdAt: now - 60 * MINUTE, queuedMs: 5_000, durationMs: 5 * MINUTE, pages: 236 });
  // What readers said of the playground's pages (see playgroundSite.ts).
  sim.seedPlaygroundAnalytics();
}
