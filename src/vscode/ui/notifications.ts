import * as vscode from 'vscode';
import { noticeFor, type Notice } from '../../core/jobs/notices';
import type { Transition } from '../../core/jobs/service';
import { readConfig } from '../session/extensionConfig';
import type { Messages } from './messages';
import type { JobNodes } from '../views/jobNodes';

/** Shows notices for finished jobs; remembers the recent ones (tests read them). */
export class Notifier {
  readonly recent: Notice[] = [];
  /** How many notices were ever shown: a mark for `since` (`recent.length` stops at 20). */
  shown = 0;

  constructor(
    private readonly messages: Messages,
    private readonly nodes: JobNodes,
  ) {}

  get last(): Notice | undefined {
    return this.recent[this.recent.length - 1];
  }

  /** The notices shown after `mark` (a `shown` read earlier), of the last 20 kept. */
  since(mark: number): Notice[] {
    return this.shown === mark ? [] : this.recent.slice(-(this.shown - mark));
  }

  show(t: Transition): void {
    const notice = noticeFor(t, readConfig().notifications);
    if (notice === undefined) return;
    this.recent.push(notice);
    this.shown++;
    if (this.recent.length > 20) this.recent.shift();
    // A row of the extension's own: the command takes it as it takes the tree's.
    const node = this.nodes.of(t.key, t.job.kind);
    // The message quotes the server (an export's error, a repository): Messages leaves no link in it.
    void this.messages[notice.severity === 'error' ? 'error' : 'info'](notice.message, ...notice.actions.map((a) => a.title)).then((choice) => {
      const action = notice.actions.find((a) => a.title === choice);
      if (action !== undefined) void vscode.commands.executeCommand(action.command, node);
    });
  }
}
