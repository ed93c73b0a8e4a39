/**
 * The playground (`npm start`) hands the simulator's demo key and demo job ids to a development
 * host, so a newcomer sees rows moving at once. Never in an installed extension.
 */
import * as vscode from 'vscode';
import type { DeployTarget } from '../../core/deployments/deploymentTypes';
import { parseJobKey } from '../../core/jobs/trackedJob';
import { checkBaseUrl } from '../../core/links';
import type { KeyStore } from './keys';
import type { Session } from './environmentSession';

export async function seedPlayground(context: vscode.ExtensionContext, keys: KeyStore, session: Session): Promise<void> {
  const demo = process.env.DOCS_ADMIN_PLAYGROUND_KEY;
  if (context.extensionMode !== vscode.ExtensionMode.Development || demo === undefined || demo === '') return;
  // The simulator the playground started is the base URL it set: the demo key is for it.
  const base = checkBaseUrl(session.environment.baseUrl);
  if ((await keys.get(session.environment.id)) === undefined && base.ok) {
    await keys.set(session.environment.id, demo, new URL(base.baseUrl).origin);
    await session.rebuild();
  }
  for (const entry of (process.env.DOCS_ADMIN_PLAYGROUND_TRACK ?? '').split(',')) {
    // A deployment says what it deploys after a "#": `production`, or `preview=<branch>=<url>` (encoded).
    const [key = '', what] = entry.split('#');
    const job = parseJobKey(key);
    // Seeded, not tracked by the person: a demo job that ended long ago does not notify.
    if (job?.kind === 'agent') await session.service?.trackAgentJob(job.id, { follow: false });
    if (job?.kind === 'export') await session.service?.trackExportJob(job.id, undefined, { follow: false });
    if (job?.kind === 'deployment') await session.service?.trackDeployment(job.id, demoTarget(what), { follow: false });
  }
}

function demoTarget(what: string | undefined): DeployTarget | undefined {
  if (what === 'production') return { kind: 'production' };
  const [kind, branch, url] = (what ?? '').split('=');
  if (kind !== 'preview' || branch === undefined) return undefined;
  return { kind: 'preview', branch: decodeURIComponent(branch), ...(url === undefined ? {} : { previewUrl: decodeURIComponent(url) }) };
}
