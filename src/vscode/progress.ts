import * as vscode from 'vscode';
import { AbortedError } from '../core/abort';

/**
 * Long work in a notification with Cancel; Cancel becomes an AbortSignal. Resolves `undefined`
 * when the person cancelled (the work's AbortedError), and rethrows anything else.
 */
export async function withCancellableProgress<T>(title: string, work: (progress: vscode.Progress<{ message?: string; increment?: number }>, signal: AbortSignal) => Promise<T>): Promise<T | undefined> {
  return vscode.window
    .withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
      const controller = new AbortController();
      const cancel = token.onCancellationRequested(() => controller.abort());
      try {
        return await work(progress, controller.signal);
      } finally {
        cancel.dispose();
      }
    })
    .then(undefined, (error: unknown) => {
      if (error instanceof AbortedError) return undefined;
      throw error;
    });
}
