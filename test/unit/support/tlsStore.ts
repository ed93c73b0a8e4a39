/**
 * What a download test needs to meet the store as users do, over TLS: the test certificates
 * (made once per test process with openssl, removed when it exits), the simulator's option that
 * serves its storage origin over TLS, a network that trusts the test CA, and real tar.gz bundles
 * of any size (random content, so gzip stores it: the size stays what was asked for).
 */
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { Network } from '../../../src/core/net/network';
import { makeTestCertificates, type TestCertificates } from '../../support/certificates';
import { rawTar } from './archives';

let made: TestCertificates | undefined;

/** The test CA and a server certificate it signs (for 127.0.0.1, localhost and the like). */
export function storeCertificates(): TestCertificates {
  if (made === undefined) {
    const pki = makeTestCertificates();
    made = pki;
    process.once('exit', () => pki.remove());
  }
  return made;
}

/** `Simulator.start` options: its storage over TLS. */
export function tlsStorage(): { storageTls: { key: string; cert: string } } {
  const { key, cert } = storeCertificates();
  return { storageTls: { key, cert } };
}

/** Proxy and certificate settings that trust the test CA, and nothing from the environment. */
export function trustingNetwork(): Network {
  return new Network({ extraCa: [storeCertificates().caCert] }, { env: {} });
}

/** A real tar.gz: a page and `bytes` of random data. */
export function tarGzOf(bytes: number): Buffer {
  return gzipSync(rawTar([{ name: 'index.html', data: '<!doctype html><title>Docs</title>' }, { name: 'assets/video.bin', data: randomBytes(bytes) }]), { level: 1 });
}
