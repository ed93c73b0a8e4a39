/**
 * After a run in the real extension host: every log file the run wrote (the "Docs Admin"
 * channel's, the extension host's, the server's), and what code-server and the extension host
 * printed, scanned for the keys and signatures the run's simulators handed out, and for any
 * unmasked bearer token or S3 signature. The suite writes what its simulators handed out to
 * `DOCS_ADMIN_TEST_SECRETS_FILE` (see test/integration/index.ts).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
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
}

function filesBelow(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesBelow(path) : [path];
  });
}

/** Keys and signatures the suite recorded (plus the simulator's demo key, always). */
export function readSecrets(file: string | undefined): { keys: string[]; signatures: string[] } {
  const recorded = file !== undefined && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { keys?: string[]; signatures?: string[] }) : {};
  return { keys: [...new Set([DEMO_KEY, ...(recorded.keys ?? [])])], signatures: [...new Set(recorded.signatures ?? [])] };
}

export function scanRun(userDataDir: string, printed: { source: string; text: string }[], secrets: { keys: string[]; signatures: string[] }): LogScan {
  const logs = join(userDataDir, 'logs');
  const files = filesBelow(logs);
  const texts = [...files.map((file) => ({ source: relative(logs, file), text: readFileSync(file, 'utf8') })), ...printed];
  const channel = texts.filter((t) => t.source.endsWith('docs-admin.docs-admin/Docs Admin.log')).map((t) => t.text).join('\n');
  return { files: files.map((f) => relative(logs, f)), channel, leaks: secretLeaks(texts, secrets), keys: secrets.keys.length, signatures: secrets.signatures.length };
}

/** What to say when the scan found something (secrets masked). */
export function describeScan(scan: LogScan): string {
  return `${scan.leaks.length} secret(s) in the run's logs or output:\n${describeLeaks(scan.leaks)}`;
}
