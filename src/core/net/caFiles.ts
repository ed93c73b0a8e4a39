/**
 * Extra CA certificates from PEM files, each checked: a file that cannot be read or holds no
 * usable certificate gets a message that names it and says what to do; the others still count.
 */
import * as l10n from '@vscode/l10n';
import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

export interface CaFiles {
  /** Every certificate found, one PEM block each. */
  certificates: string[];
  /** One message per file that could not be used. */
  problems: string[];
}

/** The certificates in one PEM text; throws a message (without the file name) when there are none usable. */
export function certificatesIn(text: string | Buffer): string[] {
  const content = typeof text === 'string' ? text : text.toString('latin1');
  const blocks = content.match(PEM_BLOCK) ?? [];
  if (blocks.length === 0) {
    const binary = typeof text !== 'string' && text.length > 0 && text[0] === 0x30;
    throw new Error(
      binary
        ? l10n.t('it looks like a binary (DER) certificate; convert it to PEM first (openssl x509 -inform der -in <file> -out <file>.pem)')
        : l10n.t('it holds no PEM certificate (a block starting with -----BEGIN CERTIFICATE-----)'),
    );
  }
  for (const [i, block] of blocks.entries()) {
    try {
      new X509Certificate(block);
    } catch (error) {
      throw new Error(l10n.t('its certificate number {0} cannot be read ({1})', i + 1, error instanceof Error ? error.message : String(error)), { cause: error });
    }
  }
  return blocks;
}

function readProblem(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === 'ENOENT') return l10n.t('there is no such file');
  if (code === 'EACCES' || code === 'EPERM') return l10n.t('it cannot be read (permission denied)');
  if (code === 'EISDIR') return l10n.t('it is a folder, not a file');
  return error instanceof Error ? error.message : String(error);
}

/**
 * Reads each file; `where` names the setting or option they came from, for the messages.
 * Never throws.
 */
export async function loadCaFiles(paths: readonly string[], where: string): Promise<CaFiles> {
  const result: CaFiles = { certificates: [], problems: [] };
  for (const path of paths) {
    let content: Buffer;
    try {
      content = await readFile(path);
    } catch (error) {
      result.problems.push(l10n.t('The CA certificate file {0} (in {1}) was not used: {2}.', path, where, readProblem(error)));
      continue;
    }
    try {
      result.certificates.push(...certificatesIn(content));
    } catch (error) {
      result.problems.push(l10n.t('The CA certificate file {0} (in {1}) was not used: {2}.', path, where, error instanceof Error ? error.message : String(error)));
    }
  }
  return result;
}
