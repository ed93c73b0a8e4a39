import * as vscode from 'vscode';
import { jobKey } from '../../core/jobs/trackedJob';
import { parseExportDomain, parseJobId } from '../../core/jobs/jobInput';
import { command, isJobNode, requireService, valueFromCode, type Deps } from '../commandKit/commandToolkit';
import { trackByIdCommand } from '../commandKit/trackById';

export function register(deps: Deps): vscode.Disposable[] {
  return [
    trackByIdCommand(deps, {
      id: 'docsAdmin.agentJob.track',
      title: vscode.l10n.t('Docs Admin: track an agent job'),
      prompt: vscode.l10n.t('The job id, or a URL that contains it'),
      parse: parseJobId,
      track: async (service, id) => {
        const job = await service.trackAgentJob(id);
        deps.reveal({ key: jobKey(job), kind: 'agent' });
      },
    }),
    command('docsAdmin.export.start', deps, async (given?: unknown) => {
      // A domain from code is exported; one from a link is shown in the box for the person to confirm.
      const { value: fromCodeValue, suggested } = valueFromCode(given);
      const service = requireService(deps);
      const value =
        fromCodeValue ??
        (await deps.ui.inputBox({
          title: vscode.l10n.t('Docs Admin: start a static export'),
          prompt: vscode.l10n.t('The domain of the docs site (a bare host name)'),
          placeHolder: 'docs.example.com',
          ...(suggested === undefined ? {} : { value: suggested }),
          ignoreFocusOut: true,
          validateInput: (v) => {
            const r = parseExportDomain(v);
            return r.ok ? (r.note === undefined ? undefined : { message: r.note, severity: vscode.InputBoxValidationSeverity.Info }) : r.reason;
          },
        }));
      if (value === undefined) return undefined;
      const parsed = parseExportDomain(value);
      if (!parsed.ok) throw new Error(parsed.reason);
      if (parsed.note !== undefined) void deps.messages.info(parsed.note);
      const job = await service.startExport(parsed.domain);
      deps.reveal({ key: jobKey({ kind: 'export', id: job.jobId }), kind: 'export' });
      return job.jobId;
    }),
    command('docsAdmin.refresh', deps, async () => {
      if (deps.session.state === 'unreachable' || deps.session.state === 'unauthorized') await deps.session.rebuild();
      deps.session.service?.refresh();
      return true;
    }),
    command('docsAdmin.job.refresh', deps, (node: unknown) => {
      if (!isJobNode(deps, node)) throw new Error(vscode.l10n.t('Pick a job in the Docs Admin view.'));
      requireService(deps).refresh(node.key);
      return true;
    }),
    command('docsAdmin.job.copyId', deps, async (node: unknown) => {
      if (!isJobNode(deps, node)) throw new Error(vscode.l10n.t('Pick a job in the Docs Admin view.'));
      const job = requireService(deps).get(node.key);
      if (job === undefined) throw new Error(vscode.l10n.t('That job is no longer tracked.'));
      await vscode.env.clipboard.writeText(job.id);
      deps.messages.status(vscode.l10n.t('Copied job id {0}', job.id), 3000);
      return job.id;
    }),
    command('docsAdmin.job.stopTracking', deps, async (node: unknown) => {
      if (!isJobNode(deps, node)) throw new Error(vscode.l10n.t('Pick a job in the Docs Admin view.'));
      const job = requireService(deps).get(node.key);
      await requireService(deps).untrack(node.key);
      if (job?.kind === 'export') {
        // The files stay where they are; only what this window remembers of them goes.
        deps.session.links?.forget(job.id);
        await deps.session.shelf?.forget(job.id);
      }
      return true;
    }),
  ];
}
