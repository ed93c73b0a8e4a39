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
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
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

function filesBelow(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesBelow(path) : [path];
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
  const files = filesBelow(logs);
  const texts = [...files.map((file) => ({ source: relative(logs, file), text: readFileSync(file, 'utf8') })), ...printed];
  const channel = texts.filter((t) => t.source.endsWith('docs-admin.docs-admin/Docs Admin.log')).map((t) => t.text).join('\n');
  // Regular files only (code-server keeps its IPC socket in the user data).
  const disk = folders.flatMap((folder) => filesBelow(folder).filter((file) => { const s = statSync(file); return s.isFile() && s.size <= MAX_DISK_FILE; }).map((file) => ({ source: `file ${file}`, text: readFileSync(file).toString('latin1'), mayHoldLink: true })));
  const leaks = [...secretLeaks(texts, secrets), ...secretLeaks(disk, { keys: [], signatures: [], contacts: secrets.contacts })];
  return { files: files.map((f) => relative(logs, f)), channel, leaks, keys: secrets.keys.length, signatures: secrets.signatures.length, contacts: secrets.contacts.length, diskFiles: disk.length };
}

/** What to say when the scan found something (secrets masked). */
export function describeScan(scan: LogScan): string {
  return `${scan.leaks.length} secret(s) in the run's logs or output:\n${describeLeaks(scan.leaks)}`;
}
