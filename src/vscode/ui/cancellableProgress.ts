import * as vscode from 'vscode';
import { AbortedError } from '../../core/abort';
import type { ProgressReport, Ui } from './ui';

/**
 * Long work in a notification with Cancel; Cancel becomes an AbortSignal. The title and the
 * progress messages render links as a message does: they go through Ui, which makes them safe.
 * Resolves `undefined` when the person cancelled (the work's AbortedError), and rethrows anything else.
 */
export async function withCancellableProgress<T>(ui: Ui, title: string, work: (progress: vscode.Progress<ProgressReport>, signal: AbortSignal) => Promise<T>): Promise<T | undefined> {
  return ui
    .progress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
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
