import type { Simulator } from './server';

const MINUTE = 60_000;

/**
 * Demo data for the playground: agent jobs in every status (one finishing soon, with a pull
 * request), one export running and one completed.
 */
export function seedDemo(sim: Simulator): void {
  const now = sim.now();
  sim.addAgentJob({ id: 'agent-rewrite-quickstart', repository: 'https://github.com/acme/docs', ref: 'agent/quickstart', durationMs: 3 * MINUTE, outcome: 'pr' });
  sim.addAgentJob({ id: 'agent-fix-broken-links', repository: 'https://github.com/acme/docs', ref: 'main', durationMs: 6 * MINUTE, outcome: 'no-changes' });
  sim.addAgentJob({ id: 'agent-api-reference', repository: 'https://github.com/acme/api-docs', ref: 'agent/api-ref', createdAt: now - 2 * 60 * MINUTE, durationMs: 10 * MINUTE, outcome: 'pr' });
  sim.addAgentJob({ id: 'agent-translate-fr', repository: 'https://github.com/acme/docs', ref: 'agent/fr', createdAt: now - 30 * MINUTE, durationMs: 5 * MINUTE, outcome: 'failed' });
  sim.addAgentJob({ id: 'agent-old-cleanup', repository: 'https://github.com/acme/docs', ref: null, createdAt: now - 3 * 24 * 60 * MINUTE, durationMs: MINUTE, status: 'archived' });
  sim.addExportJob({ jobId: 'exp-demo-running', domain: 'docs.acme.dev', queuedMs: 5_000, durationMs: 4 * MINUTE, pages: 240 });
  sim.addExportJob({ jobId: 'exp-demo-done', domain: 'docs.acme.dev', createdAt: now - 60 * MINUTE, queuedMs: 5_000, durationMs: 5 * MINUTE, pages: 240 });
}
