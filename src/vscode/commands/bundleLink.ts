import * as vscode from 'vscode';
import { describeExpiry, freshLink } from '../links/bundleLinks';
import { command, isJobNode, type Deps } from '../commandKit/commandToolkit';
import { openSafely } from '../links/openLink';

/** Copy Bundle Link and Open Bundle Link, on a completed export's row: a link with enough time left. */
export function register(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.export.copyBundleLink', deps, async (node: unknown) => {
      if (!isJobNode(deps, node)) throw new Error(vscode.l10n.t('Pick a completed export in the Docs Admin view.'));
      const link = await freshLink(deps, node.key);
      await vscode.env.clipboard.writeText(link.bundle.bundleUrl);
      const left = deps.session.links?.timeLeft(link);
      void deps.messages.info(vscode.l10n.t('Bundle link copied ({0}). It works for anyone who has it until then: share it with care.', describeExpiry(left)));
      return true;
    }),
    command('docsAdmin.export.openBundleLink', deps, async (node: unknown) => {
      if (!isJobNode(deps, node)) throw new Error(vscode.l10n.t('Pick a completed export in the Docs Admin view.'));
      const link = await freshLink(deps, node.key);
      return openSafely(deps, link.bundle.bundleUrl, 'bundle');
    }),
  ];
}
