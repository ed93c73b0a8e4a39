/**
 * After a run in the real extension host: every log file the run wrote (the "Docs Admin"
 * channel's, the extension host's, the server's), and what code-server and the extension host
 * printed, scanned for the keys and signatures the run's simulators handed out, and for any
 * unmasked bearer token or S3 signature; and every file the run left on disk (the user data:
 * global state, global storage with the prompt drafts, logs; the workspace) scanned for the
 * readers' contact addresses the simulators' analytics carried, which nothing may write down.
 * The suite writes what its simulators handed out to `DOCS_ADMIN_TEST_SECRETS_FILE` (see
 * test/integration/index.ts).
 */
import { existsSync, readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
import { join, relative } from 'node:path';
import { PLAYGROUND_CONTACTS } from '../simulator/analyticsData';
import { DEMO_KEY } from '../simulator/types';
import { describeLeaks, secretLeaks, type Leak } from '../unit/support/collector';

export const SECRETS_FILE_VARIABLE = 'DOCS_ADMIN_TEST_SECRETS_FILE';

export interface LogScan {
  /** The files read, relative to the logs folder. */
  files: string[];
  /** The "Docs Admin" channel's log (empty when the run wrote none). */
  channel: string;
  leaks: Leak[];
  keys: number;
  signatures: number;
  contacts: number;
  /** Files on disk scanned for contacts. */
  diskFiles: number;
}

export interface RunSecrets {
  keys: string[];
  signatures: string[];
  contacts: string[];
}

/** `read()`, or undefined when the file is not there (any more): a file that vanishes during the scan is skipped. */
function ifThere<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Every file below `dir` with what `stat` says of it (a link followed; a dangling one, or a file gone, is left out). */
export function filesBelow(dir: string): { path: string; stat: Stats }[] {
  return (ifThere(() => readdirSync(dir)) ?? []).flatMap((name) => {
    const path = join(dir, name);
    const stat = ifThere(() => statSync(path));
    if (stat === undefined) return [];
    return stat.isDirectory() ? filesBelow(path) : [{ path, stat }];
  });
}

/** The texts of `files`, each read whole; one gone since it was listed is left out. */
function read(files: { path: string }[], decode: (bytes: Buffer) => string): { path: string; text: string }[] {
  return files.flatMap(({ path }) => {
    const bytes = ifThere(() => readFileSync(path));
    return bytes === undefined ? [] : [{ path, text: decode(bytes) }];
  });
}

/** Keys, signatures and contacts the suite recorded (plus the simulator's demo key and the playground's contacts, always). */
export function readSecrets(file: string | undefined): RunSecrets {
  const recorded = file !== undefined && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<RunSecrets>) : {};
  return {
    keys: [...new Set([DEMO_KEY, ...(recorded.keys ?? [])])],
    signatures: [...new Set(recorded.signatures ?? [])],
    contacts: [...new Set([...PLAYGROUND_CONTACTS, ...(recorded.contacts ?? [])])],
  };
}

/** Files larger than this are not read for contacts (none of the run's own files comes near). */
const MAX_DISK_FILE = 64 * 1024 * 1024;

/**
 * `folders`: what the run wrote to disk besides its logs (the user data and the workspace);
 * read as bytes (latin1), so a contact inside a SQLite database or a binary file is found too.
 * Files on disk may hold a presigned link by design: a Helm values file holds its bundle link,
 * and VS Code's local history (User/History) keeps copies of it as it is saved.
 */
export function scanRun(userDataDir: string, printed: { source: string; text: string }[], secrets: RunSecrets, folders: string[] = [userDataDir]): LogScan {
  const logs = join(userDataDir, 'logs');
  const files = read(filesBelow(logs), (bytes) => bytes.toString('utf8'));
  const texts = [...files.map((file) => ({ source: relative(logs, file.path), text: file.text })), ...printed];
  const channel = texts.filter((t) => t.source.endsWith('docs-admin.docs-admin/Docs Admin.log')).map((t) => t.text).join('\n');
  // Regular files only (code-server keeps its IPC socket in the user data).
  const regular = folders.flatMap((folder) => filesBelow(folder).filter(({ stat }) => stat.isFile() && stat.size <= MAX_DISK_FILE));
  const disk = read(regular, (bytes) => bytes.toString('latin1')).map((file) => ({ source: `file ${file.path}`, text: file.text, mayHoldLink: true }));
  const leaks = [...secretLeaks(texts, secrets), ...secretLeaks(disk, { keys: [], signatures: [], contacts: secrets.contacts })];
  return { files: files.map((f) => relative(logs, f.path)), channel, leaks, keys: secrets.keys.length, signatures: secrets.signatures.length, contacts: secrets.contacts.length, diskFiles: disk.length };
}

/** What to say when the scan found something (secrets masked). */
export function describeScan(scan: LogScan): string {
  return `${scan.leaks.length} secret(s) in the run's logs or output:\n${describeLeaks(scan.leaks)}`;
}
