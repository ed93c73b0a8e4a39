import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { configureL10n } from './core/l10n';
import type { Deps } from './vscode/commandKit/commandToolkit';
import * as agentLinks from './vscode/commands/agentLinks';
import * as askAgent from './vscode/commands/askAgent';
import * as availability from './vscode/commands/showFeatureAvailability';
import * as checkOutAgentBranch from './vscode/commands/checkOutAgentBranch';
import * as copyLink from './vscode/commands/copyLink';
import * as deployDocs from './vscode/commands/deployDocs';
import * as deploymentLinks from './vscode/commands/deploymentLinks';
import * as deploymentLogs from './vscode/commands/deploymentLogs';
import * as previewAgentBranch from './vscode/commands/previewAgentBranch';
import * as previewBranch from './vscode/commands/previewBranch';
import * as runAutomation from './vscode/commands/runAutomation';
import * as trackDeployment from './vscode/commands/trackDeployment';
import * as bundleLink from './vscode/commands/bundleLink';
import * as downloadBundle from './vscode/commands/downloadBundle';
import * as extractBundle from './vscode/commands/extractBundle';
import * as generateBundle from './vscode/commands/generateBundle';
import * as help from './vscode/commands/help';
import * as importBundle from './vscode/commands/importBundle';
import * as jobs from './vscode/commands/jobs';
import * as key from './vscode/commands/key';
import * as previewBundle from './vscode/commands/serveBundle';
import * as publish from './vscode/commands/publishStaticExport';
import * as readersAskAgent from './vscode/commands/readersAskAgent';
import * as readersOpenPage from './vscode/commands/readersOpenPage';
import * as readersPeriod from './vscode/commands/readersPeriod';
import * as readersRefresh from './vscode/commands/readersRefresh';
import * as readersRevealContact from './vscode/commands/readersRevealContact';
import * as readersShowPage from './vscode/commands/readersShowPage';
import * as reviewAgentChanges from './vscode/commands/reviewAgentChanges';
import * as retryExport from './vscode/commands/retryExport';
import * as revealBundle from './vscode/commands/revealBundle';
import * as settings from './vscode/commands/settings';
import * as updateHelmValues from './vscode/commands/updateHelmValues';
import * as lmTools from './vscode/tools/lmTools';
import { PromptComposer } from './vscode/agent/composer';
import { PRODUCT_NAME } from './vscode/session/extensionConfig';
import { DeploymentLogs } from './vscode/deployments/logDocuments';
import { ClientTriggers } from './vscode/deployments/clientTriggers';
import { GitAccess } from './vscode/git/gitAccess';
import { KeyStore } from './vscode/session/keys';
import { DeepLinks } from './vscode/links/deepLinks';
import { Messages } from './vscode/ui/messages';
import { channelLogger } from './vscode/ui/outputLog';
import { Notifier } from './vscode/ui/notifications';
import { seedPlayground } from './vscode/session/playground';
import { PreviewManager } from './vscode/serve/servedBundles';
import { Readers } from './vscode/readers/readers';
import { Session } from './vscode/session/environmentSession';
import { watchSettings } from './vscode/session/settingsWatcher';
import { JobsStatusBar } from './vscode/views/statusBar';
import type { JobNode, JobsTreeProvider } from './vscode/views/jobsTree';
import { JobNodes } from './vscode/views/jobNodes';
import { JobViews } from './vscode/views/views';
import { fromCode } from './vscode/commandKit/fromCode';
import { ValuesDiagnostics } from './vscode/values/diagnostics';
import { Ui } from './vscode/ui/ui';
import { SetupProgress } from './vscode/ui/walkthrough';
import { PaletteContext } from './vscode/commandKit/paletteContext';

/** Every command, a module each (or a close group), registered the same way. */
const COMMANDS: { register(deps: Deps): vscode.Disposable[] }[] = [
  help,
  key,
  settings,
  jobs,
  askAgent,
  agentLinks,
  reviewAgentChanges,
  checkOutAgentBranch,
  retryExport,
  bundleLink,
  generateBundle,
  downloadBundle,
  extractBundle,
  previewBundle,
  revealBundle,
  updateHelmValues,
  publish,
  importBundle,
  availability,
  deployDocs,
  previewBranch,
  previewAgentBranch,
  trackDeployment,
  deploymentLogs,
  deploymentLinks,
  runAutomation,
  readersRefresh,
  readersPeriod,
  readersShowPage,
  readersOpenPage,
  readersAskAgent,
  readersRevealContact,
  copyLink,
];

/**
 * What activate() returns outside production: the parts the integration tests and benchmarks
 * inspect. Not a public API, and never handed out in production: another extension reading
 * `exports` would get the session (and through it the key store) and `fromCode`.
 */
export interface DocsAdminInternals {
  session: Session;
  agentView: vscode.TreeView<JobNode>;
  exportView: vscode.TreeView<JobNode>;
  agentTree: JobsTreeProvider;
  exportTree: JobsTreeProvider;
  deploymentView: vscode.TreeView<JobNode>;
  deploymentTree: JobsTreeProvider;
  /** The deployments' log documents. */
  logs: DeploymentLogs;
  statusBar: JobsStatusBar;
  notifier: Notifier;
  /** Every message shown, as the workbench was given it. */
  messages: Messages;
  /** Every other text VS Code renders goes through it; it remembers the questions put to the person. */
  ui: Ui;
  previews: PreviewManager;
  values: ValuesDiagnostics;
  setup: SetupProgress;
  /** The context keys the palette and the menus read (what is set up, tracked, on this machine). */
  palette: PaletteContext;
  git: GitAccess;
  composer: PromptComposer;
  readers: Readers;
  /** The language-model tools, by name, as registered. */
  lmTools: lmTools.LmTools;
  /** The URI handler (deep links); its `confirm` is what the host tests answer. */
  deepLinks: DeepLinks;
  /** How long activate() itself took (the benchmark reads it). */
  activationMs: number;
  /** Marks a command's options as coming from code (see fromCode.ts), as the extension's own calls do. A link's JSON cannot carry the mark. */
  fromCode: typeof fromCode;
  /** The extension's SecretStorage, to set up what an earlier version left there. */
  secrets: vscode.SecretStorage;
}

/** Builds the parts, wires them, registers them. No network and no file scan here. */
export function activate(context: vscode.ExtensionContext): DocsAdminInternals | undefined {
  const started = performance.now();
  // The core's messages (errors, labels) in the display language, as the adapters' own.
  configureL10n(vscode.l10n.bundle);
  const channel = vscode.window.createOutputChannel(PRODUCT_NAME, { log: true });
  const keys = new KeyStore(context.secrets);
  const log = channelLogger(channel, () => keys.known());
  const messages = new Messages();
  const ui = new Ui();
  const session = new Session(context, keys, log, messages);
  // The Git extension is looked up in the background: activation does not wait for it.
  const git = new GitAccess(log);
  const nodes = new JobNodes(context.globalState);
  const views = new JobViews(session, git, nodes);
  const statusBar = new JobsStatusBar(session, ui);
  const notifier = new Notifier(messages, nodes);
  const setup = new SetupProgress(session, keys, context.globalState);
  const palette = new PaletteContext(session, keys);
  const previews = new PreviewManager(log, ui);
  // Values files are checked as they are opened: nothing is scanned at activation.
  const values = new ValuesDiagnostics();
  const composer = new PromptComposer(context.globalStorageUri, context.globalState, log);
  const logs = new DeploymentLogs(session);
  // Reader analytics: nothing asked nor scanned until the Readers view or a docs page needs them.
  const readers = new Readers(session, context.globalState, log, () => void setup.markReadersSeen(), (id) => nodes.itemId(id));
  const deps: Deps = { context, session, keys, log, channel, messages, ui, reveal: (node) => views.reveal(node), nodes, setup, previews, composer, git, values, triggers: new ClientTriggers(), logs, readers };

  // The tools an AI assistant can call (Copilot's agent mode): the same core paths as the commands.
  const tools = lmTools.register(deps);
  const deepLinks = new DeepLinks(deps);

  context.subscriptions.push(
    channel,
    session,
    git,
    views,
    statusBar,
    setup,
    palette,
    previews,
    values,
    composer,
    logs,
    readers,
    ...COMMANDS.flatMap((group) => group.register(deps)),
    ...tools.disposables,
    deepLinks,
    vscode.window.registerUriHandler(deepLinks),
    session.onDidTransition((t) => notifier.show(t)),
    keys.onDidChange((environmentId) => {
      // Set, changed or cleared here or in another window.
      if (environmentId === session.environment.id) void session.rebuild();
    }),
    watchSettings({ session, views, values }),
    vscode.window.onDidChangeWindowState((state) => session.service?.setFocused(state.focused)),
  );
  void vscode.commands.executeCommand('setContext', 'docsAdmin.state', 'noKey');
  git.start();
  void session
    .rebuild()
    .then(() => seedPlayground(context, keys, session))
    .catch((error: unknown) => log.error(`Playground set-up failed: ${error instanceof Error ? error.message : String(error)}`));
  const { agentView, exportView, agentTree, exportTree, deploymentView, deploymentTree } = views;
  if (context.extensionMode === vscode.ExtensionMode.Production) return undefined;
  return { session, agentView, exportView, agentTree, exportTree, deploymentView, deploymentTree, logs, statusBar, notifier, messages, ui, previews, values, setup, palette, composer, git, readers, lmTools: tools.tools, deepLinks, activationMs: performance.now() - started, fromCode, secrets: context.secrets };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
