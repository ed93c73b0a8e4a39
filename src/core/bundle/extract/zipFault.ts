/** A zip's check failed (zipCheck.ts); apart, so that the check's thread loads the zip reader only for a zip. */

/** Why a zip did not check out. `truncated`: its end (the central directory) is missing, as when bytes are still to come. */
export class ZipFault extends Error {
  constructor(
    readonly detail: string,
    readonly truncated: boolean,
    readonly unsupported = false,
  ) {
    super(detail);
    this.name = 'ZipFault';
  }
}
