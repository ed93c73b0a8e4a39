import * as vscode from 'vscode';
import { statusText } from '../../core/jobs/statusBarText';
import type { Session } from '../session/environmentSession';
import type { StatusItem, Ui } from '../ui/ui';

export class JobsStatusBar implements vscode.Disposable {
  private readonly item: StatusItem;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly session: Session,
    ui: Ui,
  ) {
    this.item = ui.statusItem('docsAdmin.running', vscode.StatusBarAlignment.Left, 50);
    this.item.name = vscode.l10n.t('Docs Admin: running jobs');
    this.item.command = 'workbench.view.extension.docsAdmin';
    this.subscription = session.onDidChangeJobs(() => this.update());
    this.update();
  }

  /** What the item shows now (the text without its icon), for tests. */
  get text(): string | undefined {
    return this.visible ? this.item.text.replace(/^\$\([^)]+\)\s*/, '').replace(/\\\$\(/g, '$(') : undefined;
  }

  private visible = false;

  update(): void {
    const status = statusText(this.session.service?.running() ?? []);
    if (status === undefined) {
      this.item.hide();
      this.visible = false;
      return;
    }
    // A branch name is server (or git) text: `$(name)` in it would draw an icon.
    this.item.text = `$(sync~spin) ${status.text.replace(/\$\(/g, '\\$(')}`;
    this.item.tooltip = [vscode.l10n.t('Docs Admin ({0})', this.session.environment.name), ...status.lines, vscode.l10n.t('Click to show the jobs.')].join('\n');
    this.item.show();
    this.visible = true;
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
