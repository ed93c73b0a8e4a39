import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { RolloutError } from '../core/deploy/errors';
import { describeArgv, rolloutArgv, RolloutTemplateError, type RolloutArgv } from '../core/deploy/rollout';
import type { Messages } from './messages';
import { PRODUCT_NAME, readConfig } from './config';

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

/**
 * A rollout command set in this workspace's settings (not the person's own) is shown, whole,
 * before it first runs: a cloned repository must not run a program on Publish unseen. Once
 * agreed to, that exact command runs without asking in this workspace.
 */
async function confirmWorkspaceCommand(state: vscode.Memento, messages: Messages, argv: RolloutArgv): Promise<boolean> {
  const inspected = vscode.workspace.getConfiguration('docsAdmin').inspect<string>('rollout.command');
  if (inspected?.workspaceValue === undefined && inspected?.workspaceFolderValue === undefined) return true;
  const shown = describeArgv(argv);
  const approved = state.get<string[]>(APPROVED, []);
  if (approved.includes(shown)) return true;
  const run = vscode.l10n.t('Run');
  const choice = await messages.ask('warning', vscode.l10n.t('This workspace\'s settings set the rollout command (docsAdmin.rollout.command). Run it?'), { modal: true, detail: shown }, run);
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
    return vscode.l10n.t('The rollout runs a shell command, which Restricted Mode does not allow. Trust this workspace first (Workspaces: Manage Workspace Trust), or update the values file alone with "Docs Admin: Update Helm Values…".');
  }
  if (valuesFile !== undefined && valuesFile.scheme !== 'file') {
    return vscode.l10n.t('The rollout needs the values file on this machine\'s disk, and {0} is not. Open a local folder, or update the values file alone with "Docs Admin: Update Helm Values…".', `${valuesFile.scheme}:`);
  }
  return undefined;
}

/**
 * Runs the rollout as a VS Code task, so its output shows in a terminal, and resolves when it
 * ends: a non-zero exit is a `RolloutError`. Cancelling terminates the task.
 */
export async function runRolloutTask(valuesFile: vscode.Uri, deps: { context: vscode.ExtensionContext; messages: Messages }, signal?: AbortSignal): Promise<void> {
  const argv = rolloutCommand(valuesFile);
  if (!(await confirmWorkspaceCommand(deps.context.workspaceState, deps.messages, argv))) {
    throw new RolloutError(vscode.l10n.t('The rollout command from the workspace settings was not run.'));
  }
  const folder = vscode.workspace.getWorkspaceFolder(valuesFile);
  // Tells this run's end from another's, even when it ends before executeTask resolves.
  const run = randomBytes(6).toString('hex');
  const task = new vscode.Task(
    { type: ROLLOUT_TASK_TYPE, valuesFile: valuesFile.fsPath, run },
    folder ?? vscode.TaskScope.Workspace,
    vscode.l10n.t('Roll out the docs deployment'),
    PRODUCT_NAME,
    // One program and its arguments, no shell (see core/deploy/rollout.ts). The admin key is
    // never the rollout's business: emptied even when VS Code itself was started with it (a
    // task's environment is merged over VS Code's, so a variable can be emptied, not removed;
    // the CLI and the API take an empty key for none).
    new vscode.ProcessExecution(argv.program, argv.args, {
      cwd: folder?.uri.fsPath ?? dirname(valuesFile.fsPath),
      env: { DOCS_ADMIN_API_KEY: '' },
    }),
  );
  task.presentationOptions = { reveal: vscode.TaskRevealKind.Always, panel: vscode.TaskPanelKind.Dedicated, clear: true };
  return new Promise<void>((resolve, reject) => {
    let execution: vscode.TaskExecution | undefined;
    const ended = vscode.tasks.onDidEndTaskProcess((e) => {
      if ((e.execution.task.definition as { run?: string }).run !== run) return;
      ended.dispose();
      signal?.removeEventListener('abort', abort);
      if (e.exitCode === 0) resolve();
      else
        reject(
          new RolloutError(
            e.exitCode === undefined ? vscode.l10n.t('The rollout command failed (it was stopped); see its terminal.') : vscode.l10n.t('The rollout command failed (exit code {0}); see its terminal.', e.exitCode),
            e.exitCode,
          ),
        );
    });
    const abort = () => execution?.terminate();
    signal?.addEventListener('abort', abort, { once: true });
    vscode.tasks.executeTask(task).then(
      (started) => {
        execution = started;
      },
      (error: unknown) => {
        ended.dispose();
        reject(new RolloutError(vscode.l10n.t('The rollout task could not start: {0}', error instanceof Error ? error.message : String(error))));
      },
    );
  });
}
