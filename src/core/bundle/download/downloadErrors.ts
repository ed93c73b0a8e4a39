/**
 * What can go wrong fetching a bundle, each with what to do about it. Messages never hold a
 * presigned query string (links are shown with `redactUrl`).
 */
import * as l10n from '@vscode/l10n';

export type DownloadFailure =
  /** The bytes that came are not the bytes promised (Content-Length, Content-Range, sizeBytes). */
  | 'size'
  /** The object store answered with an error status. */
  | 'http'
  /** The file at the target exists and replacing it was not agreed. */
  | 'exists'
  /** The disk refused: full, read-only, no permission. */
  | 'disk'
  /** The connection kept failing without progress. */
  | 'network'
  /** The link is not one we may fetch (scheme, host). */
  | 'link';

export class BundleDownloadError extends Error {
  constructor(
    readonly reason: DownloadFailure,
    message: string,
    options: { status?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'BundleDownloadError';
    this.status = options.status;
  }

  readonly status: number | undefined;
}

/** The link expired and regenerating it did not help (usually a clock far off on one side). */
export class ExpiredLinkError extends Error {
  constructor(detail: string) {
    super(l10n.t("The bundle link keeps being refused as expired ({0}), even after generating a new one. Check that this computer's clock is right, then download again.", detail));
    this.name = 'ExpiredLinkError';
  }
}
