import * as vscode from 'vscode';
import { command, isJobNode, requireService, type Deps } from '../commandKit/commandToolkit';

/** Retry Export, on a failed export's row (and from its notification): the same domain again. */
export function register(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.export.retry', deps, async (node: unknown) => {
      if (!isJobNode(deps, node)) throw new Error(vscode.l10n.t('Pick an export job in the Docs Admin view.'));
      const service = requireService(deps);
      const job = service.get(node.key);
      if (job?.kind !== 'export') throw new Error(vscode.l10n.t('Pick an export job.'));
      const domain = job.domain ?? job.snapshot?.domain;
      if (domain === undefined) throw new Error(vscode.l10n.t('The domain of this export is not known; start a new export instead.'));
      const started = await service.startExport(domain);
      return started.jobId;
    }),
  ];
}
