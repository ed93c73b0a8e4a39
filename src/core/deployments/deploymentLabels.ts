/**
 * How a deployment reads: its row (label, description, icon, context value, every field for the
 * tooltip), its part of the status bar, and its notice when it ends. Pure, tested without an
 * editor. Branch names, commit messages, author names and summaries are server text: they are
 * returned as text, for the adapters to show as text (never as Markdown or links).
 */
import * as l10n from '@vscode/l10n';
import { formatDuration } from '../formatUnits';
import type { DeploymentSnapshot, DeploymentStatus, DeployTarget } from './deploymentTypes';
import type { Presentation } from '../jobs/jobLabels';

/** The parts of a tracked deployment these need (no dependency on the registry's types). */
export interface DeploymentJob {
  id: string;
  target?: DeployTarget;
  snapshot?: DeploymentSnapshot;
}

/** `Production`, `Preview of <branch>`, or (tracked by its id) what the commit says. */
export function deploymentLabel(job: DeploymentJob): string {
  const target = job.target;
  if (target?.kind === 'production') return l10n.t({ message: 'Production', comment: ['What a deployment deployed: the live docs site.'] });
  if (target?.kind === 'preview') return l10n.t({ message: 'Preview of {0}', args: [target.branch], comment: ['What a deployment deployed: a preview of a Git branch.'] });
  const ref = job.snapshot?.commit?.ref;
  return ref === undefined || ref === '' ? l10n.t('Deployment {0}', job.id) : l10n.t('Deployment of {0}', ref);
}

/** A status in a row's words: queued, deploying, deployed, failed. */
export function deploymentStatusWord(status: DeploymentStatus, raw: string): string {
  switch (status) {
    case 'queued':
      return l10n.t({ message: 'queued', comment: ['The status of a deployment, as its row shows it.'] });
    case 'in_progress':
      return l10n.t({ message: 'deploying', comment: ['The status of a deployment, as its row shows it.'] });
    case 'success':
      return l10n.t({ message: 'deployed', comment: ['The status of a deployment, as its row shows it.'] });
    case 'failure':
      return l10n.t({ message: 'failed', comment: ['The status of a deployment, as its row shows it.'] });
    case 'unknown':
      return raw === '' ? l10n.t({ message: 'status not given', comment: ['A deployment whose answer gave no status, as its row shows it.'] }) : l10n.t({ message: 'unknown status "{0}"', args: [raw], comment: ['The status of a deployment, as its row shows it.'] });
  }
}

const ICONS: Record<DeploymentStatus, { icon: string; color: string | undefined; token: string }> = {
  queued: { icon: 'clock', color: 'charts.yellow', token: 'queued' },
  in_progress: { icon: 'sync~spin', color: 'charts.blue', token: 'running' },
  success: { icon: 'rocket', color: 'testing.iconPassed', token: 'success' },
  failure: { icon: 'error', color: 'testing.iconFailed', token: 'failure' },
  unknown: { icon: 'question', color: undefined, token: 'unknown' },
};

/** A commit's first line, cut to `max` characters. */
export function firstLine(text: string | undefined, max = 60): string {
  const line = (text ?? '').split(/\r?\n/)[0]?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** How long a deployment took, to the second under an hour: `45s`, `1m 30s`; longer, as every duration. */
export function runTime(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60 || s >= 3600 || s % 60 === 0) return formatDuration(ms);
  return l10n.t({ message: '{0}m {1}s', args: [Math.floor(s / 60), s % 60], comment: ['A duration in minutes and seconds, as short as it gets.'] });
}

/** How long a deployment ran (or has run so far); undefined when its start cannot be read. */
export function deploymentDuration(snapshot: Pick<DeploymentSnapshot, 'createdAt' | 'endedAt'>, now: number): number | undefined {
  const start = Date.parse(snapshot.createdAt ?? '');
  if (Number.isNaN(start)) return undefined;
  const end = Date.parse(snapshot.endedAt ?? '');
  return Math.max(0, (Number.isNaN(end) ? now : end) - start);
}

/** A job's row shape; its contextValue is `deployment.<queued|running|success|failure|unknown>.<production|preview|unknown>`. */
export type DeploymentPresentation = Presentation;

function targetToken(target: DeployTarget | undefined): string {
  return target?.kind ?? 'unknown';
}

export function presentDeployment(job: DeploymentJob, now: number, age: (iso: string | undefined) => string): DeploymentPresentation {
  const label = deploymentLabel(job);
  const s = job.snapshot;
  const target = job.target;
  const previewDetails = target?.kind === 'preview' ? [l10n.t('Branch: {0}', target.branch), ...(target.previewUrl === undefined ? [] : [l10n.t('Preview URL: {0}', target.previewUrl)])] : [];
  if (s === undefined) {
    return { label, description: l10n.t('loading…'), icon: 'loading~spin', color: undefined, contextValue: `deployment.loading.${targetToken(target)}`, details: [l10n.t('Status id: {0}', job.id), ...previewDetails] };
  }
  const look = ICONS[s.status];
  const duration = deploymentDuration(s, now);
  const commit = s.commit;
  const sha = commit?.sha === undefined ? '' : commit.sha.slice(0, 7);
  const parts = [
    deploymentStatusWord(s.status, s.rawStatus),
    [sha, firstLine(commit?.message)].filter((p) => p !== '').join(' '),
    s.author?.name,
    s.source,
    age(s.createdAt),
    duration === undefined ? undefined : runTime(duration),
  ];
  const files = commit?.filesChanged;
  const counts = commit?.filesCount ?? (files === undefined ? undefined : { added: files.added.length, modified: files.modified.length, removed: files.removed.length });
  const list = (names: string[] | undefined, total: number) => `${(names ?? []).join(', ')}${total > (names?.length ?? 0) ? l10n.t(' and {0} more', total - (names?.length ?? 0)) : ''}`;
  const details = [
    l10n.t('Status id: {0}', job.id),
    l10n.t('Status: {0}', s.rawStatus),
    ...previewDetails,
    ...(s.summary === undefined ? [] : [l10n.t('Summary: {0}', s.summary)]),
    ...(commit?.sha === undefined ? [] : [l10n.t('Commit: {0}', commit.sha)]),
    ...(commit?.ref === undefined ? [] : [l10n.t('Ref: {0}', commit.ref)]),
    ...(commit?.message === undefined ? [] : [l10n.t('Message: {0}', commit.message.replace(/\s*\r?\n\s*/g, ' / '))]),
    ...(counts === undefined ? [] : [l10n.t('Files changed: {0} added, {1} modified, {2} removed', counts.added, counts.modified, counts.removed)]),
    ...(counts === undefined || counts.added === 0 ? [] : [l10n.t('Added: {0}', list(files?.added, counts.added))]),
    ...(counts === undefined || counts.modified === 0 ? [] : [l10n.t('Modified: {0}', list(files?.modified, counts.modified))]),
    ...(counts === undefined || counts.removed === 0 ? [] : [l10n.t('Removed: {0}', list(files?.removed, counts.removed))]),
    l10n.t('Author: {0}', s.author?.name ?? l10n.t('(none)')),
    ...(s.source === undefined ? [] : [l10n.t('Source: {0}', s.source)]),
    ...(s.subdomain === undefined ? [] : [l10n.t('Subdomain: {0}', s.subdomain)]),
    ...(s.createdAt === undefined ? [] : [l10n.t('Created: {0}', s.createdAt)]),
    ...(s.endedAt === undefined ? [] : [l10n.t('Ended: {0}', s.endedAt)]),
    ...(duration === undefined ? [] : [l10n.t('Duration: {0}', runTime(duration))]),
    ...(s.screenshot === undefined ? [] : [l10n.t('Screenshot: {0}', s.screenshot)]),
    ...(s.screenshotLight === undefined ? [] : [l10n.t('Screenshot (light): {0}', s.screenshotLight)]),
    ...(s.screenshotDark === undefined ? [] : [l10n.t('Screenshot (dark): {0}', s.screenshotDark)]),
    l10n.t('Log lines: {0}', s.logLines),
  ];
  return {
    label,
    description: parts.filter((p): p is string => p !== undefined && p !== '').join(' · '),
    icon: look.icon,
    color: look.color,
    contextValue: `deployment.${look.token}.${targetToken(target)}`,
    details,
  };
}

/** A branch name cut for the status bar: `docs-agent/…` (the first part, when it is long). */
export function shortBranch(branch: string, max = 16): string {
  if (branch.length <= max) return branch;
  const slash = branch.lastIndexOf('/', max - 1);
  return slash > 0 ? `${branch.slice(0, slash + 1)}…` : `${branch.slice(0, max - 1)}…`;
}

/** The status bar's part for running deployments: `Deploying · Preview docs-agent/…`, or `2 deployments`. */
export function deploymentsStatusText(running: DeploymentJob[]): string | undefined {
  if (running.length === 0) return undefined;
  if (running.length > 1) return l10n.t('{0} deployments', running.length);
  const [only] = running;
  const target = only?.target;
  const what = target?.kind === 'preview' ? l10n.t('Preview {0}', shortBranch(target.branch)) : target?.kind === 'production' ? l10n.t('Production') : l10n.t('Deployment');
  return l10n.t({ message: 'Deploying · {0}', args: [what], comment: ['The status bar while a deployment runs; {0} is Production or Preview <branch>.'] });
}

/** A running deployment's line in the status bar's tooltip. */
export function deploymentStatusLine(job: DeploymentJob): string {
  const s = job.snapshot;
  return l10n.t('{0}: {1}', deploymentLabel(job), s === undefined ? l10n.t({ message: 'loading', comment: ['The status of a job whose first answer has not come yet.'] }) : deploymentStatusWord(s.status, s.rawStatus));
}

export interface DeploymentNotice {
  severity: 'info' | 'error';
  message: string;
  actions: { title: string; command: string }[];
}

/** What an ended deployment says, and which actions fit: Open Site or Open Preview; Show Logs on failure. */
export function deploymentNotice(job: DeploymentJob, setting: 'all' | 'failures' | 'none'): DeploymentNotice | undefined {
  const s = job.snapshot;
  if (setting === 'none' || s === undefined || (s.status !== 'success' && s.status !== 'failure')) return undefined;
  const failed = s.status === 'failure';
  if (setting === 'failures' && !failed) return undefined;
  const label = deploymentLabel(job);
  const target = job.target;
  if (failed) {
    const logs = { title: l10n.t('Show Logs'), command: 'docsAdmin.deployment.showLogs' };
    const message = s.summary === undefined || s.summary === '' ? l10n.t('{0} failed to deploy.', label) : l10n.t('{0} failed to deploy: {1}', label, s.summary);
    return { severity: 'error', message, actions: [logs] };
  }
  const commit = s.commit?.sha === undefined ? '' : ` (${[s.commit.sha.slice(0, 7), firstLine(s.commit.message)].filter((p) => p !== '').join(' ')})`;
  if (target?.kind === 'preview') {
    return { severity: 'info', message: l10n.t('{0} is ready{1}.', label, commit), actions: [{ title: l10n.t('Open Preview'), command: 'docsAdmin.deployment.openPreview' }] };
  }
  return { severity: 'info', message: l10n.t('{0} is deployed{1}.', label, commit), actions: [{ title: l10n.t('Open Site'), command: 'docsAdmin.site.open' }] };
}
