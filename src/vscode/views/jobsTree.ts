import * as vscode from 'vscode';
import { withReviewTokens } from '../../core/agent/review';
import { agentPreviewNote, previewOfBranch, previewState, withPreviewToken } from '../../core/deployments/agentPreview';
import { shelfRows, type ShelfRow } from '../../core/bundle/shelf/shelfRows';
import { compareJobs, presentTracked } from '../../core/jobs/rows';
import { jobKey, type JobKey, type TrackedJob } from '../../core/jobs/trackedJob';
import type { Session } from '../session/environmentSession';
import { markdownLines } from '../ui/ui';

import type { JobNode, JobNodes } from './jobNodes';

export type { JobNode } from './jobNodes';

export class JobsTreeProvider implements vscode.TreeDataProvider<JobNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<JobNode | JobNode[] | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private nodes = new Map<JobKey, JobNode>();
  private readonly parts = new Map<string, JobNode>();
  private order: JobKey[] = [];
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly session: Session,
    /** The rows handed out, checked by identity when a command gets one (see jobNodes.ts). */
    private readonly issued: JobNodes,
    private readonly kind: TrackedJob['kind'],
    private readonly describeExpiry: (key: JobKey) => string | undefined = () => undefined,
    /** Agent rows: the open repository that is the job's, shown beside its status. */
    private readonly describeRepository: (repository: string) => string | undefined = () => undefined,
  ) {
    this.subscription = session.onDidChangeJobs((keys) => this.changed(keys));
  }

  /** Only the rows that changed, unless the list itself (members or order) changed. */
  private changed(keys: JobKey[] | undefined): void {
    // An agent row shows its branch's preview: a deployment's change may be one of theirs.
    if (this.kind === 'agent' && keys?.some((k) => k.startsWith('deployment:')) === true) keys = undefined;
    const order = this.sortedKeys();
    const sameList = order.length === this.order.length && order.every((k, i) => k === this.order[i]);
    if (keys === undefined || !sameList) {
      this.emitter.fire(undefined);
      return;
    }
    const rows = keys.map((k) => this.nodes.get(k)).filter((n): n is JobNode => n !== undefined);
    if (rows.length > 0) this.emitter.fire(rows);
  }

  private jobs(): TrackedJob[] {
    return (this.session.service?.list() ?? []).filter((j) => j.kind === this.kind).sort(compareJobs);
  }

  private sortedKeys(): JobKey[] {
    return this.jobs().map(jobKey);
  }

  private bundleRows(key: JobKey): ShelfRow[] {
    const job = this.session.service?.get(key);
    return job?.kind === 'export' ? shelfRows(this.session.shelf?.get(job.id)) : [];
  }

  getChildren(element?: JobNode): JobNode[] {
    if (element !== undefined) {
      if (element.part !== undefined || element.kind !== 'export') return [];
      return this.bundleRows(element.key).map((row) => {
        const id = `${element.key}/${row.part}`;
        const node = this.parts.get(id) ?? this.issued.issue({ key: element.key, kind: element.kind, part: row.part });
        this.parts.set(id, node);
        return node;
      });
    }
    const jobs = this.jobs();
    const nodes = new Map<JobKey, JobNode>();
    for (const job of jobs) {
      const key = jobKey(job);
      nodes.set(key, this.nodes.get(key) ?? this.issued.issue({ key, kind: job.kind }));
    }
    this.nodes = nodes;
    this.order = [...nodes.keys()];
    return [...nodes.values()];
  }

  getTreeItem(node: JobNode): vscode.TreeItem {
    const service = this.session.service;
    const job = service?.get(node.key);
    if (service === undefined || job === undefined) return new vscode.TreeItem(node.key);
    if (node.part !== undefined) return this.bundleItem(node);
    const p = presentTracked(job, service.errorOf(node.key), Date.now(), this.describeExpiry(node.key));
    const hasRows = this.bundleRows(node.key).length > 0;
    const item = new vscode.TreeItem(p.label, hasRows ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
    item.id = this.issued.itemId(node.key);
    item.description = p.description;
    item.iconPath = new vscode.ThemeIcon(p.icon, p.color === undefined ? undefined : new vscode.ThemeColor(p.color));
    item.contextValue = p.contextValue;
    if (job.kind === 'agent' && job.snapshot !== undefined) {
      const repository = job.snapshot.source.repository;
      const local = repository === undefined ? undefined : this.describeRepository(repository);
      const preview = agentPreviewNote(previewState(previewOfBranch(service.list(), job.snapshot.source.ref, job.id)));
      item.description = [p.description, preview?.note, local].filter((part) => part !== undefined).join(' · ');
      item.contextValue = withPreviewToken(withReviewTokens(p.contextValue, job.snapshot.source), preview?.token);
    }
    item.tooltip = markdownLines(p.label, p.details);
    item.accessibilityInformation = { label: `${p.label}, ${p.description}` };
    return item;
  }

  private bundleItem(node: JobNode): vscode.TreeItem {
    const row = this.bundleRows(node.key).find((r) => r.part === node.part);
    if (row === undefined) return new vscode.TreeItem('');
    const item = new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.None);
    item.id = this.issued.itemId(`${node.key}/${row.part}`);
    item.description = row.description;
    item.iconPath = new vscode.ThemeIcon(row.icon);
    item.contextValue = row.contextValue;
    item.tooltip = row.details.join('\n');
    item.accessibilityInformation = { label: `${row.label}, ${row.description}` };
    return item;
  }

  /** Every row again (the open repositories changed, say). */
  refresh(): void {
    this.emitter.fire(undefined);
  }

  getParent(node: JobNode): JobNode | undefined {
    return node.part === undefined ? undefined : this.nodes.get(node.key);
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}
