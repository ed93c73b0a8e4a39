/**
 * A storage answer as the download reads it: a status, headers, and a body that hands its bytes
 * to the reader as they come (the reader copies what it keeps), with pause, resume and destroy.
 * Node's own `http.IncomingMessage` behind it (`fromIncoming`); the narrow shape lets the body's
 * writer be tested on its own.
 */
import * as l10n from '@vscode/l10n';
import type * as http from 'node:http';

export interface BodyHandlers {
  /** Bytes of the body (the reader copies what it keeps beyond the call). */
  data(view: Buffer): void;
  /** Once, at the end: `failure` says why the body ended before it was whole, if it did. */
  end(failure: unknown): void;
}

export interface StorageResponse {
  readonly statusCode: number;
  /** Lower-case names. */
  readonly headers: http.IncomingHttpHeaders;
  /** Starts the body; nothing flows before. */
  read(handlers: BodyHandlers): void;
  /** Stops reading (what is in flight may still arrive in the same turn). */
  pause(): void;
  resume(): void;
  /**
   * Drops the rest of the body and the connection. A body being read ends then, as one closed
   * early, unless it had ended already.
   */
  destroy(): void;
}

/** The body ended before it was whole, without an error of its own. */
export function closedEarly(): Error {
  return Object.assign(new Error(l10n.t('the connection closed before the body ended')), { code: 'ECONNRESET' });
}

/** Node's own response as a `StorageResponse`. */
export function fromIncoming(res: http.IncomingMessage): StorageResponse {
  let finished = false;
  let end = (_failure: unknown): void => {
    finished = true;
  };
  return {
    statusCode: res.statusCode ?? 0,
    headers: res.headers,
    read(handlers) {
      end = (failure: unknown): void => {
        if (finished) return;
        finished = true;
        handlers.end(failure);
      };
      res.on('data', (chunk: Buffer) => {
        if (!finished) handlers.data(chunk);
      });
      res.on('end', () => end(undefined));
      res.on('error', (error) => end(error));
      res.on('close', () => end(res.complete ? undefined : closedEarly()));
    },
    pause: () => void res.pause(),
    resume: () => void res.resume(),
    destroy() {
      res.on('error', () => undefined);
      end(closedEarly());
      res.destroy();
    },
  };
}
