/** Opening a link from the server in the browser: only https: (or loopback http:, when the admin API is loopback too), and says why not. */
import * as vscode from 'vscode';
import { checkOpenableLink, loopbackHttpFor, type LinkPolicy } from '../core/links';
import type { Logger } from '../core/log';
import { redactUrl } from '../core/redact';
import type { Messages } from './messages';

export type LinkKind = 'pullRequest' | 'repository' | 'bundle' | 'preview' | 'site';

/** What the log calls each link (the log stays English). */
const LOGGED_AS: Record<LinkKind, string> = { pullRequest: 'pull request link', repository: 'repository link', bundle: 'bundle link', preview: 'preview URL', site: 'site address' };

/** Why a link was not opened, in a whole sentence per kind of link. */
function notOpened(kind: LinkKind, reason: string): string {
  switch (kind) {
    case 'pullRequest':
      return vscode.l10n.t('The pull request link was not opened: {0}.', reason);
    case 'repository':
      return vscode.l10n.t('The repository link was not opened: {0}.', reason);
    case 'bundle':
      return vscode.l10n.t('The bundle link was not opened: {0}.', reason);
    case 'preview':
      return vscode.l10n.t('The preview URL was not opened: {0}.', reason);
    case 'site':
      return vscode.l10n.t("The docs site's address was not opened: {0}.", reason);
  }
}

/** What links may be opened in the active environment: loopback http: only when its admin API is on this machine too. */
export function linkPolicy(session: { environment: { baseUrl: string } }): LinkPolicy {
  return loopbackHttpFor(session.environment.baseUrl);
}

/** Opens a link only when it is https: (or loopback http:, from a loopback API); says why otherwise. */
export async function openSafely({ log, messages, session }: { log: Logger; messages: Messages; session: { environment: { baseUrl: string } } }, link: string | null | undefined, kind: LinkKind): Promise<boolean> {
  const verdict = checkOpenableLink(link, linkPolicy(session));
  if (!verdict.ok) {
    log.warn(`Refused to open the ${LOGGED_AS[kind]} (${redactUrl(String(link))}): ${verdict.reason}`);
    void messages.warn(notOpened(kind, verdict.reason));
    return false;
  }
  // eslint-disable-next-line no-restricted-properties -- the one place a link is opened, once checkOpenableLink took it
  return vscode.env.openExternal(vscode.Uri.parse(verdict.url.href, true));
}
