/**
 * Certificates made at test time with the `openssl` command (scripts/system-deps.sh installs
 * it): a test CA, a server certificate it signs (for localhost, 127.0.0.1, 127.0.0.2, ::1 and
 * this machine's first non-loopback IPv4 address, for the proxy tests), and a self-signed server
 * certificate. Nothing is committed, nothing outlives the process's
 * temporary folder.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nonLoopbackAddress } from './proxy';

export interface TestCertificates {
  dir: string;
  /** The test CA's certificate (PEM), and the file holding it. */
  caCert: string;
  caFile: string;
  /** A server key and certificate signed by the test CA. */
  key: string;
  cert: string;
  /** A self-signed server key and certificate. */
  selfSignedKey: string;
  selfSignedCert: string;
  remove(): void;
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
export function makeTestCertificates(): TestCertificates {
  let outside = '';
  try {
    outside = `,IP:${nonLoopbackAddress()}`;
  } catch {
    // Only the proxy tests need it; they say so themselves.
  }
  const NAMES = `subjectAltName=DNS:localhost,IP:127.0.0.1,IP:127.0.0.2,IP:::1${outside}`;
  const dir = mkdtempSync(join(tmpdir(), 'docs-admin-pki-'));
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    openssl('req', '-x509', ...EC, '-keyout', at('ca.key'), '-out', at('ca.pem'), '-days', '2', '-subj', '/CN=Docs Admin Test CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
    openssl('req', ...EC, '-keyout', at('server.key'), '-out', at('server.csr'), '-subj', '/CN=localhost');
    writeFileSync(at('server.ext'), `${NAMES}\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n`);
    openssl('x509', '-req', '-in', at('server.csr'), '-CA', at('ca.pem'), '-CAkey', at('ca.key'), '-CAcreateserial', '-out', at('server.pem'), '-days', '2', '-extfile', at('server.ext'));
    openssl('req', '-x509', ...EC, '-keyout', at('self.key'), '-out', at('self.pem'), '-days', '2', '-subj', '/CN=localhost', '-addext', NAMES);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`openssl could not make the test certificates (is it installed? scripts/system-deps.sh installs it): ${stderr || String(error)}`, { cause: error });
  }
  const read = (name: string) => readFileSync(at(name), 'utf8');
  return {
    dir,
    caCert: read('ca.pem'),
    caFile: at('ca.pem'),
    key: read('server.key'),
    cert: read('server.pem'),
    selfSignedKey: read('self.key'),
    selfSignedCert: read('self.pem'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
