import * as vscode from 'vscode';
import { registerShowLogs } from './vscode/commands/showLogs';

/** Builds the parts, wires them, registers them. Nothing else: no network, no file scan. */
export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Docs Admin', { log: true });
  context.subscriptions.push(log);
  context.subscriptions.push(registerShowLogs({ log }));
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
