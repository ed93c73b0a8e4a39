import * as vscode from 'vscode';
import { checkBundleUrlScheme } from '../../core/helm/publishErrors';
import { redactUrl } from '../../core/redact';
import { readConfig } from '../session/extensionConfig';
import { applyStaticExport, chooseValuesFile, exportForValues, rememberJob } from '../values/valuesDocument';
import { REGENERATE_COMMAND } from '../values/diagnostics';
import { isFromCode } from '../commandKit/fromCode';
import { command, type Deps, fromOutside, optionsFromCode, rowOrNone } from '../commandKit/commandToolkit';
import { exportJobOf, freshLink } from '../links/bundleLinks';
import { pickCompletedExport } from '../commandKit/pickExport';

export interface UpdateValuesArgs {
  uri?: vscode.Uri;
  /** Pin staticExport.version; `null` leaves it as it is without asking. */
  version?: string | null;
}

/**
 * Update Helm Values…: a completed export's link (regenerated when too little time is left) into
 * the remembered values file; and the quick fix behind "Regenerate bundle and update".
 */
export function register(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.values.update', deps, async (node?: unknown, given?: UpdateValuesArgs): Promise<string | undefined> => {
      const args = optionsFromCode(deps, given, 'docsAdmin.values.update');
      const key = rowOrNone(deps, node, 'docsAdmin.values.update')?.key ?? (await pickCompletedExport(deps, vscode.l10n.t('Docs Admin: which export should the deployment serve?')));
      if (key === undefined) return undefined;
      const job = exportJobOf(deps, key);
      if (!job.completed) throw new Error(vscode.l10n.t('This export has not completed yet; its bundle can go into the values once it has.'));
      const uri = args.uri ?? (await chooseValuesFile(deps, true));
      if (uri === undefined) return undefined;
      let version = args.version ?? undefined;
      if (args.version === undefined) {
        const typed = await deps.ui.inputBox({
          title: vscode.l10n.t('Docs Admin: pin {0} (optional)', 'staticExport.version'),
          prompt: vscode.l10n.t('Leave empty to keep the file\'s version as it is'),
          ignoreFocusOut: true,
        });
        if (typed === undefined) return undefined;
        version = typed.trim() === '' ? undefined : typed.trim();
      }
      const link = await freshLink(deps, key);
      checkBundleUrlScheme(link.bundle.bundleUrl, { allowed: readConfig().allowHttpBundleUrl, hint: 'docsAdmin.publish.allowHttpBundleUrl' });
      const changed = await applyStaticExport(uri, { bundleUrl: link.bundle.bundleUrl, ...(version === undefined ? {} : { version }) });
      await rememberJob(deps, uri, job.id);
      deps.log.info(`${vscode.workspace.asRelativePath(uri)}: staticExport.bundleUrl set to ${redactUrl(link.bundle.bundleUrl)} (export ${job.id}).`);
      const where = vscode.workspace.asRelativePath(uri);
      void deps.messages.info(
        changed ? vscode.l10n.t('{0} now points at the bundle of {1}. Undo in the editor if that was not meant.', where, job.domain ?? job.id) : vscode.l10n.t('{0} already pointed at this bundle.', where),
      );
      return link.bundle.bundleUrl;
    }),
    command(REGENERATE_COMMAND, deps, async (token?: unknown): Promise<string | undefined> => {
      // Only from the quick fix or the CodeLens on a values file (their token), or code naming the
      // file: a link handing a Uri would have a fresh signed link written and saved into any YAML file.
      const named = isFromCode(token) ? (token as { uri?: unknown }).uri : undefined;
      const target = deps.values.fileOfToken(token) ?? (named instanceof vscode.Uri ? named : undefined);
      if (target === undefined) throw fromOutside(REGENERATE_COMMAND);
      const key = await exportForValues(deps, target);
      if (key === undefined) return undefined;
      const job = exportJobOf(deps, key);
      const link = await job.links.issue(job.id);
      checkBundleUrlScheme(link.bundle.bundleUrl, { allowed: readConfig().allowHttpBundleUrl, hint: 'docsAdmin.publish.allowHttpBundleUrl' });
      await applyStaticExport(target, { bundleUrl: link.bundle.bundleUrl });
      await rememberJob(deps, target, job.id);
      deps.log.info(`${vscode.workspace.asRelativePath(target)}: regenerated the bundle of export ${job.id}; bundleUrl is now ${redactUrl(link.bundle.bundleUrl)}.`);
      void deps.messages.info(
        vscode.l10n.t('New bundle link written to {0}. Roll the deployment out (Docs Admin: Publish Static Export… does all of it).', vscode.workspace.asRelativePath(target)),
      );
      return link.bundle.bundleUrl;
    }),
  ];
}
