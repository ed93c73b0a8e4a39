import * as vscode from 'vscode';
import { command, type Deps } from '../commandKit/commandToolkit';

/** Show Logs and Get Started. */
export function register(deps: Deps): vscode.Disposable[] {
  return [
    command('docsAdmin.logs.show', deps, () => deps.channel.show(true)),
    command('docsAdmin.walkthrough.open', deps, () =>
      vscode.commands.executeCommand('workbench.action.openWalkthrough', `${deps.context.extension.id}#gettingStarted`, false),
    ),
  ];
}
