/**
 * The job summary of a run ($GITHUB_STEP_SUMMARY): what was exported and published, or what was
 * done before it failed and why. Every value from outside (a domain, a job id, the server's
 * error, a repository or pull request link) goes through `forMarkdown`.
 */
import * as l10n from '@vscode/l10n';
import { lastLines } from '../core/deployments/logs';
import { agentStatusText } from '../core/jobs/present';
import { forMarkdown } from '../core/untrusted';
import type { Report } from './operations';

/** A link for an http(s) URL (its text escaped, its target percent-encoded where Markdown would end it); escaped text otherwise. */
function markdownLink(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return forMarkdown(url);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return forMarkdown(url);
  const target = parsed.href.replace(/[()<>\s"'\\[\]`]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  return `[${forMarkdown(url)}](${target})`;
}

function headline(report: Report): string {
  const domain = report.domain === undefined ? '' : forMarkdown(report.domain);
  switch (report.operation) {
    case 'publish':
      return domain === '' ? l10n.t('Docs Admin: publish') : l10n.t('Docs Admin: publish {0}', domain);
    case 'export':
      return domain === '' ? l10n.t('Docs Admin: export') : l10n.t('Docs Admin: export {0}', domain);
    case 'agent':
      return l10n.t('Docs Admin: agent job');
    case 'deploy':
      return l10n.t('Docs Admin: deploy');
    case 'preview':
      return report.branch === undefined ? l10n.t('Docs Admin: preview') : l10n.t('Docs Admin: preview of {0}', forMarkdown(report.branch));
    default:
      return l10n.t('Docs Admin');
  }
}

function outcome(report: Report): string {
  if (report.failure !== undefined) return l10n.t('**Failed:** {0}', forMarkdown(report.failure));
  switch (report.operation) {
    case 'publish':
      return report.rolledOut === true ? l10n.t('**Published**: the values file points at the new bundle, and the rollout is done.') : l10n.t('**Published**: the values file points at the new bundle.');
    case 'export':
      return l10n.t('**Exported**: the bundle link is ready.');
    case 'agent':
      return report.agent?.prLink === null ? l10n.t('**Done**: the agent changed no file.') : l10n.t('**Done**: the agent opened a pull request.');
    case 'deploy':
      return report.deployment?.status === 'success' ? l10n.t('**Deployed**: the site is live.') : l10n.t('**Queued**: the deployment was started.');
    case 'preview':
      return report.deployment?.status === 'success' ? l10n.t('**Preview ready.**') : l10n.t('**Queued**: the preview was started.');
    default:
      return '';
  }
}

export function summaryMarkdown(report: Report): string {
  const rows: [string, string][] = [];
  const add = (label: string, value: string | undefined) => {
    if (value !== undefined) rows.push([label, value]);
  };
  const agent = report.agent;
  const deploying = report.operation === 'deploy' || report.operation === 'preview';
  add(report.operation === 'agent' ? l10n.t('Agent job') : deploying ? l10n.t('Status id') : l10n.t('Export job'), report.jobId === undefined ? undefined : forMarkdown(report.jobId));
  add(l10n.t('Pages'), report.pages === undefined ? undefined : String(report.pages));
  add(l10n.t('Bundle link (without its signature)'), report.bundleUrl === undefined ? undefined : forMarkdown(report.bundleUrl));
  add(l10n.t('Link expires'), report.expiresAt === undefined ? undefined : forMarkdown(report.expiresAt));
  if (report.valuesFile !== undefined) {
    const state = report.valuesChanged === undefined ? '' : report.valuesChanged ? l10n.t(' (updated)') : l10n.t(' (already up to date)');
    add(l10n.t('Values file'), `${forMarkdown(report.valuesFile)}${state}`);
  }
  if (report.rolledOut === true) add(l10n.t('Rollout'), l10n.t('done'));
  if (agent !== undefined) {
    const { repository, ref } = agent.source;
    add(l10n.t('Status'), forMarkdown(agentStatusText(agent)));
    // What the server gave: a repository (with its branch), or a branch alone, or neither.
    if (repository !== undefined) add(l10n.t('Repository'), `${markdownLink(repository)}${ref === null ? '' : ` @ ${forMarkdown(ref)}`}`);
    else add(l10n.t('Branch'), ref === null ? undefined : forMarkdown(ref));
    add(l10n.t('Pull request'), agent.prLink === null ? undefined : markdownLink(agent.prLink));
  }
  const d = report.deployment;
  add(l10n.t('Preview'), report.previewUrl === undefined ? undefined : markdownLink(report.previewUrl));
  if (d !== undefined) {
    add(l10n.t('Status'), forMarkdown(d.rawStatus));
    const commit = [d.commit?.sha?.slice(0, 12), d.commit?.ref === undefined ? undefined : `(${d.commit.ref})`, (d.commit?.message ?? '').split(/\r?\n/)[0]].filter((p) => p !== undefined && p !== '').join(' ');
    add(l10n.t('Commit'), commit === '' ? undefined : forMarkdown(commit));
    add(l10n.t('Author'), d.author?.name === undefined ? undefined : forMarkdown(d.author.name));
    add(l10n.t('Summary'), d.summary === undefined ? undefined : forMarkdown(d.summary));
  }
  // A failure's last log lines, each escaped (server text), as a quote.
  const tail = d?.status === 'failure' ? lastLines(d.logs) : [];
  const logs = tail.length === 0 ? [] : [l10n.t('**The last {0} log lines:**', tail.length), '', ...tail.map((line) => `> ${forMarkdown(line)}  `), ''];
  return [`### ${headline(report)}`, '', outcome(report), '', ...rows.map(([label, value]) => `- **${label}:** ${value}`), '', ...logs, ''].join('\n');
}
