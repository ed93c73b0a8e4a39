import * as vscode from 'vscode';
import { jobKey, type JobKey } from '../../core/jobs/trackedJob';
import { requireService, type Deps } from './commandToolkit';

/** From the palette: a quick pick of the completed exports (newest first). */
export async function pickCompletedExport(deps: Deps, title: string): Promise<JobKey | undefined> {
  const jobs = requireService(deps)
    .list()
    .filter((j) => j.kind === 'export' && j.snapshot?.status === 'completed')
    .sort((a, b) => (b.snapshot?.createdAt ?? '').localeCompare(a.snapshot?.createdAt ?? '') || b.addedAt - a.addedAt);
  if (jobs.length === 0) throw new Error(vscode.l10n.t('No completed static export is tracked. Start one with "Docs Admin: Start Static Export…" and wait for it to complete.'));
  const picked = await deps.ui.quickPick(
    jobs.map((j) => ({
      label: (j.kind === 'export' ? (j.domain ?? j.snapshot?.domain) : undefined) ?? j.id,
      description: j.id,
      ...(j.snapshot?.createdAt === undefined ? {} : { detail: vscode.l10n.t('Started {0}', new Date(j.snapshot.createdAt).toLocaleString()) }),
      key: jobKey(j),
    })),
    { title, placeHolder: vscode.l10n.t('Pick a completed static export'), ignoreFocusOut: true },
  );
  return picked?.key;
}
