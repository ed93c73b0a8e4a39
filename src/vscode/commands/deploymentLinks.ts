/**
 * Open Preview and Copy Preview URL (on a preview's row, an agent job's row whose branch has a
 * preview, and a preview's notification), and Open Site (the environment's docs site, asked for
 * once and kept in its settings). Links from the server are opened only when https (or loopback
 * http), and never carry a user name or password.
 */
import * as vscode from 'vscode';
import { previewOfBranch } from '../../core/deployments/agentPreview';
import { checkOpenableLink } from '../../core/links';
import { command, requireService, rowOrNone, valueFromCode, type Deps } from '../commandToolkit';
import { deploymentOf, pickDeployment, type DeploymentJob } from '../deployments';
import { listEnvironments, updateEnvironment } from '../environments';
import { linkPolicy, openSafely } from '../openLink';

/** The preview a row stands for: its own, or (an agent job's row) the newest of its branch. */
async function previewOf(deps: Deps, given: unknown, id: string): Promise<DeploymentJob | undefined> {
  // A row handed out, or none (the palette): a link's look-alike is refused.
  const node = rowOrNone(deps, given, id);
  if (node !== undefined && node.kind === 'agent') {
    const agent = requireService(deps).get(node.key);
    const ref = agent?.kind === 'agent' ? agent.snapshot?.source.ref : undefined;
    const preview = previewOfBranch(requireService(deps).list(), ref, agent?.id);
    if (preview === undefined) throw new Error(vscode.l10n.t('No preview of this agent job\'s branch is tracked: run Preview Agent Branch first.'));
    return preview;
  }
  if (node !== undefined) return deploymentOf(deps, node);
  return pickDeployment(deps, vscode.l10n.t('Docs Admin: open a preview'), (job) => job.target?.kind === 'preview');
}

function previewUrlOf(job: DeploymentJob): string {
  if (job.target?.kind !== 'preview') throw new Error(vscode.l10n.t('This deployment is not a preview: Open Site opens the live site.'));
  if (job.target.previewUrl === undefined) throw new Error(vscode.l10n.t('The server gave no preview URL for this preview.'));
  return job.target.previewUrl;
}

/** The active environment, as its settings say now (its site address may have been set since the session was built). */
function environment(deps: Deps) {
  return listEnvironments().find((e) => e.id === deps.session.environment.id) ?? deps.session.environment;
}

/** Asks for the docs site's address (https), keeps it in the environment's settings; undefined when dismissed. */
async function askSiteUrl(deps: Deps, given: { value?: string; suggested?: string } = {}): Promise<string | undefined> {
  const env = environment(deps);
  const validate = (v: string) => {
    const verdict = checkOpenableLink(v, linkPolicy(deps.session));
    return verdict.ok ? undefined : vscode.l10n.t('Enter the https address of the docs site: {0}.', verdict.reason);
  };
  const value =
    given.value ??
    (await deps.ui.inputBox({
      title: vscode.l10n.t('Docs Admin: the docs site of "{0}"', env.name),
      prompt: vscode.l10n.t("The address readers open (kept in the environment's settings)"),
      value: given.suggested ?? env.siteUrl,
      placeHolder: 'https://docs.example.com',
      ignoreFocusOut: true,
      validateInput: validate,
    }));
  if (value === undefined) return undefined;
  const verdict = checkOpenableLink(value, linkPolicy(deps.session));
  if (!verdict.ok) throw new Error(vscode.l10n.t('Enter the https address of the docs site: {0}.', verdict.reason));
  await updateEnvironment(env, 'siteUrl', verdict.url.href);
  return verdict.url.href;
}

export function register(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.deployment.openPreview', deps, async (node?: unknown) => {
      const job = await previewOf(deps, node, 'docsAdmin.deployment.openPreview');
      if (job === undefined) return undefined;
      const url = previewUrlOf(job);
      return (await openSafely(deps, url, 'preview')) ? url : false;
    }),
    command('docsAdmin.deployment.copyPreviewUrl', deps, async (node?: unknown) => {
      const job = await previewOf(deps, node, 'docsAdmin.deployment.copyPreviewUrl');
      if (job === undefined) return undefined;
      const url = previewUrlOf(job);
      const verdict = checkOpenableLink(url, linkPolicy(deps.session));
      if (!verdict.ok) throw new Error(vscode.l10n.t('The preview URL was not copied: {0}.', verdict.reason));
      await vscode.env.clipboard.writeText(verdict.url.href);
      deps.messages.status(vscode.l10n.t('Copied the preview URL'), 3000);
      return verdict.url.href;
    }),
    command('docsAdmin.site.open', deps, async (node?: unknown) => {
      // From a row or a notification the node says nothing more: the site is the environment's.
      // Anything else (a link's JSON) is refused.
      rowOrNone(deps, node, 'docsAdmin.site.open');
      requireService(deps);
      const known = environment(deps).siteUrl;
      const url = known !== '' ? known : await askSiteUrl(deps);
      if (url === undefined) return undefined;
      return (await openSafely(deps, url, 'site')) ? url : false;
    }),
    // An address from code is kept; one from a link is shown in the box for the person to confirm.
    command('docsAdmin.site.set', deps, async (given?: unknown) => askSiteUrl(deps, valueFromCode(given))),
  ];
}
