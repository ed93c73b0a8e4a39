/**
 * The session's network: the proxy and certificates from VS Code's `http.*` settings, the
 * environment and `docsAdmin.network.extraCaCertificates`. A CA file that cannot be used is named
 * in a warning (the others still count); a proxy that cannot be used stops the session, with the
 * reason as its problem. The same problems are not shown twice in a row (a rebuild).
 */
import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../../core/log';
import type { Network } from '../../core/net/network';
import type { Messages } from '../ui/messages';
import { CA_SETTING, networkHints, readNetworkSettings } from './extensionConfig';

export interface BuiltNetwork {
  /** Undefined when the proxy cannot be used. */
  network: Network | undefined;
  /** Why there is no network, for the session's message. */
  problem: string | undefined;
  /** The problems shown now, to pass back next time. */
  shown: string;
}

export async function networkFromSettings(deps: { log: Logger; messages: Messages }, shownBefore: string): Promise<BuiltNetwork> {
  const [{ Network, NetworkConfigError }, { loadCaFiles }] = await Promise.all([import('../../core/net/network.js'), import('../../core/net/caFiles.js')]);
  const settings = readNetworkSettings();
  const relative = settings.extraCaFiles.filter((p) => !isAbsolute(p));
  const ca = await loadCaFiles(settings.extraCaFiles.filter((p) => isAbsolute(p)), CA_SETTING);
  const problems = [...relative.map((p) => vscode.l10n.t('The CA certificate file "{0}" (in {1}) was not used: give its full path.', p, CA_SETTING)), ...ca.problems];
  let network: Network | undefined;
  let problem: string | undefined;
  try {
    network = new Network(
      {
        proxy: settings.proxy,
        noProxy: settings.noProxy,
        proxyAuthorization: settings.proxyAuthorization,
        strictSSL: settings.strictSSL,
        extraCa: ca.certificates,
        systemCa: settings.systemCertificates,
        hints: networkHints(),
      },
      { env: process.env, readFile: (path) => readFileSync(path, 'utf8') },
    );
    deps.log.info(`Network: ${network.describe()}.`);
  } catch (error) {
    if (!(error instanceof NetworkConfigError)) throw error;
    problem = error.message;
    problems.push(error.message);
  }
  for (const p of problems) deps.log.warn(p);
  const shown = problems.join('\n');
  if (shown !== shownBefore && problems.length > 0) {
    const openSettings = vscode.l10n.t('Open Settings');
    void deps.messages.warn(problems.join(' '), openSettings).then((choice) => {
      if (choice === openSettings) void vscode.commands.executeCommand('workbench.action.openSettings', network === undefined ? 'http.proxy' : CA_SETTING);
    });
  }
  return { network, problem, shown };
}
