/**
 * What every command is built with: the parts it may use (`Deps`), the one wrapper that
 * registers it (`command`), and the checks most commands start with.
 */
import * as vscode from 'vscode';
import type { Logger } from '../../core/log';
import type { PromptComposer } from '../agent/composer';
import type { ClientTriggers } from '../deployments/clientTriggers';
import type { DeploymentLogs } from '../deployments/logDocuments';
import { codeArgs, isFromCode } from './fromCode';
import type { GitAccess } from '../git/gitAccess';
import type { KeyStore } from '../session/keys';
import type { Messages } from '../ui/messages';
import type { PreviewManager } from '../serve/servedBundles';
import type { Readers } from '../readers/readers';
import type { Session } from '../session/environmentSession';
import type { JobNode, JobNodes } from '../views/jobNodes';
import type { Ui } from '../ui/ui';
import type { ValuesDiagnostics } from '../values/diagnostics';
import type { SetupProgress } from '../ui/walkthrough';

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
  /** The rows this extension handed out: a command takes a row only when it is one of these. */
  nodes: JobNodes;
  /** The walkthrough's progress (a publish completes its last step). */
  setup: SetupProgress;
  /** The bundle previews running in this window. */
  previews: PreviewManager;
  /** The agent prompt drafts and their editors. */
  composer: PromptComposer;
  /** The built-in Git extension, when enabled (Review Changes, Check Out Agent Branch). */
  git: GitAccess;
  /** The values files' diagnostics: which file a quick fix's token stands for. */
  values: Pick<ValuesDiagnostics, 'fileOfToken'>;
  /** Deployment, preview and automation triggers, per API client (paced, one in flight each). */
  triggers: ClientTriggers;
  /** The deployments' log documents. */
  logs: DeploymentLogs;
  /** The reader analytics: the model, the Readers view, the docs roots. */
  readers: Readers;
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

/**
 * Whether `value` is one of the rows this extension handed out (its tree's, or its own code's),
 * checked by identity: a link's JSON that reads like a row is not one (see tree/jobNodes.ts).
 */
export function isJobNode(deps: Pick<Deps, 'nodes'>, value: unknown): value is JobNode {
  return deps.nodes.has(value);
}

/** The refusal of an argument that did not come from Docs Admin (a link in a message, a page, another extension's Markdown). */
export function fromOutside(id: string): Error {
  return new Error(vscode.l10n.t('{0} was run with options that choose files or skip its questions, from outside Docs Admin (a link in a message?): refused. Run it from the Command Palette or the Docs Admin views.', id));
}

/**
 * A command's first argument when it takes a row: one of the rows handed out, or none (the
 * palette). Anything else (a link's JSON, a Uri, a string) is refused, and nothing is done.
 */
export function rowOrNone(deps: Pick<Deps, 'nodes'>, value: unknown, id: string): JobNode | undefined {
  if (value === undefined || value === null) return undefined;
  if (isJobNode(deps, value)) return value;
  throw fromOutside(id);
}

/**
 * A command's options that choose files or skip its questions, only when they came from code
 * (see fromCode.ts): from a link in a message, or anything else that passes plain JSON, they
 * are refused, and the command does nothing. A row (a view's title bar hands a command the row
 * in focus) is no option: the command runs as from the palette.
 */
export function optionsFromCode<T extends object>(deps: Pick<Deps, 'nodes'>, given: T | undefined, id: string): Partial<T> {
  if (isJobNode(deps, given)) return {};
  const args = codeArgs(given);
  if (args === undefined) throw fromOutside(id);
  return args;
}

/**
 * The value a command that asks for one (a base URL, a project id, an environment, a job id, a
 * domain) was given: `value` from code (`fromCode({ value })`) is used as it is; a string from
 * anywhere else (a link: `command:docsAdmin.baseUrl.set?["https://…"]`) is only `suggested`,
 * shown in the box for the person to confirm or change. Anything else is not used.
 */
export function valueFromCode(given: unknown): { value?: string; suggested?: string } {
  if (isFromCode(given)) {
    const value = (given as { value?: unknown }).value;
    return typeof value === 'string' ? { value } : {};
  }
  return typeof given === 'string' ? { suggested: given } : {};
}
