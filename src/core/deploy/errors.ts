/** What can stop a publish, light enough for the editor to load at start. */
import * as l10n from '@vscode/l10n';

export class ExportFailedError extends Error {
  constructor(
    readonly jobId: string,
    readonly reason: string | undefined,
  ) {
    super(
      reason
        ? l10n.t('The export {0} failed: {1}. Nothing was changed; fix the cause and publish again.', jobId, reason)
        : l10n.t('The export {0} failed. Nothing was changed; fix the cause and publish again.', jobId),
    );
    this.name = 'ExportFailedError';
  }
}

export class RolloutError extends Error {
  constructor(message: string, readonly exitCode?: number) {
    super(message);
    this.name = 'RolloutError';
  }
}

/**
 * The values file changed after it was read (in an editor, by another program, by git): it was
 * not written over. The change someone else made is kept.
 */
export class ValuesChangedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ValuesChangedError';
  }
}
