/**
 * What every command is built with: the parts it may use (`Deps`), the one wrapper that
 * registers it (`command`), and the checks most commands start with.
 */
import * as vscode from 'vscode';
import type { Logger } from '../core/log';
import type { PromptComposer } from './composer';
import type { KeyStore } from './keys';
import type { PreviewManager } from './preview';
import type { Session } from './session';
import type { JobNode } from './tree/jobsTree';
import type { SetupProgress } from './walkthrough';

export interface Deps {
  context: vscode.ExtensionContext;
  session: Session;
  keys: KeyStore;
  log: Logger;
  channel: vscode.LogOutputChannel;
  reveal: (node: JobNode) => void;
  /** The walkthrough's progress (a publish completes its last step). */
  setup: SetupProgress;
  /** The bundle previews running in this window. */
  previews: PreviewManager;
  /** The agent prompt drafts and their editors. */
  composer: PromptComposer;
}

/**
 * Registers a command, wrapped once: an error is logged with its stack and shown with a
 * "Show Logs" action; the handler's result is returned (tests read it).
 */
export function command<A extends unknown[]>(id: string, deps: Pick<Deps, 'log' | 'channel'>, handler: (...args: A) => unknown): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: A) => {
    try {
      return await handler(...args);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      deps.log.error(`${id} failed: ${error instanceof Error ? (error.stack ?? message) : message}`);
      const showLogs = vscode.l10n.t('Show Logs');
      void vscode.window.showErrorMessage(message, showLogs).then((choice) => {
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
