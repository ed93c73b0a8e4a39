/**
 * The rollout's terminal: a pseudoterminal that runs the program itself (`child_process.spawn`,
 * no shell) and shows what it prints. Through a `ProcessExecution`, VS Code would first resolve
 * `${env:…}`, `${config:…}` and `${command:…}` in the program and each argument (its task
 * system's variable substitution), so a release name or a path holding `${command:…}` would run
 * a command, and the check for a leading `-` would see the text before it was replaced. Here
 * nothing is substituted: each argument reaches the program exactly as the settings give it.
 * The admin key is not in the program's environment, under any spelling of its name. The program
 * is the file PATH names for it (core/deploy/programPath.ts), never one in the workspace, and the
 * terminal's first line shows it by its full path.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as vscode from 'vscode';
import { RolloutError } from '../core/deploy/errors';
import { describeArgv, type RolloutArgv } from '../core/deploy/rollout';
import { rolloutEnvironment, rolloutProgramPath } from '../core/deploy/rolloutProcess';

/** How the run ended: `undefined` when the program exited 0. */
export type RolloutEnd = (error: RolloutError | undefined) => void;

/** A terminal shows `\r\n` as a new line; a program prints `\n`. */
const lines = (text: string) => text.replace(/\r?\n/g, '\r\n');

export function rolloutTerminal(argv: RolloutArgv, cwd: string, ended: RolloutEnd): vscode.Pseudoterminal {
  const write = new vscode.EventEmitter<string>();
  const close = new vscode.EventEmitter<number | void>();
  let child: ChildProcess | undefined;
  let done = false;
  const finish = (code: number, error: RolloutError | undefined) => {
    if (done) return;
    done = true;
    close.fire(code);
    ended(error);
  };
  return {
    onDidWrite: write.event,
    onDidClose: close.event,
    open: () => {
      const env = rolloutEnvironment(process.env);
      let program: string;
      try {
        // The file PATH names for the program, never one in the workspace (Windows would look there first).
        program = rolloutProgramPath(argv.program, env, cwd);
      } catch (error) {
        const failure = error instanceof RolloutError ? error : new RolloutError(String(error));
        write.fire(lines(`> ${describeArgv(argv)}\n\n${failure.message}\n`));
        finish(1, failure);
        return;
      }
      // Which one runs, by its full path.
      write.fire(lines(`> ${describeArgv({ program, args: argv.args })}\n\n`));
      child = spawn(program, argv.args, { cwd, env, shell: false, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
      for (const stream of [child.stdout, child.stderr]) {
        stream?.setEncoding('utf8');
        stream?.on('data', (chunk: string) => write.fire(lines(chunk)));
      }
      child.on('error', (error) => {
        write.fire(lines(`\n${error.message}\n`));
        finish(1, new RolloutError(vscode.l10n.t('The rollout command could not run: {0}.', error.message)));
      });
      child.on('close', (code, signal) => {
        if (code === 0) return finish(0, undefined);
        finish(
          code ?? 1,
          code === null
            ? new RolloutError(vscode.l10n.t('The rollout command failed (it was stopped, {0}); see its terminal.', String(signal)))
            : new RolloutError(vscode.l10n.t('The rollout command failed (exit code {0}); see its terminal.', code), code),
        );
      });
    },
    // The terminal closed, or the task was terminated (Cancel): the program is stopped.
    close: () => {
      if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill();
      else if (child === undefined) finish(1, new RolloutError(vscode.l10n.t('The rollout command failed (it was stopped); see its terminal.')));
    },
  };
}
