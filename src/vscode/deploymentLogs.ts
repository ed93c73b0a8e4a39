/**
 * A deployment's logs as a read-only document that fills in while the deployment runs, as the
 * GitHub Actions extension shows a job's logs: a `TextDocumentContentProvider` for the
 * `docs-admin-deployment` scheme, whose `onDidChange` fires when the deployment's reading
 * changes. The lines come from the one scheduler's polls (a running deployment is polled at
 * least every 5 s); a deployment ended before this window read it is read once when its logs are
 * opened. The document's language turns link detection off (package.json), so nothing in a log
 * line can be clicked; control characters are shown as escapes (core/deployments/logs.ts). An
 * editor whose cursor is on the last line follows the new lines; a failed deployment's logs open
 * on the line that says why, whether from its row or its notification.
 */
import * as vscode from 'vscode';
import { deploymentLabel } from '../core/deployments/present';
import { failureDocumentLine, logDocument } from '../core/deployments/logs';
import type { JobKey } from '../core/jobs/trackedJob';
import type { Session } from './session';

export const LOGS_SCHEME = 'docs-admin-deployment';
export const LOGS_LANGUAGE = 'docs-admin-deployment-log';

export class DeploymentLogs implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  /** Deployments whose logs were asked for and not read yet, per service (read once; a rebuilt session reads again). */
  private readonly reading = new WeakMap<object, Set<JobKey>>();
  /** Each open document's line count, to tell whether its editors were at the end. */
  private readonly lineCounts = new Map<string, number>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly session: Session) {
    this.subscriptions = [
      vscode.workspace.registerTextDocumentContentProvider(LOGS_SCHEME, this),
      this.emitter,
      session.onDidChangeJobs((keys) => {
        for (const doc of vscode.workspace.textDocuments) {
          if (doc.uri.scheme !== LOGS_SCHEME) continue;
          const key = this.keyOf(doc.uri);
          if (keys === undefined || (key !== undefined && keys.includes(key))) this.emitter.fire(doc.uri);
        }
      }),
      vscode.workspace.onDidChangeTextDocument((event) => this.follow(event.document)),
      vscode.workspace.onDidCloseTextDocument((doc) => this.lineCounts.delete(doc.uri.toString())),
    ];
  }

  /** The document's address: the status id, and a name that says what it deployed (its tab's title). */
  uriOf(statusId: string): vscode.Uri {
    const job = this.session.service?.get(`deployment:${statusId}`);
    const label = job?.kind === 'deployment' ? deploymentLabel(job) : statusId;
    const name = `${label.replace(/[\\/:*?"<>|\p{Cc}\p{Cf}]+/gu, '-')} · ${statusId.slice(0, 8)}.deployment-log`;
    return vscode.Uri.from({ scheme: LOGS_SCHEME, path: `/${encodeURIComponent(statusId)}/${name}` });
  }

  private keyOf(uri: vscode.Uri): JobKey | undefined {
    const id = decodeURIComponent(uri.path.split('/')[1] ?? '');
    return id === '' ? undefined : `deployment:${id}`;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const key = this.keyOf(uri);
    const service = this.session.service;
    const job = key === undefined ? undefined : service?.get(key);
    if (key === undefined || service === undefined || job?.kind !== 'deployment') {
      return `${vscode.l10n.t('This deployment is not tracked in the "{0}" environment (Track Deployment… follows one by its status id).', this.session.environment.name)}\n`;
    }
    const lines = service.logsOf(key);
    const asked = this.reading.get(service) ?? new Set<JobKey>();
    this.reading.set(service, asked);
    if (lines === undefined && !asked.has(key)) {
      asked.add(key);
      void service.readNow(key).finally(() => this.emitter.fire(uri));
    }
    const error = service.errorOf(key);
    const text = logDocument(job, lines, Date.now());
    return error === undefined ? text : `${text}${vscode.l10n.t('Last error: {0}', error)}\n`;
  }

  /**
   * Opens the logs in a read-only editor: a failed deployment's on the line that says why (read
   * first, when this window has not read them yet), any other at their end (`atEnd`).
   */
  async open(statusId: string, options: { atEnd?: boolean } = {}): Promise<vscode.TextEditor> {
    const key: JobKey = `deployment:${statusId}`;
    const service = this.session.service;
    const failed = () => {
      const job = service?.get(key);
      return job?.kind === 'deployment' && job.snapshot?.status === 'failure' ? job : undefined;
    };
    if (failed() !== undefined && service?.logsOf(key) === undefined) await service?.readNow(key);
    const uri = this.uriOf(statusId);
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== LOGS_LANGUAGE) await vscode.languages.setTextDocumentLanguage(doc, LOGS_LANGUAGE);
    const job = failed();
    const line = job === undefined ? undefined : failureDocumentLine(job, service?.logsOf(key), Date.now());
    // A document VS Code already held shows the new reading a moment later: its line is placed on that.
    if (line !== undefined && doc.getText() !== this.provideTextDocumentContent(uri)) await this.changeOf(doc);
    const editor = await vscode.window.showTextDocument(doc, { preview: false });
    this.lineCounts.set(doc.uri.toString(), doc.lineCount);
    if (line !== undefined && line < doc.lineCount) {
      const at = new vscode.Position(line, 0);
      editor.selection = new vscode.Selection(at, at);
      editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenter);
    } else if (options.atEnd === true) this.moveToEnd(editor);
    return editor;
  }

  /** The next change of `doc`'s text (or 2 s, whichever comes first). */
  private changeOf(doc: vscode.TextDocument): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(), 2_000);
      const listener = vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.document === doc) done();
      });
      const done = () => {
        clearTimeout(timer);
        listener.dispose();
        resolve();
      };
    });
  }

  private moveToEnd(editor: vscode.TextEditor): void {
    const last = editor.document.lineAt(Math.max(0, editor.document.lineCount - 1)).range.end;
    editor.selection = new vscode.Selection(last, last);
    editor.revealRange(new vscode.Range(last, last), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  /** New lines came: an editor whose cursor was on the last lines moves to the new end. */
  private follow(doc: vscode.TextDocument): void {
    if (doc.uri.scheme !== LOGS_SCHEME) return;
    const before = this.lineCounts.get(doc.uri.toString()) ?? doc.lineCount;
    this.lineCounts.set(doc.uri.toString(), doc.lineCount);
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor.document === doc && editor.selection.isEmpty && editor.selection.active.line >= before - 3) this.moveToEnd(editor);
    }
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
