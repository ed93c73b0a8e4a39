/**
 * The views' badges: each of Agent Jobs, Static Exports and Deployments counts the jobs that
 * ended while it was out of sight (the ends the notifications announce), and is cleared when it
 * is seen. A job no longer tracked stops counting; another environment starts from nothing.
 */
import * as vscode from 'vscode';
import { jobKey, type TrackedJob } from '../../core/jobs/trackedJob';
import { UnseenEnds } from '../../core/jobs/unseen';
import type { Session } from '../session/environmentSession';
import type { JobNode } from './jobsTree';

type Kind = TrackedJob['kind'];

export class ViewBadges implements vscode.Disposable {
  private readonly unseen = new UnseenEnds();
  /** The count each badge shows (a badge is set only when it changes). */
  private readonly shown = new Map<Kind, number>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly session: Session,
    private readonly views: Record<Kind, vscode.TreeView<JobNode>>,
  ) {
    this.subscriptions = [
      session.onDidTransition((t) => {
        this.unseen.ended(t.job.kind, t.key, this.views[t.job.kind].visible);
        this.show(t.job.kind);
      }),
      session.onDidChangeJobs(() => {
        this.unseen.keepOnly(new Set((session.service?.list() ?? []).map(jobKey)));
        this.showAll();
      }),
      ...(Object.keys(views) as Kind[]).map((kind) =>
        views[kind].onDidChangeVisibility((e) => {
          if (!e.visible) return;
          this.unseen.seen(kind);
          this.show(kind);
        }),
      ),
    ];
  }

  private showAll(): void {
    for (const kind of Object.keys(this.views) as Kind[]) this.show(kind);
  }

  private show(kind: Kind): void {
    const count = this.unseen.count(kind);
    if ((this.shown.get(kind) ?? 0) === count) return;
    this.shown.set(kind, count);
    const tooltip =
      kind === 'agent'
        ? vscode.l10n.t({ message: '{0} agent jobs ended since you last looked', args: [count], comment: ['The badge on the Agent Jobs view'] })
        : kind === 'export'
          ? vscode.l10n.t({ message: '{0} static exports ended since you last looked', args: [count], comment: ['The badge on the Static Exports view'] })
          : vscode.l10n.t({ message: '{0} deployments ended since you last looked', args: [count], comment: ['The badge on the Deployments view'] });
    this.views[kind].badge = count === 0 ? undefined : { value: count, tooltip };
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
