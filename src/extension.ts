import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { channelLogger } from './vscode/log';
import { NETWORK_SETTINGS, PRODUCT_NAME, SECTION } from './vscode/config';
import { KeyStore } from './vscode/keys';
import { Notifier } from './vscode/notifications';
import { Session } from './vscode/session';
import { JobsStatusBar } from './vscode/statusBar';
import { JobsTreeProvider, type JobNode } from './vscode/tree/jobsTree';
import { describeExpiry, registerLinkCommands } from './vscode/commands/links';
import { registerJobCommands } from './vscode/commands/jobs';
import { registerKeyCommands } from './vscode/commands/key';
import { registerSettingCommands } from './vscode/commands/settings';
import { command } from './vscode/commands/deps';
import * as downloadBundle from './vscode/commands/downloadBundle';
import * as extractBundle from './vscode/commands/extractBundle';
import * as generateBundle from './vscode/commands/generateBundle';
import * as previewBundle from './vscode/commands/previewBundle';
import * as revealBundle from './vscode/commands/revealBundle';
import * as availability from './vscode/commands/availability';
import * as importBundle from './vscode/commands/importBundle';
import * as publishCommand from './vscode/commands/publish';
import * as updateHelmValues from './vscode/commands/updateHelmValues';
import { PreviewManager } from './vscode/preview';
import { ValuesDiagnostics } from './vscode/values/diagnostics';
import { availabilityNote } from './core/deploy/availability';
import { readConfig } from './vscode/config';
import { configureL10n } from './core/l10n';
import { SetupProgress } from './vscode/walkthrough';

/** What activate() returns: the parts the integration tests inspect. Not a public API. */
export interface DocsAdminInternals {
  session: Session;
  agentView: vscode.TreeView<JobNode>;
  exportView: vscode.TreeView<JobNode>;
  agentTree: JobsTreeProvider;
  exportTree: JobsTreeProvider;
  statusBar: JobsStatusBar;
  notifier: Notifier;
  previews: PreviewManager;
  values: ValuesDiagnostics;
  setup: SetupProgress;
  /** How long activate() itself took (the benchmark reads it). */
  activationMs: number;
}

/** Builds the parts, wires them, registers them. No network and no file scan here. */
export function activate(context: vscode.ExtensionContext): DocsAdminInternals {
  const started = performance.now();
  // The core's messages (errors, labels) in the display language, as the adapters' own.
  configureL10n(vscode.l10n.bundle);
  const channel = vscode.window.createOutputChannel(PRODUCT_NAME, { log: true });
  const keys = new KeyStore(context.secrets);
  const log = channelLogger(channel, () => keys.known());
  const session = new Session(context, keys, log);
  const agentTree = new JobsTreeProvider(session, 'agent');
  const exportTree = new JobsTreeProvider(session, 'export', (key) => {
    const links = session.links;
    const known = links?.peek(key.slice('export:'.length));
    return known === undefined || links === undefined ? undefined : describeExpiry(links.timeLeft(known));
  });
  const agentView = vscode.window.createTreeView('docsAdmin.agentJobs', { treeDataProvider: agentTree, showCollapseAll: false });
  const exportView = vscode.window.createTreeView('docsAdmin.exportJobs', { treeDataProvider: exportTree, showCollapseAll: false });
  const statusBar = new JobsStatusBar(session);
  const notifier = new Notifier();
  const reveal = (node: JobNode) => {
    const view = node.kind === 'agent' ? agentView : exportView;
    if (view.visible) void view.reveal(node, { select: true, focus: false }).then(undefined, () => undefined);
  };
  const showState = () => {
    // An empty message hides it; the description beside each view's title names the environment.
    const message = session.stateMessage ?? '';
    agentView.message = message;
    // Air-gapped: say what cannot work there (the API among it).
    exportView.message = message !== '' ? message : readConfig().deploymentType === 'airGapped' ? availabilityNote('airGapped') : '';
    agentView.description = session.environment.name;
    exportView.description = session.environment.name;
  };
  const setup = new SetupProgress(session, keys, context.globalState);
  const deps = { context, session, keys, log, channel, reveal, setup };
  const previews = new PreviewManager(log);
  // Values files are checked as they are opened: nothing is scanned at activation.
  const values = new ValuesDiagnostics();

  context.subscriptions.push(
    channel,
    session,
    agentTree,
    exportTree,
    agentView,
    exportView,
    statusBar,
    setup,
    command('docsAdmin.logs.show', deps, () => channel.show(true)),
    command('docsAdmin.walkthrough.open', deps, () =>
      vscode.commands.executeCommand('workbench.action.openWalkthrough', `${context.extension.id}#gettingStarted`, false),
    ),
    ...registerKeyCommands(deps),
    ...registerSettingCommands(deps),
    ...registerJobCommands(deps),
    ...registerLinkCommands(deps),
    generateBundle.register(deps),
    downloadBundle.register(deps),
    extractBundle.register(deps),
    ...previewBundle.register(deps, previews),
    revealBundle.register(deps),
    previews,
    values,
    ...updateHelmValues.register(deps),
    publishCommand.register(deps),
    importBundle.register(deps),
    availability.register(deps),
    session.onDidTransition((t) => notifier.show(t)),
    session.onDidChangeState(showState),
    keys.onDidChange((environmentId) => {
      // Set, changed or cleared here or in another window.
      if (environmentId === session.environment.id) void session.rebuild();
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${SECTION}.deploymentType`)) showState();
      if (event.affectsConfiguration(`${SECTION}.values`)) values.refresh();
      // Only what the session is built from rebuilds it (a rebuild forgets the links in hand).
      if (['baseUrl', 'projectId', 'environments', 'polling'].some((k) => event.affectsConfiguration(`${SECTION}.${k}`))) void session.rebuild();
      // The proxy and certificates: the clients are rebuilt with the new ones.
      else if (NETWORK_SETTINGS.some((s) => event.affectsConfiguration(s))) void session.rebuild();
    }),
    vscode.window.onDidChangeWindowState((state) => session.service?.setFocused(state.focused)),
  );
  void vscode.commands.executeCommand('setContext', 'docsAdmin.state', 'noKey');
  void session
    .rebuild()
    .then(() => seedPlaygroundKey(context, keys, session))
    .catch((error: unknown) => log.error(`Playground set-up failed: ${error instanceof Error ? error.message : String(error)}`));
  return { session, agentView, exportView, agentTree, exportTree, statusBar, notifier, previews, values, setup, activationMs: performance.now() - started };
}

/**
 * The playground (`npm start`) hands the simulator's demo key and demo job ids to a
 * development host, so a newcomer sees rows moving at once. Never in an installed extension.
 */
async function seedPlaygroundKey(context: vscode.ExtensionContext, keys: KeyStore, session: Session): Promise<void> {
  const demo = process.env.DOCS_ADMIN_PLAYGROUND_KEY;
  if (context.extensionMode !== vscode.ExtensionMode.Development || demo === undefined || demo === '') return;
  if ((await keys.get(session.environment.id)) === undefined) {
    await keys.set(session.environment.id, demo);
    await session.rebuild();
  }
  for (const entry of (process.env.DOCS_ADMIN_PLAYGROUND_TRACK ?? '').split(',').filter((e) => e !== '')) {
    const [kind, id] = entry.split(':');
    if (id === undefined) continue;
    if (kind === 'agent') await session.service?.trackAgentJob(id);
    if (kind === 'export') await session.service?.trackExportJob(id);
  }
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
