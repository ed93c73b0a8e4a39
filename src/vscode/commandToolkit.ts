/**
 * What every command is built with: the parts it may use (`Deps`), the one wrapper that
 * registers it (`command`), and the checks most commands start with.
 */
import * as vscode from 'vscode';
import type { Logger } from '../core/log';
import type { PromptComposer } from './composer';
import { codeArgs } from './fromCode';
import type { GitAccess } from './git/gitAccess';
import type { KeyStore } from './keys';
import type { Messages } from './messages';
import type { PreviewManager } from './preview';
import type { Session } from './session';
import type { JobNode } from './tree/jobsTree';
import type { Ui } from './ui';
import type { SetupProgress } from './walkthrough';

export interface Deps {
  context: vscode.ExtensionContext;
  session: Session;
  keys: KeyStore;
  log: Logger;
  channel: vscode.LogOutputChannel;
  /** The one way to show a message: it makes whatever the text quotes safe (no links). */
  messages: Messages;
  /** The one way to every other text VS Code renders (progress, input boxes, quick picks, dialogs, the status bar). */
  ui: Ui;
  reveal: (node: JobNode) => void;
  /** The walkthrough's progress (a publish completes its last step). */
  setup: SetupProgress;
  /** The bundle previews running in this window. */
  previews: PreviewManager;
  /** The agent prompt drafts and their editors. */
  composer: PromptComposer;
  /** The built-in Git extension, when enabled (Review Changes, Check Out Agent Branch). */
  git: GitAccess;
}

/**
 * Registers a command, wrapped once: an error is logged with its stack and shown with a
 * "Show Logs" action; the handler's result is returned (tests read it). The message often
 * quotes outside text (a server's error, an entry name): it is shown through `Messages`, which
 * leaves nothing in it clickable; the raw text is in the log.
 */
export function command<A extends unknown[]>(id: string, deps: Pick<Deps, 'log' | 'channel' | 'messages'>, handler: (...args: A) => unknown): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: A) => {
    try {
      return await handler(...args);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      deps.log.error(`${id} failed: ${error instanceof Error ? (error.stack ?? message) : message}`);
      const showLogs = vscode.l10n.t('Show Logs');
      void deps.messages.error(message, showLogs).then((choice) => {
        if (choice === showLogs) deps.channel.show(true);
      });
      return undefined;
    }
  });
}

/** The service, or an error that says what to set up first. */
export function requireService(deps: Pick<Deps, 'session'>) {
  const service = deps.session.service;
  if (service === undefined) {
    throw new Error(vscode.l10n.t('Set the base URL and project id of the "{0}" environment first (Docs Admin: Set Base URL, Docs Admin: Set Project ID).', deps.session.environment.name));
  }
  return service;
}

export function isJobNode(value: unknown): value is JobNode {
  return typeof value === 'object' && value !== null && typeof (value as JobNode).key === 'string';
}

/**
 * A command's options that choose files or skip its questions, only when they came from code
 * (see fromCode.ts): from a link in a message, or anything else that passes plain JSON, they
 * are refused, and the command does nothing.
 */
export function optionsFromCode<T extends object>(given: T | undefined, id: string): Partial<T> {
  const args = codeArgs(given);
  if (args === undefined) {
    throw new Error(vscode.l10n.t('{0} was run with options that choose files or skip its questions, from outside Docs Admin (a link in a message?): refused. Run it from the Command Palette or the Docs Admin views.', id));
  }
  return args;
}
