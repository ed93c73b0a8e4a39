import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { RolloutError } from '../../core/helm/publishErrors';
import { describeArgv, rolloutArgv, RolloutTemplateError, type RolloutArgv } from '../../core/helm/rollout';
import type { Messages } from '../ui/messages';
import { PRODUCT_NAME, readConfig } from '../session/extensionConfig';
import { rolloutTerminal } from './rolloutTerminal';

export const ROLLOUT_TASK_TYPE = 'docsAdmin.rollout';

/** The rollout's program and arguments for a values file, from the settings. */
export function rolloutCommand(valuesFile: vscode.Uri): RolloutArgv {
  const r = readConfig().rollout;
  try {
    return rolloutArgv(r.command, { release: r.release, chart: r.chart, valuesFile: valuesFile.fsPath, namespace: r.namespace });
  } catch (error) {
    if (error instanceof RolloutTemplateError) throw new RolloutError(error.message);
    throw error;
  }
}

const APPROVED = 'docsAdmin.rollout.approvedCommands';
/** The rollout settings that make up the command: each may come from the workspace. */
const ROLLOUT_SETTINGS = ['rollout.command', 'rollout.release', 'rollout.chart', 'rollout.namespace'] as const;

/**
 * A rollout whose command, release, chart or namespace comes from this workspace's settings (not
 * the person's own) is shown, whole, before it first runs: a cloned repository must not run a
 * program on Publish unseen, nor hand one arguments the person never saw (a chart of its own, a
 * release that turns a command around). Once agreed to, that exact command runs without asking
 * in this workspace.
 */
async function confirmWorkspaceCommand(state: vscode.Memento, messages: Messages, argv: RolloutArgv): Promise<boolean> {
  const config = vscode.workspace.getConfiguration('docsAdmin');
  const fromWorkspace = ROLLOUT_SETTINGS.filter((name) => {
    const inspected = config.inspect<string>(name);
    return inspected?.workspaceValue !== undefined || inspected?.workspaceFolderValue !== undefined;
  });
  if (fromWorkspace.length === 0) return true;
  const shown = describeArgv(argv);
  const approved = state.get<string[]>(APPROVED, []);
  if (approved.includes(shown)) return true;
  const run = vscode.l10n.t('Run');
  const settings = fromWorkspace.map((name) => `docsAdmin.${name}`).join(', ');
  const choice = await messages.ask('warning', vscode.l10n.t('This workspace\'s settings set the rollout ({0}). Run this command?', settings), { modal: true, detail: shown }, run);
  if (choice !== run) return false;
  await state.update(APPROVED, [...approved, shown]);
  return true;
}

/**
 * Why the rollout cannot run here, if it cannot: it runs a shell command, which Restricted Mode
 * forbids, and it needs a terminal and a path on disk, which a virtual workspace lacks. Checked
 * before anything is started (the commands' `enablement` says the same, but a command run from
 * another extension or a keybinding skips it).
 */
export function rolloutBlocker(valuesFile?: vscode.Uri): string | undefined {
  if (!vscode.workspace.isTrusted) {
    return vscode.l10n.t('The rollout runs a program, which Restricted Mode does not allow. Trust this workspace first (Workspaces: Manage Workspace Trust), or update the values file alone with "Docs Admin: Update Helm Values…".');
  }
  if (valuesFile !== undefined && valuesFile.scheme !== 'file') {
    return vscode.l10n.t('The rollout needs the values file on this machine\'s disk, and {0} is not. Open a local folder, or update the values file alone with "Docs Admin: Update Helm Values…".', `${valuesFile.scheme}:`);
  }
  return undefined;
}

/**
 * Runs the rollout as a VS Code task, so its output shows in a terminal, and resolves when it
 * ends: a non-zero exit is a `RolloutError`. The program is started by Docs Admin itself
 * (rolloutTerminal.ts: no shell, no variable substitution, no admin key). Cancelling stops it.
 */
export async function runRolloutTask(valuesFile: vscode.Uri, deps: { context: vscode.ExtensionContext; messages: Messages }, signal?: AbortSignal): Promise<void> {
  const argv = rolloutCommand(valuesFile);
  if (!(await confirmWorkspaceCommand(deps.context.workspaceState, deps.messages, argv))) {
    throw new RolloutError(vscode.l10n.t('The rollout set by the workspace settings was not run.'));
  }
  const folder = vscode.workspace.getWorkspaceFolder(valuesFile);
  const cwd = folder?.uri.fsPath ?? dirname(valuesFile.fsPath);
  // Tells this run's task from another's.
  const run = randomBytes(6).toString('hex');
  return new Promise<void>((resolve, reject) => {
    let execution: vscode.TaskExecution | undefined;
    const abort = () => execution?.terminate();
    const task = new vscode.Task(
      { type: ROLLOUT_TASK_TYPE, valuesFile: valuesFile.fsPath, run },
      folder ?? vscode.TaskScope.Workspace,
      vscode.l10n.t('Roll out the docs deployment'),
      PRODUCT_NAME,
      new vscode.CustomExecution(() =>
        Promise.resolve(
          rolloutTerminal(argv, cwd, (error) => {
            signal?.removeEventListener('abort', abort);
            if (error === undefined) resolve();
            else reject(error);
          }),
        ),
      ),
    );
    task.presentationOptions = { reveal: vscode.TaskRevealKind.Always, panel: vscode.TaskPanelKind.Dedicated, clear: true };
    signal?.addEventListener('abort', abort, { once: true });
    vscode.tasks.executeTask(task).then(
      (started) => {
        execution = started;
        if (signal?.aborted === true) started.terminate();
      },
      (error: unknown) => {
        signal?.removeEventListener('abort', abort);
        reject(new RolloutError(vscode.l10n.t('The rollout task could not start: {0}', error instanceof Error ? error.message : String(error))));
      },
    );
  });
}
