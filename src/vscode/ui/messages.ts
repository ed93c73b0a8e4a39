/**
 * The one way this extension shows a message (`window.show*Message` is off limits elsewhere,
 * by a lint rule). VS Code renders `[label](command:…)`, `[label](https:…)` and
 * `[label](file:…)` in a message as a link, even in Restricted Mode, and a click runs the
 * command with the arguments in the link: a server's error text or an archive's entry name
 * carrying that syntax could re-point the base URL or type into a terminal. None of this
 * extension's own messages holds a link, so the whole text goes through `forMessage` here:
 * whatever a message quotes, nothing in it can be clicked. The raw values go to the log only.
 */
import * as vscode from 'vscode';
import { forMessage, forMessageLines } from '../../core/untrusted';

export type Severity = 'error' | 'warning' | 'info';

/** A message as it was handed to the workbench (tests read these); `status`: in the status bar. */
export interface ShownMessage {
  severity: Severity | 'status';
  text: string;
  detail?: string;
  items: string[];
  /** A modal dialog: it waits for an answer. */
  modal?: boolean;
}

export class Messages {
  /** The last 50 messages shown, oldest first. */
  readonly recent: ShownMessage[] = [];
  /** How many messages were ever shown: a mark for `since` (`recent.length` stops at 50). */
  shown = 0;

  /** The messages shown after `mark` (a `shown` read earlier), of the last 50 kept. */
  since(mark: number): ShownMessage[] {
    return this.shown === mark ? [] : this.recent.slice(-(this.shown - mark));
  }

  error(text: string, ...items: string[]): Thenable<string | undefined> {
    return this.show('error', text, undefined, items);
  }

  warn(text: string, ...items: string[]): Thenable<string | undefined> {
    return this.show('warning', text, undefined, items);
  }

  info(text: string, ...items: string[]): Thenable<string | undefined> {
    return this.show('info', text, undefined, items);
  }

  /**
   * With options: a modal, or a detail line. A question the workbench would not show (VS Code
   * refuses modal dialogs in an extension test host) is a question not answered: `undefined`.
   */
  ask(severity: Severity, text: string, options: vscode.MessageOptions, ...items: string[]): Thenable<string | undefined> {
    return this.show(severity, text, options, items).then(undefined, () => undefined);
  }

  /** A passing note in the status bar, hidden after `hideAfterMs`. */
  status(text: string, hideAfterMs: number): vscode.Disposable {
    const safe = forMessage(text);
    this.record({ severity: 'status', text: safe, items: [] });
    return vscode.window.setStatusBarMessage(safe, hideAfterMs);
  }

  private record(message: ShownMessage): void {
    this.recent.push(message);
    this.shown++;
    if (this.recent.length > 50) this.recent.shift();
  }

  private show(severity: Severity, text: string, options: vscode.MessageOptions | undefined, items: string[]): Thenable<string | undefined> {
    const safe = forMessage(text);
    const safeOptions = options?.detail === undefined ? options : { ...options, detail: forMessageLines(options.detail) };
    this.record({ severity, text: safe, ...(safeOptions?.detail === undefined ? {} : { detail: safeOptions.detail }), items, ...(options?.modal === true ? { modal: true } : {}) });
    const window = vscode.window;
    switch (severity) {
      case 'error':
        return safeOptions === undefined ? window.showErrorMessage(safe, ...items) : window.showErrorMessage(safe, safeOptions, ...items);
      case 'warning':
        return safeOptions === undefined ? window.showWarningMessage(safe, ...items) : window.showWarningMessage(safe, safeOptions, ...items);
      case 'info':
        return safeOptions === undefined ? window.showInformationMessage(safe, ...items) : window.showInformationMessage(safe, safeOptions, ...items);
    }
  }
}
