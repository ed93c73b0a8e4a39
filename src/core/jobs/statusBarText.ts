/** What the status bar says about running jobs: a pure function, tested without an editor. */
import * as l10n from '@vscode/l10n';
import type { AgentJobStatus, ExportJobStatus } from '../api/apiTypes';
import { deploymentsStatusText, deploymentStatusLine } from '../deployments/deploymentLabels';
import { isTerminal, type TrackedJob } from './trackedJob';

type Running<K extends TrackedJob['kind']> = Extract<TrackedJob, { kind: K }>;

/** `Export 42% · 1 agent job · Deploying · Preview docs-agent/…`, or undefined when nothing runs. Pure, for tests. */
export function statusText(jobs: readonly TrackedJob[]): { text: string; lines: string[] } | undefined {
  const all = jobs.filter((j) => !isTerminal(j));
  if (all.length === 0) return undefined;
  const deployments = all.filter((j): j is Running<'deployment'> => j.kind === 'deployment');
  const running = all.filter((j): j is Running<'agent' | 'export'> => j.kind !== 'deployment');
  const exports = running.filter((j) => j.kind === 'export');
  const agents = running.filter((j) => j.kind === 'agent');
  const parts: string[] = [];
  if (exports.length === 1) {
    const snapshot = exports[0]?.snapshot;
    const progress = snapshot !== undefined && 'progress' in snapshot ? snapshot.progress : undefined;
    parts.push(progress === undefined ? oneExport(snapshot?.status) : l10n.t('Export {0}%', Math.round(progress)));
  } else if (exports.length > 1) {
    parts.push(l10n.t('{0} exports', exports.length));
  }
  if (agents.length > 0) parts.push(agents.length === 1 ? l10n.t('{0} agent job', agents.length) : l10n.t('{0} agent jobs', agents.length));
  const deploying = deploymentsStatusText(deployments);
  if (deploying !== undefined) parts.push(deploying);
  const lines = running.map((j) => {
    const snapshot = j.snapshot;
    const status = snapshot === undefined ? l10n.t({ message: 'loading', comment: ['The status of a job whose first answer has not come yet.'] }) : statusWord(snapshot.status);
    const progress = snapshot !== undefined && 'progress' in snapshot ? snapshot.progress : undefined;
    if (j.kind === 'agent') return l10n.t('Agent job {0}: {1}', j.id, status);
    return progress === undefined ? l10n.t('Export {0}: {1}', j.domain ?? j.id, status) : l10n.t('Export {0}: {1} {2}%', j.domain ?? j.id, status, Math.round(progress));
  });
  return { text: parts.join(' · '), lines: [...lines, ...deployments.map(deploymentStatusLine)] };
}

/** The one running export, by its status (`undefined`: not asked yet). */
function oneExport(status: ExportJobStatus | AgentJobStatus | undefined): string {
  switch (status) {
    case undefined:
      return l10n.t('Export starting');
    case 'queued':
      return l10n.t('Export queued');
    case 'running':
      return l10n.t('Export running');
    default:
      return l10n.t('Export {0}', statusWord(status));
  }
}

/** A status as the status bar's tooltip says it. */
function statusWord(status: ExportJobStatus | AgentJobStatus): string {
  switch (status) {
    case 'queued':
      return l10n.t({ message: 'queued', comment: ['The status of a job, in the status bar\'s tooltip.'] });
    case 'running':
      return l10n.t({ message: 'running', comment: ['The status of a job, in the status bar\'s tooltip.'] });
    case 'active':
      return l10n.t({ message: 'active', comment: ['The status of a job, in the status bar\'s tooltip.'] });
    case 'completed':
      return l10n.t({ message: 'completed', comment: ['The status of a job, in the status bar\'s tooltip.'] });
    case 'failed':
      return l10n.t({ message: 'failed', comment: ['The status of a job, in the status bar\'s tooltip.'] });
    case 'archived':
      return l10n.t({ message: 'archived', comment: ['The status of a job, in the status bar\'s tooltip.'] });
    case 'unknown':
      return l10n.t({ message: 'unknown', comment: ['The status of a job, in the status bar\'s tooltip.'] });
  }
}
