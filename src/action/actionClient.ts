/** The API client of an action run: the base URL, project id and key from the inputs; the proxy and CAs from the runner's environment. */
import * as l10n from '@vscode/l10n';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AdminApiClient } from '../core/api/client';
import { checkBaseUrl } from '../core/links';
import type { Logger } from '../core/log';
import { loadCaFiles } from '../core/net/caFiles';
import { Network, NetworkConfigError } from '../core/net/network';
import { checkCredentials } from '../cli/args';
import { UsageError } from '../cli/exit';
import type { Runner } from './runner';

export async function actionClient(runner: Runner, key: string, log: Logger, needsProject: boolean): Promise<AdminApiClient> {
  const base = runner.input('base-url');
  if (base === '') throw new UsageError(l10n.t('The base-url input is not set: the admin API base URL.'));
  const checked = checkBaseUrl(base);
  if (!checked.ok) throw new UsageError(checked.reason);
  const projectId = runner.input('project-id');
  if (needsProject && projectId === '') throw new UsageError(l10n.t('The project-id input is not set: the agent, deploy, preview and report operations need it.'));
  const cleanKey = checkCredentials(key, projectId);
  const caFile = runner.env.DOCS_ADMIN_CA_FILE?.trim();
  const ca = caFile === undefined || caFile === '' ? { certificates: [], problems: [] } : await loadCaFiles([resolve(caFile)], 'DOCS_ADMIN_CA_FILE');
  if (ca.problems.length > 0) throw new UsageError(ca.problems.join(' '));
  let network: Network;
  try {
    network = new Network({ extraCa: ca.certificates, hints: { proxy: 'HTTPS_PROXY / HTTP_PROXY', noProxy: 'NO_PROXY', ca: 'DOCS_ADMIN_CA_FILE' } }, { env: runner.env, readFile: (path) => readFileSync(path, 'utf8') });
  } catch (error) {
    throw error instanceof NetworkConfigError ? new UsageError(error.message) : error;
  }
  return new AdminApiClient({ baseUrl: checked.baseUrl, projectId, getKey: () => cleanKey, log, userAgent: 'docs-admin-action', network });
}
