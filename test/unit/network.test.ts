import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { downloadBundle } from '../../src/core/bundle/download/download';
import { BundleDownloadError } from '../../src/core/bundle/download/downloadErrors';
import { BundleLinks } from '../../src/core/bundle/links/linkCache';
import { Network, type NetworkConfig } from '../../src/core/net/network';
import { makeTestCertificates, type TestCertificates } from '../support/certificates';
import { nonLoopbackAddress, TestProxy } from '../support/proxy';
import { recordingLogger } from './support/logger';
import { Simulator } from '../simulator';
import { AdminApiClient } from '../../src/core/api/client';
import { NetworkError } from '../../src/core/api/apiErrors';

const KEY = 'da_test_network_key_9d21';
const HINTS = { proxy: 'http.proxy', noProxy: 'http.noProxy', proxyCredentials: 'http.proxy (http://<user>:<password>@host:port) or http.proxyAuthorization', ca: 'docsAdmin.network.extraCaCertificates', strictSSL: 'http.proxyStrictSSL' };

describe('proxies and certificates: the API client and the bundle download over real sockets @networks', function () {
  this.timeout(30_000);
  let pki: TestCertificates;
  let sim: Simulator;
  let tlsSim: Simulator;
  let proxy: TestProxy;
  let dir: string;
  const messages: string[] = [];
  const log = recordingLogger('network');
  const open: AdminApiClient[] = [];

  before(async () => {
    pki = makeTestCertificates();
    // On this machine's outside address: a loopback host never goes through a proxy.
    const outside = nonLoopbackAddress();
    sim = await Simulator.start({ keys: [{ key: KEY }], host: outside });
    tlsSim = await Simulator.start({ keys: [{ key: KEY }], tls: { key: pki.key, cert: pki.cert }, host: outside });
    proxy = await TestProxy.start();
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-network-'));
  });

  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
    proxy.clear();
    sim.clearRequests();
    tlsSim.clearRequests();
  });

  after(async () => {
    await Promise.all([sim.stop(), tlsSim.stop(), proxy.stop()]);
    rmSync(dir, { recursive: true, force: true });
    pki.remove();
    // Nothing logged or shown in the whole file holds the key or a proxy password.
    const text = [...log.lines, ...messages].join('\n');
    assert.ok(!text.includes(KEY), 'the key was logged');
    assert.ok(!text.includes('s3cret-pw'), 'a proxy password was logged');
    assert.ok(!text.includes(Buffer.from('alice:s3cret-pw').toString('base64')), 'a proxy credential was logged');
  });

  function network(config: NetworkConfig, env: Record<string, string> = {}): Network {
    return new Network({ hints: HINTS, ...config }, { env });
  }

  function client(on: Simulator, net: Network, sleeps: number[] = []): AdminApiClient {
    const c = new AdminApiClient({ baseUrl: on.baseUrl, projectId: on.projectId, getKey: () => KEY, network: net, log, sleep: (ms) => (sleeps.push(ms), Promise.resolve()) });
    open.push(c);
    return c;
  }

  function completedExport(on: Simulator): string {
    return String(on.addExportJob({ queuedMs: 0, durationMs: 0, createdAt: on.now() - 60_000 }).jobId);
  }

  /** Downloads the bundle of `jobId` over `net`; links come from `api`. */
  function download(api: AdminApiClient, jobId: string, net: Network, name = 'bundle.tar.gz', sleeps: number[] = []) {
    const links = new BundleLinks((id, o) => api.generateBundle(id, o));
    return downloadBundle({
      target: join(dir, name),
      replace: true,
      link: () => links.fresh(jobId, 60_000),
      regenerate: () => links.regenerate(jobId),
      timeLeft: (l) => links.timeLeft(l),
      network: net,
      log,
      sleep: (ms) => (sleeps.push(ms), Promise.resolve()),
    });
  }

  async function failure(promise: Promise<unknown>): Promise<Error> {
    try {
      await promise;
    } catch (error) {
      assert.ok(error instanceof Error, String(error));
      messages.push(error.message);
      return error;
    }
    assert.fail('expected a failure');
  }

  const host = (url: string) => new URL(url).host;
  /** `::1` when this machine can listen on it. */
  async function loopbackV6(): Promise<string[]> {
    const server = createServer();
    return new Promise((resolve) => {
      server.once('error', () => resolve([]));
      server.listen(0, '::1', () => server.close(() => resolve(['::1'])));
    });
  }
  /** `::ffff:127.0.0.1` (IPv4-mapped IPv6) when this machine can listen on it. */
  async function mappedV4(): Promise<string[]> {
    const server = createServer();
    return new Promise((resolve) => {
      server.once('error', () => resolve([]));
      server.listen(0, '::ffff:127.0.0.1', () => server.close(() => resolve(['::ffff:127.0.0.1'])));
    });
  }
  const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

  it('API calls to a remote http: host go through the proxy, forwarded (the front ends allow plain http: only to loopback, which goes direct)', async () => {
    const net = network({ proxy: proxy.url });
    const api = client(sim, net);
    const jobId = completedExport(sim);
    assert.equal((await api.getExportJob(jobId)).status, 'completed');
    await api.generateBundle(jobId);
    // http targets through an http proxy are forwarded (absolute-form), as curl does.
    const seen = proxy.log.map((e) => `${e.method} ${new URL(e.target).host} ${new URL(e.target).pathname} ${e.authorization === undefined ? 'no-auth' : 'auth'}`);
    assert.deepEqual(seen, [`GET ${host(sim.baseUrl)} /v1/static-export/jobs/${jobId} auth`, `POST ${host(sim.baseUrl)} /v1/static-export/jobs/${jobId}/bundle auth`]);
    assert.equal(sim.requests.length, 2, 'every request reached the simulator through the proxy');
  });

  it('NO_PROXY (or the noProxy setting) bypasses the proxy: the proxy sees nothing', async () => {
    for (const [config, env] of [
      [{}, { HTTPS_PROXY: proxy.url, NO_PROXY: new URL(tlsSim.baseUrl).hostname }],
      [{ proxy: proxy.url, noProxy: ['localhost', new URL(tlsSim.baseUrl).hostname] }, { NO_PROXY: 'example.com' }],
      [{}, { http_proxy: proxy.url, no_proxy: '*' }],
    ] as const) {
      const net = network({ ...config, extraCa: [pki.caCert] }, env);
      const api = client(tlsSim, net);
      const jobId = completedExport(tlsSim);
      await api.getExportJob(jobId);
      await download(api, jobId, net);
      assert.deepEqual(proxy.log, [], JSON.stringify({ config, env }));
      assert.equal(tlsSim.requests.length, 3);
      tlsSim.clearRequests();
    }
  });

  it('a loopback API and storage (127.0.0.1, localhost, ::1, ::ffff:127.0.0.1) never go through the proxy, whatever is set: the proxy sees no key', async () => {
    const hosts = ['127.0.0.1', 'localhost', ...(await loopbackV6()), ...(await mappedV4())];
    assert.ok(hosts.includes('::ffff:127.0.0.1') || process.env.CI !== 'true', 'in CI the machine can listen on ::ffff:127.0.0.1');
    for (const host of hosts) {
      const local = await Simulator.start({ keys: [{ key: KEY }], host });
      try {
        for (const [config, env] of [
          [{ proxy: proxy.url }, {}],
          [{}, { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url }],
          [{ proxy: proxy.url, noProxy: ['example.com'] }, { NO_PROXY: 'example.com' }],
        ] as const) {
          const net = network(config, env);
          const api = client(local, net);
          const jobId = completedExport(local);
          assert.equal((await api.getExportJob(jobId)).status, 'completed');
          await download(api, jobId, net, 'loopback.tar.gz');
          // (Summed up: a failure here must not print the key or a link's signature.)
          const seen = proxy.log.map((e) => `${e.method}${e.authorization === undefined ? '' : ' with an Authorization header'}`);
          assert.deepEqual(seen, [], JSON.stringify({ host, config, env }));
          assert.equal(local.requests.length, 3, 'straight to the simulator');
          assert.equal(local.requests.filter((r) => r.headers.authorization === `Bearer ${KEY}`).length, 2);
          local.clearRequests();
        }
      } finally {
        await Promise.all(open.splice(0).map((c) => c.close()));
        await local.stop();
      }
    }
  });

  it('https API and https storage go through CONNECT tunnels: the proxy sees host and port, never the key', async () => {
    const net = network({ proxy: proxy.url, extraCa: [pki.caCert] });
    const api = client(tlsSim, net);
    const jobId = completedExport(tlsSim);
    await api.getExportJob(jobId);
    const result = await download(api, jobId, net);
    assert.deepEqual(readFileSync(result.path), tlsSim.defaultBundle());
    assert.deepEqual(
      [...new Set(proxy.log.map((e) => `${e.method} ${e.target} ${e.status}`))].sort(),
      [`CONNECT ${host(tlsSim.baseUrl)} 200`, `CONNECT ${host(tlsSim.storageBaseUrl)} 200`].sort(),
    );
    assert.ok(proxy.log.every((e) => e.authorization === undefined), 'the key passed the proxy in clear');
    assert.equal(tlsSim.requests.filter((r) => r.origin === 'api' && r.headers.authorization === `Bearer ${KEY}`).length, 2);
  });

  describe('a proxy that asks for credentials', () => {
    let authProxy: TestProxy;
    before(async () => {
      authProxy = await TestProxy.start({ auth: { user: 'alice', password: 's3cret-pw' } });
    });
    after(() => authProxy.stop());
    afterEach(() => authProxy.clear());

    it('without them: a 407 says the proxy wants credentials and where to give them, for both stacks, without retrying', async () => {
      const sleeps: number[] = [];
      const net = network({ proxy: authProxy.url, extraCa: [pki.caCert] });
      for (const on of [sim, tlsSim]) {
        const error = await failure(client(on, net, sleeps).getExportJob('x'));
        assert.ok(error instanceof NetworkError && error.reason === 'proxy', error.message);
        assert.equal(error.message, `The proxy ${authProxy.url} (from http.proxy) asks for credentials (407 Proxy Authentication Required). Give them as ${HINTS.proxyCredentials}.`);
        // A plain http: link to a remote host is refused before any request: only https: here.
        if (on === sim) continue;
        // The link comes from a client that may use the proxy; the download through it may not.
        const jobId = completedExport(on);
        const direct = client(on, network({ extraCa: [pki.caCert] }));
        const refused = await failure(download(direct, jobId, net, 'b.tar.gz', sleeps));
        assert.ok(refused instanceof BundleDownloadError && refused.reason === 'network', refused.message);
        assert.match(refused.message, /^The bundle download failed\. The proxy http:\/\/127\.0\.0\.1:\d+ \(from http\.proxy\) asks for credentials \(407/);
      }
      assert.deepEqual(sleeps, [], 'a 407 is not retried');
      assert.deepEqual(
        authProxy.log.map((e) => `${e.method} ${e.status}`),
        ['GET 407', 'CONNECT 407', 'CONNECT 407'],
        'forwarded for http, tunnelled for https, one try each',
      );
    });

    it('with wrong ones: says they were refused', async () => {
      const error = await failure(client(sim, network({ proxy: authProxy.urlWith('alice', 'wrong') })).getExportJob('x'));
      assert.match(error.message, /^The proxy http:\/\/127\.0\.0\.1:\d+ \(from http\.proxy\) refused the credentials given \(407/);
    });

    it('with them (in the URL, or as proxyAuthorization) it works, and the credentials show in no log line or message', async () => {
      for (const config of [{ proxy: authProxy.urlWith('alice', 's3cret-pw') }, { proxy: authProxy.url, proxyAuthorization: `Basic ${Buffer.from('alice:s3cret-pw').toString('base64')}` }]) {
        const net = network({ ...config, extraCa: [pki.caCert] });
        for (const on of [sim, tlsSim]) {
          const api = client(on, net);
          const jobId = completedExport(on);
          await api.getExportJob(jobId);
          if (on === tlsSim) await download(api, jobId, net);
        }
        messages.push(net.describe());
        assert.match(net.describe(), /^requests go through http:\/\/127\.0\.0\.1:\d+ \(from http\.proxy\); with proxy credentials; 1 extra CA certificate\(s\) trusted; certificates checked$/);
      }
      assert.ok(authProxy.log.length >= 6 && authProxy.log.every((e) => e.status === 200), JSON.stringify(authProxy.log));
    });

    it('the Proxy-Authorization header goes to the proxy only: a host that bypasses it never gets it', async () => {
      const net = network({ proxy: authProxy.url, proxyAuthorization: 'Basic czNjcmV0', noProxy: new URL(tlsSim.baseUrl).hostname, extraCa: [pki.caCert] });
      const api = client(tlsSim, net);
      const jobId = completedExport(tlsSim);
      await api.getExportJob(jobId);
      await download(api, jobId, net);
      assert.deepEqual(authProxy.log, []);
      assert.equal(tlsSim.requests.length, 3);
      assert.ok(tlsSim.requests.every((r) => r.headers['proxy-authorization'] === undefined));
    });
  });

  describe('a TLS server signed by a test CA', () => {
    it('without the CA: a clear "not trusted" message naming the setting, for both stacks, without retrying', async () => {
      const sleeps: number[] = [];
      const error = await failure(client(tlsSim, network({}), sleeps).getExportJob('x'));
      assert.ok(error instanceof NetworkError && error.reason === 'certificate', error.message);
      assert.equal(
        error.message,
        `The certificate of ${host(tlsSim.baseUrl)} is not trusted: it is signed by a certificate authority this computer does not know (UNABLE_TO_VERIFY_LEAF_SIGNATURE). ` +
          "If your company's proxy or a private certificate authority signs it, add that authority's certificate (a PEM file) to docsAdmin.network.extraCaCertificates. " +
          'Only if you understand the risk (anyone on the way could then read the traffic, the admin key included), turn off http.proxyStrictSSL.',
      );
      const jobId = completedExport(tlsSim);
      const trusted = client(tlsSim, network({ extraCa: [pki.caCert] }));
      const refused = await failure(download(trusted, jobId, network({}), 'b.tar.gz', sleeps));
      assert.ok(refused instanceof BundleDownloadError && refused.reason === 'network');
      assert.match(refused.message, new RegExp(`^The bundle download failed\\. The certificate of ${escaped(host(tlsSim.storageBaseUrl))} is not trusted: .* \\(UNABLE_TO_VERIFY_LEAF_SIGNATURE\\)\\. .*docsAdmin\\.network\\.extraCaCertificates`));
      assert.deepEqual(sleeps, [], 'not retried');
    });

    it('with the CA as an extra certificate: both stacks work', async () => {
      const net = network({ extraCa: [pki.caCert] });
      const api = client(tlsSim, net);
      const jobId = completedExport(tlsSim);
      await api.getExportJob(jobId);
      const result = await download(api, jobId, net);
      assert.deepEqual(readFileSync(result.path), tlsSim.defaultBundle());
    });

    it('with strictSSL off: both stacks work, without the CA', async () => {
      const net = network({ strictSSL: false });
      const api = client(tlsSim, net);
      const jobId = completedExport(tlsSim);
      await api.getExportJob(jobId);
      await download(api, jobId, net);
      assert.match(net.describe(), /certificates NOT checked$/);
    });

    it('a self-signed certificate is called so', async () => {
      const self = await Simulator.start({ keys: [{ key: KEY }], tls: { key: pki.selfSignedKey, cert: pki.selfSignedCert } });
      try {
        const error = await failure(client(self, network({})).getExportJob('x'));
        assert.match(error.message, /is not trusted: it is self-signed \(DEPTH_ZERO_SELF_SIGNED_CERT\)/);
        // The test CA does not vouch for it: still refused with the CA given.
        assert.match((await failure(client(self, network({ extraCa: [pki.caCert] })).getExportJob('x'))).message, /self-signed/);
      } finally {
        await self.stop();
      }
    });

    it('an https proxy is checked with the same CAs, and named when it is not trusted', async () => {
      const tlsProxy = await TestProxy.start({ tls: { key: pki.key, cert: pki.cert } });
      try {
        const trusted = network({ proxy: tlsProxy.url, extraCa: [pki.caCert] });
        for (const on of [sim, tlsSim]) {
          const api = client(on, trusted);
          const jobId = completedExport(on);
          await api.getExportJob(jobId);
          if (on === tlsSim) await download(api, jobId, trusted);
        }
        assert.deepEqual([...new Set(tlsProxy.log.map((e) => e.target))].sort(), [host(sim.baseUrl), host(tlsSim.baseUrl), host(tlsSim.storageBaseUrl)].sort(), 'every origin reached through the https proxy');
        const error = await failure(client(sim, network({ proxy: tlsProxy.url })).getExportJob('x'));
        assert.match(error.message, new RegExp(`^The certificate of ${host(sim.baseUrl)} \\(or of the proxy ${tlsProxy.url} \\(from http.proxy\\)\\) is not trusted`));
      } finally {
        await tlsProxy.stop();
      }
    });
  });

  describe('a proxy that does not work is named as the problem', () => {
    it('unreachable: the setting (or variable) it came from is named, for both stacks', async () => {
      const closed = await TestProxy.start();
      const url = closed.url;
      await closed.stop();
      const net = network({}, { HTTPS_PROXY: url, HTTP_PROXY: url });
      const error = await failure(client(sim, net).getExportJob('x'));
      assert.ok(error instanceof NetworkError && error.reason === 'proxy');
      assert.equal(error.message, `The proxy ${url} (from HTTP_PROXY) could not be reached (ECONNREFUSED). Check HTTP_PROXY: is the proxy's address right, and is it running?`);
      const jobId = completedExport(tlsSim);
      const refused = await failure(download(client(tlsSim, network({ extraCa: [pki.caCert] })), jobId, network({ extraCa: [pki.caCert] }, { HTTPS_PROXY: url })));
      assert.equal(refused.message, `The bundle download failed. The proxy ${url} (from HTTPS_PROXY) could not be reached (ECONNREFUSED). Check HTTPS_PROXY: is the proxy's address right, and is it running?`);
    });

    it('refusing the tunnel: says so, and where to list hosts that bypass it', async () => {
      const strict = await TestProxy.start({ refuse: () => 403 });
      try {
        const net = network({ proxy: strict.url, extraCa: [pki.caCert] });
        const error = await failure(client(tlsSim, net).getExportJob('x'));
        assert.equal(
          error.message,
          `The proxy ${strict.url} (from http.proxy) refused to connect to ${host(tlsSim.baseUrl)} (403). Ask whoever runs the proxy to allow ${host(tlsSim.baseUrl)}, or, if ${host(tlsSim.baseUrl)} can be reached without it, add it to http.noProxy.`,
        );
        const jobId = completedExport(tlsSim);
        const refused = await failure(download(client(tlsSim, network({ extraCa: [pki.caCert] })), jobId, net));
        assert.match(refused.message, new RegExp(`^The bundle download failed\\. The proxy .* refused to connect to ${escaped(host(tlsSim.storageBaseUrl))} \\(403\\)`));
      } finally {
        await strict.stop();
      }
    });
  });
});
