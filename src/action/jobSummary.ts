/**
 * The job summary of a run ($GITHUB_STEP_SUMMARY): what was exported and published, or what was
 * done before it failed and why. Every value from outside (a domain, a job id, the server's
 * error, a repository or pull request link) goes through `forMarkdown`.
 */
import * as l10n from '@vscode/l10n';
import { lastLines } from '../core/deployments/logs';
import { agentStatusText } from '../core/jobs/jobLabels';
import { forMarkdown } from '../core/untrusted';
import type { Report } from './operationContext';

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
    case 'report':
      return report.readers === undefined ? l10n.t('Docs Admin: what readers said') : l10n.t('Docs Admin: what readers said, {0} to {1}', report.readers.range.from, lastDay(report.readers.range.to));
    case 'check':
      return report.site === undefined ? l10n.t('Docs Admin: site health') : l10n.t('Docs Admin: site health of {0}', forMarkdown(report.site.root));
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
    case 'report': {
      const c = report.readers?.counts;
      return c === undefined ? '' : l10n.t('**{0}** pages with thumbs down, open comments or unanswered questions; **{1}** questions the docs assistant could not answer; **{2}** searches that found nothing useful.', c.pages, c.questions, c.searches);
    }
    case 'check': {
      const s = report.site?.summary;
      return s === undefined ? '' : l10n.t('**Clean**: {0} errors, {1} warnings in {2} files.', s.errors, s.warnings, s.files);
    }
    default:
      return '';
  }
}

/** The check's problems, at most this many listed (the annotations show them all on their lines). */
const SITE_ROWS = 50;

function siteSection(report: Report): string[] {
  const site = report.site;
  if (site === undefined || site.problems.length === 0) return [];
  const rows = site.problems.slice(0, SITE_ROWS).map((p) => `- ${forMarkdown(`${p.file}:${p.span.start.line}:${p.span.start.column}`)} ${forMarkdown(p.code)}: ${forMarkdown(p.message)}`);
  const more = site.problems.length > SITE_ROWS ? [l10n.t('…and {0} more (see the annotations).', site.problems.length - SITE_ROWS)] : [];
  return [l10n.t('**{0} errors, {1} warnings:**', site.summary.errors, site.summary.warnings), '', ...rows, ...more, ''];
}

/** The last day of a range whose `to` is exclusive. */
function lastDay(to: string): string {
  const at = Date.parse(`${to}T00:00:00Z`);
  return Number.isNaN(at) ? to : new Date(at - 86_400_000).toISOString().slice(0, 10);
}

/** A Markdown table; every cell from outside already escaped by the caller. */
function markdownTable(headers: string[], rows: string[][]): string[] {
  return [`| ${headers.join(' | ')} |`, `|${headers.map(() => ' --- ').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
}

/** The report operation's sections: pages, unanswered questions, searches; each cell escaped. */
function readerSections(report: Report): string[] {
  const r = report.readers;
  if (r === undefined) return [];
  const more = (shown: number, all: number) => (all > shown ? [l10n.t('…and {0} more.', all - shown), ''] : []);
  const out: string[] = [];
  out.push(`#### ${l10n.t('Pages with the most thumbs down')}`, '');
  if (r.pages.length === 0) out.push(l10n.t('None in this period.'), '');
  else {
    out.push(...markdownTable([l10n.t('Page'), l10n.t('Thumbs down'), l10n.t('Thumbs up'), l10n.t('Open comments'), l10n.t('Unanswered questions'), l10n.t('Views')], r.pages.map((p) => [forMarkdown(p.path), String(p.thumbsDown), String(p.thumbsUp), String(p.openComments), String(p.unanswered), p.views === undefined ? '' : String(p.views)])), '');
    out.push(...more(r.pages.length, r.counts.pages));
  }
  out.push(`#### ${l10n.t('Questions the docs assistant could not answer')}`, '');
  if (r.questions.length === 0) out.push(l10n.t('None in this period.'), '');
  else {
    out.push(...markdownTable([l10n.t('Question'), l10n.t('Asked on'), l10n.t('Category'), l10n.t('When')], r.questions.map((q) => [forMarkdown(q.query), q.pageUrl === null ? '' : forMarkdown(q.pageUrl), q.queryCategory === null ? '' : forMarkdown(q.queryCategory), forMarkdown(q.timestamp.slice(0, 10))])), '');
    out.push(...more(r.questions.length, r.counts.questions));
  }
  out.push(`#### ${l10n.t('Searches that found nothing useful')}`, '');
  if (r.searches.length === 0) out.push(l10n.t('None in this period.'), '');
  else {
    out.push(...markdownTable([l10n.t('Search'), l10n.t('Searches'), l10n.t('Click-through'), l10n.t('Most clicked')], r.searches.map((s) => [forMarkdown(s.searchQuery), String(s.hits), `${Math.round(s.ctr * 100)} %`, s.topClickedPage === null ? l10n.t('none') : forMarkdown(s.topClickedPage)])), '');
    out.push(...more(r.searches.length, r.counts.searches));
  }
  for (const note of r.notes) out.push(`> ${forMarkdown(note)}`, '');
  return out;
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
  return [`### ${headline(report)}`, '', outcome(report), '', ...rows.map(([label, value]) => `- **${label}:** ${value}`), '', ...logs, ...readerSections(report), ...siteSection(report), ''].join('\n');
}
