import * as vscode from 'vscode';
import { AbortedError } from '../core/abort';
import { forMessage } from '../core/untrusted';

/**
 * Long work in a notification with Cancel; Cancel becomes an AbortSignal. The title and the
 * progress messages render links as a message does: they go through `forMessage`. Resolves `undefined`
 * when the person cancelled (the work's AbortedError), and rethrows anything else.
 */
export async function withCancellableProgress<T>(title: string, work: (progress: vscode.Progress<{ message?: string; increment?: number }>, signal: AbortSignal) => Promise<T>): Promise<T | undefined> {
  return vscode.window
    .withProgress({ location: vscode.ProgressLocation.Notification, title: forMessage(title), cancellable: true }, async (progress, token) => {
      const controller = new AbortController();
      const cancel = token.onCancellationRequested(() => controller.abort());
      const safe = { report: (value: { message?: string; increment?: number }) => progress.report(value.message === undefined ? value : { ...value, message: forMessage(value.message) }) };
      try {
        return await work(safe, controller.signal);
      } finally {
        cancel.dispose();
      }
    })
    .then(undefined, (error: unknown) => {
      if (error instanceof AbortedError) return undefined;
      throw error;
    });
}
