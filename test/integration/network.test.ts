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
import { TestProxy } from '../support/proxy';
import { configure, internals, waitFor } from './support';

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
  }

  async function completedRow(on: Simulator): Promise<string> {
    const jobId = String(on.addExportJob({ domain: 'docs.acme.dev', queuedMs: 0, durationMs: 0, createdAt: on.now() - 60_000 }).jobId);
    await api.session.service?.trackExportJob(jobId);
    await waitFor('the completed row', () => described(jobId).startsWith('completed'));
    return jobId;
  }

  async function downloadRow(jobId: string, name: string): Promise<DownloadResult | undefined> {
    return vscode.commands.executeCommand<DownloadResult | undefined>('docsAdmin.export.downloadBundle', rowOf(jobId), { target: join(dir, name), replace: true });
  }

  before(async () => {
    pki = makeTestCertificates();
    proxy = await TestProxy.start();
    sim = await Simulator.start({ timeScale: 1_000, keys: [{ key: KEY }] });
    far = await Simulator.start({ timeScale: 1_000, keys: [{ key: KEY }], host: '127.0.0.2' });
    farTls = await Simulator.start({ timeScale: 1_000, keys: [{ key: KEY }], host: '127.0.0.2', tls: { key: pki.key, cert: pki.cert } });
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-network-it-'));
    api = await internals();
    await vscode.commands.executeCommand('docsAdmin.environment.switch', 'default');
    await useSimulator(sim, /^requests go direct/);
    assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', KEY), true);
    await waitFor('the ok state', () => api.session.state === 'ok');
  });

  after(async () => {
    await configureHttp({ proxy: undefined, noProxy: undefined });
    await vscode.commands.executeCommand('docsAdmin.key.clear', true);
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

  it('http.proxy: the API requests and the bundle download go through the proxy, the key with the API requests only', async () => {
    await configureHttp({ proxy: proxy.url });
    await useSimulator(sim, new RegExp(`^requests go through ${proxy.url} \\(from http\\.proxy\\)`));
    proxy.clear();
    const jobId = await completedRow(sim);
    const result = await downloadRow(jobId, 'through-proxy.tar.gz');
    assert.ok(result !== undefined && readFileSync(result.path).equals(sim.defaultBundle()));
    const api = proxy.log.filter((e) => e.target.startsWith(`${sim.baseUrl}/`));
    const storage = proxy.log.filter((e) => e.target.startsWith(`${sim.storageBaseUrl}/`));
    assert.ok(api.some((e) => e.target.endsWith(`/v1/static-export/jobs/${jobId}`)), JSON.stringify(proxy.log));
    assert.ok(api.some((e) => e.method === 'POST' && e.target.endsWith(`/v1/static-export/jobs/${jobId}/bundle`)));
    assert.ok(api.every((e) => e.authorization === `Bearer ${KEY}`), 'the key went to the API origin');
    assert.equal(storage.length, 1, JSON.stringify(proxy.log));
    assert.equal(storage[0]?.authorization, undefined, 'no key to the storage');
    assert.equal(proxy.log.length, api.length + storage.length, 'nothing else went through the proxy');
    // Setting the key checks it with the server: through the proxy too.
    proxy.clear();
    assert.equal(await vscode.commands.executeCommand('docsAdmin.key.set', KEY), true);
    assert.ok(proxy.log.some((e) => e.target === `${sim.baseUrl}/v2/agent/${sim.projectId}/job/docs-admin-key-check`), JSON.stringify(proxy.log));
  });

  it('a storage host VS Code\'s proxy support takes over (not "localhost" or 127.0.0.1) still goes through the proxy once, not twice', async () => {
    await useSimulator(far, new RegExp(`^requests go through ${proxy.url}`));
    proxy.clear();
    const jobId = await completedRow(far);
    assert.ok((await downloadRow(jobId, 'far.tar.gz')) !== undefined);
    const storage = proxy.log.filter((e) => e.target.includes(new URL(far.storageBaseUrl).host));
    assert.deepEqual(
      storage.map((e) => `${e.method} ${new URL(e.target).origin} ${e.status} ${e.authorization ?? 'no-auth'}`),
      [`GET ${far.storageBaseUrl} 200 no-auth`],
    );
    assert.ok(!proxy.log.some((e) => e.target.includes(new URL(proxy.url).host)), 'the proxy was never asked to reach itself');
    assert.equal(far.requests.filter((r) => r.origin === 'storage').length, 1);
  });

  it('http.noProxy: the hosts listed bypass the proxy, which then sees nothing', async () => {
    await configureHttp({ noProxy: ['127.0.0.1', '127.0.0.2'] });
    await useSimulator(far, /except to the hosts in http\.noProxy/);
    proxy.clear();
    const jobId = await completedRow(far);
    assert.ok((await downloadRow(jobId, 'bypass.tar.gz')) !== undefined);
    await useSimulator(sim, /except to the hosts in http\.noProxy/);
    await downloadRow(await completedRow(sim), 'bypass-near.tar.gz');
    assert.deepEqual(proxy.log, []);
    await configureHttp({ proxy: undefined, noProxy: undefined });
    await waitFor('no proxy', () => /^requests go direct/.test(network()));
  });

  it('a TLS server signed by a private CA: not trusted without docsAdmin.network.extraCaCertificates, with a message that names it; trusted with it, download included', async () => {
    await useSimulator(farTls, /^requests go direct/);
    const jobId = String(farTls.addExportJob({ domain: 'docs.acme.dev', queuedMs: 0, durationMs: 0, createdAt: farTls.now() - 60_000 }).jobId);
    await api.session.service?.trackExportJob(jobId);
    await waitFor('the unreachable state', () => api.session.state === 'unreachable');
    assert.match(api.session.stateMessage ?? '', /^The certificate of 127\.0\.0\.2:\d+ is not trusted: it is signed by a certificate authority this computer does not know \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)\. .*docsAdmin\.network\.extraCaCertificates.* turn off http\.proxyStrictSSL\.$/);
    // An unreadable file is named in a warning; the readable one still counts.
    await configure({ 'network.extraCaCertificates': [join(dir, 'missing.pem'), pki.caFile] });
    await waitFor('the CA in use', () => /1 extra CA certificate\(s\) trusted/.test(network()));
    api.session.service?.refresh();
    await waitFor('the completed row', () => described(jobId).startsWith('completed'));
    assert.equal(api.session.state, 'ok');
    // The download goes through Node's https, which VS Code's proxy support takes over for
    // 127.0.0.2: the CA must survive that.
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
