/**
 * Copy Link on a job's row: the deep link that tracks it (links/deepLinks.ts), for a chat
 * message, a pull-request comment or a dashboard. It names the environment by its name, never
 * its server: whoever opens it confirms, and their own settings say where that environment is.
 * The link is `<uriScheme>://docs-admin.docs-admin/...`, which opens in the editor of whoever
 * receives it. Not `asExternalUri`'s form: desktop VS Code adds this window's id to it, and a
 * browser workbench gives a one-time callback (`vscode-reqid`) to this tab, neither of which
 * another person can use.
 */
import * as vscode from 'vscode';
import { deepLinkPath } from '../../core/jobs/deepLink';
import { command, requireService, rowOrNone, type Deps } from '../commandKit/commandToolkit';

export function register(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.job.copyLink', deps, async (given: unknown) => {
      // A row this extension handed out, or none; a link's JSON that reads like a row is refused.
      const node = rowOrNone(deps, given, 'docsAdmin.job.copyLink');
      if (node === undefined) throw new Error(vscode.l10n.t('Pick a job in the Docs Admin view.'));
      const job = requireService(deps).get(node.key);
      if (job === undefined) throw new Error(vscode.l10n.t('That job is no longer tracked.'));
      const env = deps.session.environment;
      const target = job.kind === 'agent' ? { kind: job.kind, id: job.id, review: false } : { kind: job.kind, id: job.id };
      const { path, query } = deepLinkPath({ target, env: env.id === 'default' ? 'default' : env.name });
      const link = vscode.Uri.from({ scheme: vscode.env.uriScheme, authority: deps.context.extension.id, path, query }).toString();
      await vscode.env.clipboard.writeText(link);
      deps.messages.status(vscode.l10n.t('Copied the link to {0}: whoever opens it is asked first, in their own environment "{1}".', job.id, env.name), 4000);
      return link;
    }),
  ];
}
