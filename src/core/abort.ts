/**
 * Cancellation, for every part of the core: the error a cancelled piece of work ends with (an
 * API call, a download, an extraction, a wait), and a wait that an AbortSignal cuts short.
 */
import * as l10n from '@vscode/l10n';

/** The person (or the caller's AbortSignal) cancelled the work; nothing failed. */
export class AbortedError extends Error {
  constructor() {
    super(l10n.t('Cancelled.'));
    this.name = 'AbortedError';
  }
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortedError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
