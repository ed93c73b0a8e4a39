/** Exit codes, and the one line a person reads when something failed. */
import * as l10n from '@vscode/l10n';

export const EXIT = {
  ok: 0,
  jobFailed: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  unavailable: 5,
  badBundle: 6,
  /** The server refused the request (400, or another 4xx than 401, 403, 404, 409 and 429): what was sent was not accepted. */
  refused: 7,
} as const;

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** DOCS_ADMIN_API_KEY is not set. */
export class MissingKeyError extends Error {
  constructor() {
    super(l10n.t("DOCS_ADMIN_API_KEY is not set. Put the admin key (from the dashboard's API keys page) in that environment variable; it is never taken as a flag."));
    this.name = 'MissingKeyError';
  }
}

/** A job ended in failure (the message says which and why). */
export class JobFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JobFailedError';
  }
}

/**
 * The exit code for what ended a command. The error classes are loaded here, when something
 * failed, not at start: most of them come with the module that throws them.
 */
export async function exitCodeOf(error: unknown): Promise<number> {
  const [{ AuthError, ConflictError, ForbiddenError, NotFoundError, RequestRejectedError }, { DiskSpaceError }, { BundleDownloadError }, { TargetFolderError }, { ValuesFileError }, { ExportFailedError, InsecureBundleUrlError, RolloutError, ValuesChangedError }, { UnsafeArchiveError }, { DocsRootError }] = await Promise.all([
    import('../core/api/errors.js'),
    import('../core/bundle/diskSpace.js'),
    import('../core/bundle/download/errors.js'),
    import('../core/bundle/extract/extract.js'),
    import('../core/deploy/values.js'),
    import('../core/deploy/errors.js'),
    import('../core/bundle/extract/archivePaths.js'),
    import('../core/site/errors.js'),
  ]);
  if (error instanceof UsageError || error instanceof DocsRootError || error instanceof ValuesFileError || error instanceof TargetFolderError || error instanceof DiskSpaceError || error instanceof ValuesChangedError) return EXIT.usage;
  if (error instanceof JobFailedError || error instanceof ExportFailedError || error instanceof RolloutError || error instanceof ConflictError) return EXIT.jobFailed;
  if (error instanceof AuthError || error instanceof ForbiddenError || error instanceof MissingKeyError) return EXIT.auth;
  if (error instanceof NotFoundError) return EXIT.notFound;
  if (error instanceof RequestRejectedError) return EXIT.refused;
  if (error instanceof UnsafeArchiveError || error instanceof InsecureBundleUrlError) return EXIT.badBundle;
  if (error instanceof BundleDownloadError) {
    if (error.reason === 'size' || error.reason === 'link') return EXIT.badBundle;
    if (error.reason === 'exists' || error.reason === 'disk') return EXIT.usage;
    if (error.reason === 'http' && error.status === 404) return EXIT.notFound;
    return EXIT.unavailable;
  }
  // The rest: network, server, timeout, cancellation (ApiError), an expired link that would not
  // renew (ExpiredLinkError), a new link that came expired each time (LinkExpiredOnArrivalError),
  // a wait that gave up (WaitTimeoutError), anything unforeseen.
  return EXIT.unavailable;
}
