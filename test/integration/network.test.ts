import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { DownloadResult } from '../../src/core/bundle/download/download';
import type { DocsAdminInternals } from '../../src/extension';
import { Simulator } from '../simulator';
import { makeTestCertificates, type TestCertificates } from '../support/certificates';
import { nonLoopbackAddress, TestProxy } from '../support/proxy';
import { configure, fromCode, internals, waitFor } from './support';

const KEY = 'da_it_network_key_4e7a';

/** VS Code's own settings (http.*), in the user settings. */
async function configureHttp(values: Record<string, unknown>): Promise<void> {
  const config = vscode.workspace.getConfiguration('http');
  for (const [key, value] of Object.entries(values)) await config.update(key, value, vscode.ConfigurationTarget.Global);
}

describe('proxies and certificates in the editor: http.proxy, http.noProxy, extra CA certificates @networks', function () {
  this.timeout(60_000);
  let api: DocsAdminInternals;
  let pki: TestCertificates;
  let proxy: TestProxy;
  /** On 127.0.0.1, which VS Code's proxy support leaves to the extension's own agent. */
  let sim: Simulator;
  /** On 127.0.0.2: loopback for us, but not one of the names VS Code's proxy support exempts. */
  let far: Simulator;
  /** On this machine's outside address, over TLS (test CA): not loopback, so a proxy applies to it. */
  let farTls: Simulator;
  let dir: string;

  const rowOf = (jobId: string) => api.exportTree.getChildren().find((n) => n.key === `export:${jobId}`);
  const described = (jobId: string) => {
    const row = rowOf(jobId);
    return row === undefined ? '' : String(api.exportTree.getTreeItem(row).description);
  };
  const network = () => api.session.network?.describe() ?? '';

  /** Points the default environment at `on`, and waits for the session built with the network wanted. */
  async function useSimulator(on: Simulator, expectNetwork: RegExp): Promise<void> {
    await configure({ baseUrl: on.baseUrl, projectId: on.projectId, environments: [], 'polling.minIntervalSeconds': 1, 'polling.maxIntervalSeconds': 5 });
    await waitFor(`the session on ${on.baseUrl} with ${String(expectNetwork)}`, () => api.session.client?.origin === new URL(on.baseUrl).origin && expectNetwork.test(network()));
    // The key is bound to the server it was set for: set it again for this one, as a person would.
    await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: KEY }));
  }

  async function completedRow(on: Simulator): Promise<string> {
    const jobId = String(on.addExportJob({ domain: 'docs.acme.dev', queuedMs: 0, durationMs: 0, createdAt: on.now() - 60_000 }).jobId);
    await api.session.service?.trackExportJob(jobId);
    await waitFor('the completed row', () => described(jobId).startsWith('completed'));
    return jobId;
  }

  async function downloadRow(jobId: string, name: string): Promise<DownloadResult | undefined> {
    return vscode.commands.executeCommand<DownloadResult | undefined>('docsAdmin.export.downloadBundle', rowOf(jobId), fromCode({ target: join(dir, name), replace: true }));
  }

  before(async () => {
    pki = makeTestCertificates();
    proxy = await TestProxy.start();
    sim = await Simulator.start({ timeScale: 1_000, keys: [{ key: KEY }] });
    far = await Simulator.start({ timeScale: 1_000, keys: [{ key: KEY }], host: '127.0.0.2' });
    farTls = await Simulator.start({ timeScale: 1_000, keys: [{ key: KEY }], host: nonLoopbackAddress(), tls: { key: pki.key, cert: pki.cert } });
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-network-it-'));
    api = await internals();
    await vscode.commands.executeCommand('docsAdmin.environment.switch', fromCode({ value: 'default' }));
    await useSimulator(sim, /^requests go direct/);
    assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: KEY })), true);
    await waitFor('the ok state', () => api.session.state === 'ok');
  });

  after(async () => {
    await configureHttp({ proxy: undefined, noProxy: undefined });
    await vscode.commands.executeCommand('docsAdmin.key.clear', fromCode({ confirmed: true }));
    await configure({ baseUrl: undefined, projectId: undefined, environments: undefined, 'polling.minIntervalSeconds': undefined, 'polling.maxIntervalSeconds': undefined, 'network.extraCaCertificates': undefined });
    await Promise.all([sim.stop(), far.stop(), farTls.stop(), proxy.stop()]);
    rmSync(dir, { recursive: true, force: true });
    pki.remove();
  });

  it('runs where VS Code patches Node\'s https for extensions (http.proxySupport), so what follows tests that case @control', () => {
    assert.ok((https as unknown as { __vscodeOriginal?: unknown }).__vscodeOriginal !== undefined, 'https is patched by VS Code\'s proxy support');
    assert.equal(vscode.workspace.getConfiguration('http').get('proxySupport'), 'override');
    // http.systemCertificates (on by default) adds the system's store; this host's Node.js reads it.
    assert.match(network(), /the system's certificates trusted; certificates checked$/);
  });

  it('http.proxy: the API requests and the bundle download to a remote host go through the proxy (tunnelled, once, never twice)', async () => {
    await configure({ 'network.extraCaCertificates': [pki.caFile] });
    await configureHttp({ proxy: proxy.url });
    await useSimulator(farTls, new RegExp(`^requests go through ${proxy.url} \\(from http\\.proxy\\).*1 extra CA certificate`));
    proxy.clear();
    const jobId = await completedRow(farTls);
    const result = await downloadRow(jobId, 'through-proxy.tar.gz');
    assert.ok(result !== undefined && readFileSync(result.path).equals(farTls.defaultBundle()));
    const seen = (url: string) => proxy.log.filter((e) => e.target === new URL(url).host);
    assert.ok(seen(farTls.baseUrl).length >= 1 && seen(farTls.baseUrl).every((e) => e.method === 'CONNECT' && e.status === 200), JSON.stringify(proxy.log));
    // VS Code's proxy support takes the download over (a remote host): still one tunnel, not a tunnel through a tunnel.
    assert.deepEqual(seen(farTls.storageBaseUrl).map((e) => `${e.method} ${e.status}`), ['CONNECT 200'], JSON.stringify(proxy.log));
    assert.ok(!proxy.log.some((e) => e.target.includes(new URL(proxy.url).host)), 'the proxy was never asked to reach itself');
    assert.ok(proxy.log.every((e) => e.authorization === undefined), 'nothing in clear');
    assert.equal(proxy.log.length, seen(farTls.baseUrl).length + seen(farTls.storageBaseUrl).length, 'nothing else went through the proxy');
    assert.equal(farTls.requests.filter((r) => r.origin === 'storage').length, 1);
    // Setting the key checks it with the server: through the proxy too.
    proxy.clear();
    assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: KEY })), true);
    assert.deepEqual(proxy.log.map((e) => `${e.method} ${e.target}`), [`CONNECT ${new URL(farTls.baseUrl).host}`]);
  });

  it('loopback (127.0.0.1, and 127.0.0.2 that VS Code does not exempt) goes direct with http.proxy set and no http.noProxy: the proxy never sees the key', async () => {
    for (const on of [sim, far]) {
      await useSimulator(on, new RegExp(`^requests go through ${proxy.url} \\(from http\\.proxy\\)`));
      proxy.clear();
      on.clearRequests();
      const jobId = await completedRow(on);
      const result = await downloadRow(jobId, `loopback-${on === sim ? 'near' : 'far'}.tar.gz`);
      assert.ok(result !== undefined && readFileSync(result.path).equals(on.defaultBundle()), on.baseUrl);
      assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', fromCode({ key: KEY })), true);
      // (Summed up: a failure here must not print the key or a link's signature.)
      assert.deepEqual(proxy.log.map((e) => `${e.method}${e.authorization === undefined ? '' : ' with an Authorization header'}`), [], on.baseUrl);
      assert.ok(on.requests.some((r) => r.origin === 'api' && r.headers.authorization === `Bearer ${KEY}`), 'the key went straight to the API');
      assert.equal(on.requests.filter((r) => r.origin === 'storage').length, 1, 'the download went straight to the storage');
    }
  });

  it('http.noProxy: the hosts listed bypass the proxy, which then sees nothing', async () => {
    await configureHttp({ noProxy: [new URL(farTls.baseUrl).hostname] });
    await useSimulator(farTls, /except to the hosts in http\.noProxy/);
    proxy.clear();
    const jobId = await completedRow(farTls);
    assert.ok((await downloadRow(jobId, 'bypass.tar.gz')) !== undefined);
    assert.deepEqual(proxy.log, []);
    await configureHttp({ proxy: undefined, noProxy: undefined });
    await configure({ 'network.extraCaCertificates': undefined });
    await waitFor('no proxy, no CA', () => /^requests go direct; the system's certificates trusted; certificates checked$/.test(network()));
  });

  it('a TLS server signed by a private CA: not trusted without docsAdmin.network.extraCaCertificates, with a message that names it; trusted with it, download included', async () => {
    await useSimulator(farTls, /^requests go direct/);
    const jobId = String(farTls.addExportJob({ domain: 'docs.acme.dev', queuedMs: 0, durationMs: 0, createdAt: farTls.now() - 60_000 }).jobId);
    await api.session.service?.trackExportJob(jobId);
    await waitFor('the unreachable state', () => api.session.state === 'unreachable');
    const at = new URL(farTls.baseUrl).host.replace(/[.[\]]/g, '\\$&');
    assert.match(api.session.stateMessage ?? '', new RegExp(`^The certificate of ${at} is not trusted: it is signed by a certificate authority this computer does not know \\(UNABLE_TO_VERIFY_LEAF_SIGNATURE\\)\\. .*docsAdmin\\.network\\.extraCaCertificates.* turn off http\\.proxyStrictSSL\\.$`));
    // An unreadable file is named in a warning; the readable one still counts.
    await configure({ 'network.extraCaCertificates': [join(dir, 'missing.pem'), pki.caFile] });
    await waitFor('the CA in use', () => /1 extra CA certificate\(s\) trusted/.test(network()));
    api.session.service?.refresh();
    await waitFor('the completed row', () => described(jobId).startsWith('completed'));
    assert.equal(api.session.state, 'ok');
    // The download goes through Node's https, which VS Code's proxy support takes over for a
    // remote host: the CA must survive that.
    const result = await downloadRow(jobId, 'tls.tar.gz');
    assert.ok(result !== undefined && readFileSync(result.path).equals(farTls.defaultBundle()), 'downloaded with the extra CA');
  });

  it('a proxy Docs Admin cannot use (SOCKS) stops the session with a message that says so', async () => {
    await configureHttp({ proxy: 'socks5://127.0.0.1:1080' });
    await waitFor('the unreachable state', () => api.session.state === 'unreachable');
    assert.equal(api.session.stateMessage, 'The proxy in http.proxy uses socks5, which Docs Admin does not support: use an http:// or https:// proxy.');
    assert.equal(api.session.client, undefined);
    await configureHttp({ proxy: undefined });
    await waitFor('the session back', () => api.session.client !== undefined);
  });

  it('a CA file that holds no certificate is not used (and does not break the session)', async () => {
    const bogus = join(dir, 'bogus.pem');
    writeFileSync(bogus, 'not a certificate');
    await configure({ 'network.extraCaCertificates': [bogus] });
    await waitFor('the CA dropped', () => /^requests go direct; the system's certificates trusted; certificates checked$/.test(network()));
    assert.notEqual(api.session.client, undefined);
    await configure({ 'network.extraCaCertificates': undefined });
  });
});
