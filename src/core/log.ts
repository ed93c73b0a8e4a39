/**
 * The logger the core writes to. The extension hands it a LogOutputChannel; the CLI a
 * stderr writer; tests a recorder. Callers pass text that is already redacted (see
 * `redact.ts`): a logger never sees a key or a presigned signature.
 */
export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** A logger that drops everything, for callers that do not care. */
export const silentLogger: Logger = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
