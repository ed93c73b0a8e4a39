/** What the status bar says about running jobs: a pure function, tested without an editor. */
import type { TrackedJob } from './registry';
import { isTerminal } from './present';

/** `Export 42% · 1 agent job`, or undefined when nothing runs. Pure, for tests. */
export function statusText(jobs: readonly TrackedJob[]): { text: string; lines: string[] } | undefined {
  const running = jobs.filter((j) => !isTerminal(j));
  if (running.length === 0) return undefined;
  const exports = running.filter((j) => j.kind === 'export');
  const agents = running.filter((j) => j.kind === 'agent');
  const parts: string[] = [];
  if (exports.length === 1) {
    const snapshot = exports[0]?.snapshot;
    const progress = snapshot !== undefined && 'progress' in snapshot ? snapshot.progress : undefined;
    parts.push(progress === undefined ? `Export ${snapshot?.status ?? 'starting'}` : `Export ${Math.round(progress)}%`);
  } else if (exports.length > 1) {
    parts.push(`${exports.length} exports`);
  }
  if (agents.length > 0) parts.push(`${agents.length} agent ${agents.length === 1 ? 'job' : 'jobs'}`);
  const lines = running.map((j) => {
    const snapshot = j.snapshot;
    const what = j.kind === 'export' ? `Export ${j.domain ?? j.id}` : `Agent job ${j.id}`;
    const status = snapshot === undefined ? 'loading' : snapshot.status;
    const progress = snapshot !== undefined && 'progress' in snapshot && snapshot.progress !== undefined ? ` ${Math.round(snapshot.progress)}%` : '';
    return `${what}: ${status}${progress}`;
  });
  return { text: parts.join(' · '), lines };
}
