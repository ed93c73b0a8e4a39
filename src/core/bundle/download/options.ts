/** What a bundle download is given, reports and returns. */
import type { L10nBundle } from '../../l10n';
import type { ArchiveKind } from '../extract/archivePaths';
import type { IssuedLink } from '../links/linkCache';
import type { Logger } from '../../log';
import type { Network } from '../../net/network';

export interface DownloadProgress {
  /** Bytes on disk. */
  received: number;
  /** Undefined while the size is not known. */
  total: number | undefined;
  bytesPerSecond: number;
  /** Bytes of the archive read through so far (the check follows the download, and finishes after it). */
  checked: number;
  /** `check` once every byte is on disk and the archive is still being read through. */
  phase: 'download' | 'check';
}

export interface DownloadOptions {
  target: string;
  /** The link to start with (may be expired: it is then regenerated first). */
  link: () => Promise<IssuedLink>;
  /** A new link, after the object store refused the current one as expired. */
  regenerate: () => Promise<IssuedLink>;
  /** Time left on a link, on this machine's clock; undefined when nothing says. */
  timeLeft: (link: IssuedLink) => number | undefined;
  /** Replace an existing file at the target (the user agreed). */
  replace?: boolean;
  signal?: AbortSignal;
  onProgress?: (progress: DownloadProgress) => void;
  /**
   * The archive worker's script (the archive check runs on it); the one beside the core unless
   * given (the CLI, one file, gives its own).
   */
  workerScript?: string | undefined;
  /** The translations the archive worker's messages use; English when undefined. */
  l10n?: L10nBundle | undefined;
  /**
   * A minor garbage collection, called every 2 MiB taken in (the CLI's, which exposes it): Node's
   * http allocates a buffer for every read and copies every body chunk into another, and V8
   * frees them only when new objects fill its young generation or 64 MB of them accumulate, so
   * without it the process holds tens of MB of dead buffers (bench/HISTORY.md, issue 26). When
   * given, the archive check's thread asks for its own every 2 MiB checked (zlib allocates a
   * buffer for each inflated MiB).
   */
  collectGarbage?: (() => void) | undefined;
  /** Proxy and certificate settings (direct, Node's defaults otherwise). */
  network?: Network;
  log?: Logger;
  /**
   * Connections for a large bundle on a store that answers `Range` (1: one stream). Each takes
   * its share of the file as a byte range, resumed on its own.
   */
  connections?: number;
  /** From this size on (the API's sizeBytes), a bundle is fetched in ranges. */
  parallelFromBytes?: number;
  /** Failed attempts in a row, without a byte of progress, before giving up (per range). */
  maxStalledAttempts?: number;
  maxRegenerations?: number;
  connectTimeoutMs?: number;
  /** From a request to its answer's head, whatever comes before it (an endless run of 1xx, a head a byte at a time). */
  headTimeoutMs?: number;
  /** A body that sends nothing for this long counts as a dropped connection. */
  idleTimeoutMs?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
  /** Checks the disk has room for `bytes` more in `dir` (throws when not); `ensureRoomForDownload` unless given (tests slow it down). */
  ensureRoom?: (dir: string, bytes: number | undefined) => Promise<void>;
}

export interface DownloadResult {
  path: string;
  bytes: number;
  /** What the archive check read through, to its end. */
  kind: ArchiveKind;
  /** Requests made, the first included. */
  requests: number;
  resumes: number;
  restarts: number;
  regenerations: number;
}

/** Connections for a large bundle, unless told otherwise (`docsAdmin.download.connections`, `--connections`). */
export const DEFAULT_CONNECTIONS = 4;
/**
 * Below this, ranges do not pay: a single connection fetches 64 MiB in well under a second on
 * a fast link, and every range is a request (and a round trip) of its own.
 */
export const PARALLEL_FROM_BYTES = 64 * 1024 * 1024;
