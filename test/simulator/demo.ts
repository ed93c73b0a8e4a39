import type { Simulator } from './server';

const MINUTE = 60_000;

/**
 * Demo data for the playground: agent jobs in every status (one finishing soon, with a pull
 * request), one export running and one completed, one deployment of each status (queued,
 * in progress, success, failure), and the readers' analytics of its pages.
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
  'deployment:65f1c0de0000000000000001',
  'deployment:65f1c0de0000000000000002',
  'deployment:65f1c0de0000000000000003',
  'deployment:65f1c0de0000000000000004',
];

/** What each demo deployment deploys, as the playground hands it to the extension (`#production`, `#preview=<branch>=<url>`, encoded). */
const DEMO_TARGETS: Record<string, { branch?: string }> = {
  '65f1c0de0000000000000001': { branch: 'docs-agent/quickstart-tips' },
  '65f1c0de0000000000000002': {},
  '65f1c0de0000000000000003': {},
  '65f1c0de0000000000000004': { branch: 'agent/fr' },
};

/** The demo jobs to track, each deployment with what it deploys (its preview URL from this simulator). */
export function demoTracked(sim: Simulator): string[] {
  return DEMO_JOBS.map((entry) => {
    const id = entry.startsWith('deployment:') ? entry.slice('deployment:'.length) : undefined;
    const target = id === undefined ? undefined : DEMO_TARGETS[id];
    if (target === undefined) return entry;
    return target.branch === undefined ? `${entry}#production` : `${entry}#preview=${encodeURIComponent(target.branch)}=${encodeURIComponent(sim.previewUrl(target.branch))}`;
  });
}

/**
 * `hold`: the jobs under way stay as they start (active, queued, deploying) until released, as
 * the UI check needs them however long a loaded machine takes to look (the playground's move on).
 */
export function seedDemo(sim: Simulator, options: { hold?: boolean } = {}): void {
  const now = sim.now();
  const held = options.hold === true;
  // At the playground's time scale (10) these finish one to three minutes after start.
  sim.addAgentJob({ id: 'agent-rewrite-quickstart', repository: 'https://github.com/acme/docs', ref: 'agent/quickstart', durationMs: 12 * MINUTE, outcome: 'pr', held });
  sim.addAgentJob({ id: 'agent-fix-broken-links', repository: 'https://github.com/acme/docs', ref: 'main', durationMs: 20 * MINUTE, outcome: 'no-changes', held });
  sim.addAgentJob({ id: 'agent-api-reference', repository: 'https://github.com/acme/api-docs', ref: 'agent/api-ref', createdAt: now - 2 * 60 * MINUTE, durationMs: 10 * MINUTE, outcome: 'pr' });
  sim.addAgentJob({ id: 'agent-translate-fr', repository: 'https://github.com/acme/docs', ref: 'agent/fr', createdAt: now - 30 * MINUTE, durationMs: 5 * MINUTE, outcome: 'failed' });
  sim.addAgentJob({ id: 'agent-old-cleanup', repository: 'https://github.com/acme/docs', ref: null, createdAt: now - 3 * 24 * 60 * MINUTE, durationMs: MINUTE, status: 'archived' });
  sim.addExportJob({ jobId: 'exp-demo-running', domain: 'docs.acme.dev', queuedMs: 20_000, durationMs: 25 * MINUTE, pages: 240, held });
  sim.addExportJob({ jobId: 'exp-demo-done', domain: 'staging.docs.acme.dev', createdAt: now - 60 * MINUTE, queuedMs: 5_000, durationMs: 5 * MINUTE, pages: 236 });
  // One deployment of each status (at the playground's time scale the first two end in a few minutes).
  sim.addDeployment({ id: '65f1c0de0000000000000001', kind: 'preview', branch: 'docs-agent/quickstart-tips', queuedMs: 20 * MINUTE, durationMs: 10 * MINUTE, source: 'api', held });
  sim.addDeployment({ id: '65f1c0de0000000000000002', kind: 'production', createdAt: now - 2 * MINUTE, queuedMs: 10_000, durationMs: 30 * MINUTE, source: 'dashboard', commit: { message: 'Document the new search settings' }, held });
  sim.addDeployment({ id: '65f1c0de0000000000000003', kind: 'production', createdAt: now - 2 * 60 * MINUTE, queuedMs: 20_000, durationMs: 3 * MINUTE, source: 'github', commit: { message: 'Merge pull request #127 from acme/agent/quickstart', filesChanged: { added: ['guides/first-page.mdx'], modified: ['quickstart.mdx', 'docs.json'], removed: ['guides/legacy-setup.mdx'] } } });
  sim.addDeployment({ id: '65f1c0de0000000000000004', kind: 'preview', branch: 'agent/fr', createdAt: now - 30 * MINUTE, queuedMs: 5_000, durationMs: 2 * MINUTE, outcome: 'failure', source: 'api', author: null, commit: { message: 'Traduire le guide de démarrage' } });
  // What readers said of the playground's pages (see playgroundSite.ts).
  sim.seedPlaygroundAnalytics();
}
