import * as vscode from 'vscode';
import { minimalEdit } from '../../core/helm/edit';
import { ValuesChangedError } from '../../core/helm/publishErrors';
import type { StaticExportChange } from '../../core/helm/values';
import type { ValuesStore } from '../../core/helm/publishPipeline';
import { jobKey, type JobKey } from '../../core/jobs/trackedJob';
import { requireService, type Deps } from '../commandKit/commandToolkit';

const REMEMBERED_FILE = 'docsAdmin.valuesFile';
const REMEMBERED_JOBS = 'docsAdmin.valuesFileJobs';

/** The values file this workspace used last, if it is still there. */
async function rememberedFile(deps: Deps): Promise<vscode.Uri | undefined> {
  const text = deps.context.workspaceState.get<string>(REMEMBERED_FILE);
  if (text === undefined) return undefined;
  const uri = vscode.Uri.parse(text);
  return vscode.workspace.fs.stat(uri).then(
    () => uri,
    () => undefined,
  );
}

/** A values file: the one this workspace used last (when `ask` is false), else a pick. */
export async function chooseValuesFile(deps: Deps, ask: boolean): Promise<vscode.Uri | undefined> {
  const last = await rememberedFile(deps);
  if (last !== undefined && !ask) return last;
  const found = await vscode.workspace.findFiles('**/*.{yaml,yml}', '{**/node_modules/**,**/.git/**}', 500);
  const items: (vscode.QuickPickItem & { uri?: vscode.Uri })[] = found
    .sort((a, b) => (a.toString() === last?.toString() ? -1 : b.toString() === last?.toString() ? 1 : a.fsPath.localeCompare(b.fsPath)))
    .map((uri) => ({ label: vscode.workspace.asRelativePath(uri), ...(uri.toString() === last?.toString() ? { description: vscode.l10n.t('used last') } : {}), uri }));
  items.push({ label: `$(folder-opened) ${vscode.l10n.t('Browse…')}`, alwaysShow: true });
  const picked = await deps.ui.quickPick(items, {
    title: vscode.l10n.t('Docs Admin: the Helm values file of the deployment'),
    placeHolder: vscode.l10n.t('Pick the values file to update'),
    ignoreFocusOut: true,
  });
  if (picked === undefined) return undefined;
  let uri = picked.uri;
  if (uri === undefined) {
    const chosen = await deps.ui.openDialog({ canSelectMany: false, filters: { [vscode.l10n.t('Helm values')]: ['yaml', 'yml'] }, openLabel: vscode.l10n.t('Use This Values File') });
    uri = chosen?.[0];
  }
  if (uri !== undefined) await deps.context.workspaceState.update(REMEMBERED_FILE, uri.toString());
  return uri;
}

/** Remembers which export a values file was last updated from (for the quick fix). */
export async function rememberJob(deps: Deps, uri: vscode.Uri, jobId: string): Promise<void> {
  await deps.context.workspaceState.update(REMEMBERED_FILE, uri.toString());
  const jobs = { ...deps.context.workspaceState.get<Record<string, string>>(REMEMBERED_JOBS, {}), [uri.toString()]: jobId };
  await deps.context.workspaceState.update(REMEMBERED_JOBS, jobs);
}

/**
 * The export a values file should take its link from: the one it was last updated from when
 * still tracked and completed, the only completed export, or the person's pick.
 */
export async function exportForValues(deps: Deps, uri: vscode.Uri): Promise<JobKey | undefined> {
  const service = requireService(deps);
  const completed = service.list().filter((j) => j.kind === 'export' && j.snapshot?.status === 'completed');
  const remembered = deps.context.workspaceState.get<Record<string, string>>(REMEMBERED_JOBS, {})[uri.toString()];
  const known = completed.find((j) => j.id === remembered);
  if (known !== undefined) return jobKey(known);
  if (completed.length === 1 && completed[0] !== undefined) return jobKey(completed[0]);
  if (completed.length === 0) {
    throw new Error(vscode.l10n.t('No completed static export is tracked to take a bundle from. Start one with "Docs Admin: Start Static Export…", or publish with "Docs Admin: Publish Static Export…".'));
  }
  const picked = await deps.ui.quickPick(
    completed.map((j) => ({ label: (j.kind === 'export' ? (j.domain ?? j.snapshot?.domain) : undefined) ?? j.id, description: j.id, key: jobKey(j) })),
    { title: vscode.l10n.t('Docs Admin: which export should the deployment serve?'), ignoreFocusOut: true },
  );
  return picked?.key;
}

/**
 * Sets the staticExport values in the file through a WorkspaceEdit (it shows in the editor and
 * can be undone), then saves it, so `helm` reads the new link. Returns whether it changed.
 */
export async function applyStaticExport(uri: vscode.Uri, change: StaticExportChange): Promise<boolean> {
  const { setStaticExport } = await import('../../core/helm/values.js');
  const store = editorValuesStore(uri);
  const before = await store.read();
  const after = setStaticExport(before, change, store.name);
  if (after === before) return false;
  await store.write(after, before);
  return true;
}

/**
 * The values file as the publish pipeline sees it: read from the editor, written through edits,
 * only over the text it was read as (VS Code also refuses an edit to a document that changed
 * since). With `refuseUnsaved`, a document with unsaved changes is not read at all: the rollout
 * reads the file on disk, and saving someone's half-done edit to roll it out is not ours to do.
 */
export function editorValuesStore(uri: vscode.Uri, options: { refuseUnsaved?: boolean } = {}): ValuesStore {
  const name = vscode.workspace.asRelativePath(uri);
  const changed = () => new ValuesChangedError(vscode.l10n.t('{0} changed in the editor while it was being updated, so it was not written over; the change is kept.', name));
  return {
    name,
    async read() {
      const document = await vscode.workspace.openTextDocument(uri);
      if (options.refuseUnsaved === true && document.isDirty) {
        throw new ValuesChangedError(vscode.l10n.t('{0} has unsaved changes in the editor, so it was not touched. Save or revert them, then publish again (the rollout reads the file on disk).', name));
      }
      return document.getText();
    },
    async write(text: string, expected: string) {
      const document = await vscode.workspace.openTextDocument(uri);
      if (document.getText() !== expected) throw changed();
      const edit = minimalEdit(expected, text);
      const workspaceEdit = new vscode.WorkspaceEdit();
      workspaceEdit.replace(uri, new vscode.Range(document.positionAt(edit.start), document.positionAt(edit.end)), edit.text);
      if (!(await vscode.workspace.applyEdit(workspaceEdit))) {
        if (document.getText() !== expected) throw changed();
        throw new Error(vscode.l10n.t('{0} could not be edited (is it read-only?).', name));
      }
      if (!(await document.save())) throw new Error(vscode.l10n.t('{0} was updated in the editor but could not be saved.', name));
    },
  };
}
