/** What can stop a publish, light enough for the editor to load at start. */

export class ExportFailedError extends Error {
  constructor(
    readonly jobId: string,
    readonly reason: string | undefined,
  ) {
    super(`The export ${jobId} failed${reason ? `: ${reason}` : ''}. Nothing was changed; fix the cause and publish again.`);
    this.name = 'ExportFailedError';
  }
}

export class RolloutError extends Error {
  constructor(message: string, readonly exitCode?: number) {
    super(message);
    this.name = 'RolloutError';
  }
}
