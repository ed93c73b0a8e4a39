/**
 * The three views, Agent Jobs, Static Exports and Deployments: their trees, the message each shows for the
 * session's state (no project, key rejected, unreachable, air-gapped), the environment's name
 * beside their titles, their badges, and revealing a row.
 */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { availabilityNote } from '../../core/helm/availability';
import { parseJobKey, type JobKey } from '../../core/jobs/trackedJob';
import { describeExpiry } from '../links/bundleLinks';
import { readConfig } from '../session/extensionConfig';
import type { GitAccess } from '../git/gitAccess';
import type { Session } from '../session/environmentSession';
import { ViewBadges } from './badges';
import type { JobNodes } from './jobNodes';
import { JobsTreeProvider, type JobNode } from './jobsTree';

export class JobViews implements vscode.Disposable {
  readonly agentTree: JobsTreeProvider;
  readonly exportTree: JobsTreeProvider;
  readonly agentView: vscode.TreeView<JobNode>;
  readonly exportView: vscode.TreeView<JobNode>;
  readonly deploymentTree: JobsTreeProvider;
  readonly deploymentView: vscode.TreeView<JobNode>;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly session: Session,
    git: GitAccess,
    nodes: JobNodes,
  ) {
    this.agentTree = new JobsTreeProvider(session, nodes, 'agent', undefined, (repository) => {
      const match = git.find(repository);
      return match === undefined ? undefined : vscode.l10n.t('in {0}', basename(match.repository.rootUri.fsPath));
    });
    this.exportTree = new JobsTreeProvider(session, nodes, 'export', (key) => this.linkExpiry(key));
    this.agentView = vscode.window.createTreeView('docsAdmin.agentJobs', { treeDataProvider: this.agentTree, showCollapseAll: false });
    this.exportView = vscode.window.createTreeView('docsAdmin.exportJobs', { treeDataProvider: this.exportTree, showCollapseAll: false });
    this.deploymentTree = new JobsTreeProvider(session, nodes, 'deployment');
    this.deploymentView = vscode.window.createTreeView('docsAdmin.deployments', { treeDataProvider: this.deploymentTree, showCollapseAll: false });
    // The jobs are asked about once a view shows them (or the status bar has one to show).
    const visibility = () => session.setViewVisible(this.agentView.visible || this.exportView.visible || this.deploymentView.visible);
    this.subscriptions = [
      this.agentTree,
      this.exportTree,
      this.agentView,
      this.exportView,
      session.onDidChangeState(() => this.showState()),
      this.agentView.onDidChangeVisibility(visibility),
      this.exportView.onDidChangeVisibility(visibility),
      this.deploymentTree,
      this.deploymentView,
      this.deploymentView.onDidChangeVisibility(visibility),
      git.onDidChange(() => this.agentTree.refresh()),
      // Each view counts the jobs that ended while it was out of sight.
      new ViewBadges(session, { agent: this.agentView, export: this.exportView, deployment: this.deploymentView }),
    ];
    visibility();
  }

  /** "link expires in 59m" on an export's row, while this window holds a link for it. */
  private linkExpiry(key: JobKey): string | undefined {
    const links = this.session.links;
    const id = parseJobKey(key)?.id;
    const known = id === undefined ? undefined : links?.peek(id);
    return known === undefined || links === undefined ? undefined : describeExpiry(links.timeLeft(known));
  }

  /** Selects a row, when its view is open (never opens a view the person closed). */
  reveal(node: JobNode): void {
    const view = node.kind === 'agent' ? this.agentView : node.kind === 'export' ? this.exportView : this.deploymentView;
    if (view.visible) void view.reveal(node, { select: true, focus: false }).then(undefined, () => undefined);
  }

  /** The views' messages and descriptions, from the session's state and the deployment type. */
  showState(): void {
    // An empty message hides it; the description beside each view's title names the environment.
    const message = this.session.stateMessage ?? '';
    this.agentView.message = message;
    // Air-gapped: say what cannot work there (the API among it).
    this.exportView.message = message !== '' ? message : readConfig().deploymentType === 'airGapped' ? availabilityNote('airGapped') : '';
    this.deploymentView.message = message;
    this.agentView.description = this.session.environment.name;
    this.exportView.description = this.session.environment.name;
    this.deploymentView.description = this.session.environment.name;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
