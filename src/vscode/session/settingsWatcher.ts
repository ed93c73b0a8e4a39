/**
 * What a change of settings sets off: the session rebuilt when what it is built from changed
 * (environment, polling, the proxy and certificates), the values files checked again, the
 * views' messages updated for a new deployment type. Nothing else rebuilds the session (a
 * rebuild forgets the links in hand).
 */
import * as vscode from 'vscode';
import { NETWORK_SETTINGS, SECTION } from './extensionConfig';
import type { Session } from './environmentSession';
import type { JobViews } from '../views/views';
import type { ValuesDiagnostics } from '../values/diagnostics';

/** The settings the session (its environment, client and scheduler) is built from. */
const SESSION_SETTINGS = ['baseUrl', 'projectId', 'environments', 'polling'].map((k) => `${SECTION}.${k}`);

export function watchSettings(parts: { session: Session; views: JobViews; values: ValuesDiagnostics }): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration(`${SECTION}.deploymentType`)) parts.views.showState();
    if (event.affectsConfiguration(`${SECTION}.values`)) parts.values.refresh();
    // The proxy and certificates too: the clients are rebuilt with the new ones.
    if ([...SESSION_SETTINGS, ...NETWORK_SETTINGS].some((s) => event.affectsConfiguration(s))) void parts.session.rebuild();
  });
}
