import * as vscode from 'vscode';
import type { PublishResult } from '../../core/helm/publishPipeline';
import { parseExportDomain } from '../../core/jobs/jobInput';
import { jobKey } from '../../core/jobs/trackedJob';
import { readConfig } from '../session/extensionConfig';
import { withCancellableProgress } from '../ui/cancellableProgress';
import { rolloutBlocker, runRolloutTask } from '../helm/rolloutTask';
import { chooseValuesFile, editorValuesStore, rememberJob } from '../values/valuesDocument';
import { command, type Deps, optionsFromCode, requireService, rowOrNone } from '../commandKit/commandToolkit';

const LAST_DOMAIN = 'docsAdmin.lastPublishDomain';

export interface PublishArgs {
  domain?: string;
  uri?: vscode.Uri;
  version?: string;
  /** false skips the rollout (the values file is still updated). */
  rollout?: boolean;
}

/**
 * Publish Static Export…: start the export, follow it (tree, status bar, and a notification
 * with Cancel), generate the bundle, update the values file, run the rollout in a terminal.
 * A failure at any step leaves the values file as it was.
 */
export function register(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.publish', deps, async (node?: unknown, given?: PublishArgs): Promise<PublishResult | undefined> => {
      const args = optionsFromCode(deps, given, 'docsAdmin.publish');
      const config = readConfig();
      if (config.deploymentType === 'airGapped') {
        throw new Error(
          vscode.l10n.t(
            'This is an air-gapped deployment ({0}): the admin API cannot be reached from it. Export where the API is reachable, carry the bundle in, and use "Docs Admin: Import Bundle File…".',
            'docsAdmin.deploymentType',
          ),
        );
      }
      const service = requireService(deps);
      const client = deps.session.client;
      if (client === undefined) throw new Error(vscode.l10n.t('The environment is not set up.'));
      const row = rowOrNone(deps, node, 'docsAdmin.publish');
      const fromRow = row === undefined ? undefined : service.get(row.key);
      const known = fromRow?.kind === 'export' ? (fromRow.domain ?? fromRow.snapshot?.domain) : undefined;
      // Publishing rolls a deployment out: unless code named the domain, the person confirms it
      // (a row's domain is the box's first value, one Enter away).
      const typed =
        args.domain ??
        (await deps.ui.inputBox({
          title: vscode.l10n.t('Docs Admin: publish a static export'),
          prompt: vscode.l10n.t('The domain of the docs site to export and roll out'),
          value: known ?? deps.context.workspaceState.get<string>(LAST_DOMAIN) ?? '',
          placeHolder: 'docs.example.com',
          ignoreFocusOut: true,
          validateInput: (v) => {
            const r = parseExportDomain(v);
            return r.ok ? undefined : r.reason;
          },
        }));
      if (typed === undefined) return undefined;
      const domain = parseExportDomain(typed);
      if (!domain.ok) throw new Error(domain.reason);
      const uri = args.uri ?? (await chooseValuesFile(deps, false));
      if (uri === undefined) return undefined;
      const blocked = args.rollout === false ? undefined : rolloutBlocker(uri);
      if (blocked !== undefined) throw new Error(blocked);
      await deps.context.workspaceState.update(LAST_DOMAIN, domain.domain);
      const { publish, STEP_TITLES } = await import('../../core/helm/publishPipeline.js');
      let observed: string | undefined;
      const result = await withCancellableProgress(deps.ui, vscode.l10n.t('Publishing {0}', domain.domain), (progress, signal) => {
        let shown = 0;
        return publish({
          client,
          domain: domain.domain,
          ...(args.version === undefined ? {} : { version: args.version }),
          values: editorValuesStore(uri, { refuseUnsaved: true }),
          ...(args.rollout === false ? {} : { rollout: (s?: AbortSignal) => runRolloutTask(uri, deps, s) }),
          signal,
          log: deps.log,
          allowHttpBundleUrl: { allowed: config.allowHttpBundleUrl, hint: 'docsAdmin.publish.allowHttpBundleUrl' },
          onStep: (step) => progress.report({ message: STEP_TITLES[step] }),
          onProgress: (job) => {
            // The export shows in the tree and the status bar like any other, from the
            // pipeline's own readings (the scheduler does not poll it a second time).
            const key = jobKey({ kind: 'export', id: job.jobId });
            const first = service.get(key) === undefined;
            observed = job.jobId;
            void service.observeExport(job, domain.domain).then(() => {
              if (first) deps.reveal({ key, kind: 'export' });
            });
            const percent = job.progress ?? 0;
            const message =
              job.pageCount === undefined
                ? vscode.l10n.t('{0}: {1}%', STEP_TITLES.wait, Math.round(percent))
                : vscode.l10n.t('{0}: {1}% · {2} pages', STEP_TITLES.wait, Math.round(percent), job.pageCount);
            progress.report({ message, increment: Math.max(0, percent - shown) * 0.8 });
            shown = Math.max(shown, percent);
          },
        });
      }).finally(() => {
        if (observed !== undefined) service.releaseExport(observed);
      });
      if (result === undefined) {
        void deps.messages.info(vscode.l10n.t('Publishing cancelled; the values file was left as it was.'));
        return undefined;
      }
      await rememberJob(deps, uri, result.jobId);
      await deps.setup.markPublished();
      void deps.messages.info(publishedMessage(domain.domain, vscode.workspace.asRelativePath(uri), result));
      return result;
    }),
  ];
}

/** "Published docs.acme.dev (300 pages): deploy/values.yaml updated, rollout done.", one whole sentence per case. */
function publishedMessage(domain: string, where: string, result: Pick<PublishResult, 'pageCount' | 'valuesChanged' | 'rolledOut'>): string {
  const pages = result.pageCount;
  if (pages === undefined) {
    if (result.valuesChanged) return result.rolledOut ? vscode.l10n.t('Published {0}: {1} updated, rollout done.', domain, where) : vscode.l10n.t('Published {0}: {1} updated.', domain, where);
    return result.rolledOut ? vscode.l10n.t('Published {0}: {1} unchanged, rollout done.', domain, where) : vscode.l10n.t('Published {0}: {1} unchanged.', domain, where);
  }
  if (result.valuesChanged) {
    return result.rolledOut ? vscode.l10n.t('Published {0} ({1} pages): {2} updated, rollout done.', domain, pages, where) : vscode.l10n.t('Published {0} ({1} pages): {2} updated.', domain, pages, where);
  }
  return result.rolledOut ? vscode.l10n.t('Published {0} ({1} pages): {2} unchanged, rollout done.', domain, pages, where) : vscode.l10n.t('Published {0} ({1} pages): {2} unchanged.', domain, pages, where);
}
