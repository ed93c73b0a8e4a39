import * as vscode from 'vscode';

export function registerShowLogs(deps: { log: vscode.LogOutputChannel }): vscode.Disposable {
  return vscode.commands.registerCommand('docsAdmin.logs.show', () => deps.log.show(true));
}
