import { stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import { checkOpenableLink } from '../../core/links';
import { copyIntoPlace } from '../../core/bundle/copyIntoPlace';
import { readConfig } from '../config';
import { withCancellableProgress } from '../progress';
import { rolloutBlocker, runRolloutTask } from '../rolloutTask';
import { applyStaticExport, chooseValuesFile } from '../values/valuesDocument';
import { command, type Deps, optionsFromCode } from '../commandToolkit';

export interface ImportArgs {
  file?: string;
  uri?: vscode.Uri;
  version?: string;
  /** false: update the values file only. */
  rollout?: boolean;
}

/**
 * Import Bundle File… (air-gapped deployments, where the API cannot be reached): a bundle carried
 * in as a file is checked, copied where the internal web server serves bundles, written into the
 * values file as its internal link, and rolled out.
 */
export function register(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.bundle.import', deps, async (given?: ImportArgs) => {
      const args = optionsFromCode(deps, given, 'docsAdmin.bundle.import');
      const { bundleDirectory, bundleBaseUrl } = readConfig().airGapped;
      if (bundleDirectory === '' || bundleBaseUrl === '') {
        throw new Error(
          vscode.l10n.t('Set {0} (where your internal web server serves bundles from) and {1} (its https: address) first.', 'docsAdmin.airGapped.bundleDirectory', 'docsAdmin.airGapped.bundleBaseUrl'),
        );
      }
      // The person's own web server (loopback http: allowed, as for the base URL).
      const base = checkOpenableLink(`${bundleBaseUrl}/`, { loopbackHttp: true });
      if (!base.ok) throw new Error(vscode.l10n.t('{0} cannot be used: {1}.', 'docsAdmin.airGapped.bundleBaseUrl', base.reason));
      let file = args.file;
      if (file === undefined) {
        const picked = await deps.ui.openDialog({
          title: vscode.l10n.t('Docs Admin: import a bundle file'),
          canSelectMany: false,
          filters: { [vscode.l10n.t('Docs bundle')]: ['gz', 'tgz', 'zip'] },
          openLabel: vscode.l10n.t('Import'),
        });
        file = picked?.[0]?.fsPath;
        if (file === undefined) return undefined;
      }
      const { verifyArchive } = await import('../../core/bundle/extract/verify.js');
      const chosen = file;
      // Read through to its end: a bundle carried in on a stick is imported only when it is whole.
      const checked = await withCancellableProgress(deps.ui, vscode.l10n.t('Checking the bundle {0}', basename(chosen)), async (progress, signal) => {
        let shown = 0;
        return verifyArchive(chosen, {
          signal,
          l10n: vscode.l10n.bundle,
          onProgress: (bytes, total) => {
            const percent = (bytes / Math.max(1, total)) * 100;
            progress.report({ increment: Math.max(0, percent - shown) });
            shown = percent;
          },
        });
      });
      if (checked === undefined) return undefined;
      const uri = args.uri ?? (await chooseValuesFile(deps, false));
      if (uri === undefined) return undefined;
      const blocked = args.rollout === false ? undefined : rolloutBlocker(uri);
      if (blocked !== undefined) throw new Error(blocked);
      const name = basename(file);
      const target = join(bundleDirectory, name);
      const exists = await stat(target).then(
        () => true,
        () => false,
      );
      if (exists && args.file === undefined) {
        const replace = vscode.l10n.t('Replace');
        const answer = await deps.messages.ask('warning', vscode.l10n.t('{0} already exists. Replace it with the imported bundle?', target), { modal: true }, replace);
        if (answer !== replace) return undefined;
      } else if (exists) {
        throw new Error(vscode.l10n.t('{0} already exists; rename the bundle file or remove the old one.', target));
      }
      // Copied beside the target under a random name, then renamed: the web server never serves half a bundle.
      await copyIntoPlace(file, target);
      const bundleUrl = `${bundleBaseUrl}/${encodeURIComponent(name)}`;
      await applyStaticExport(uri, { bundleUrl, ...(args.version === undefined ? {} : { version: args.version }) });
      deps.log.info(`Imported ${file} to ${target}; ${vscode.workspace.asRelativePath(uri)} now points at ${bundleUrl}.`);
      if (args.rollout !== false) {
        await withCancellableProgress(deps.ui, vscode.l10n.t('Rolling out the imported bundle'), (_progress, signal) => runRolloutTask(uri, deps, signal));
      }
      const where = vscode.workspace.asRelativePath(uri);
      void deps.messages.info(
        args.rollout === false ? vscode.l10n.t('Imported {0}: {1} points at {2}.', name, where, bundleUrl) : vscode.l10n.t('Imported {0}: {1} points at {2}; rollout done.', name, where, bundleUrl),
      );
      return { bundleUrl, path: target };
    }),
  ];
}
