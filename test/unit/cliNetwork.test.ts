import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Simulator } from '../simulator';
import { makeTestCertificates, type TestCertificates } from '../support/certificates';
import { nonLoopbackAddress, TestProxy } from '../support/proxy';
import { collector } from './support/collector';

const CLI = resolve(__dirname, '../../../dist/cli.js');
const KEY = 'da_cli_network_key_0b3f';

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

describe('the docs-admin CLI behind a proxy and a private CA (child process) @networks', function () {
  this.timeout(30_000);
  let pki: TestCertificates;
  let sim: Simulator;
  let tlsSim: Simulator;
  let proxy: TestProxy;
  let authProxy: TestProxy;
  let dir: string;
  const printed: string[] = [];

  before(async () => {
    assert.ok(existsSync(CLI), `${CLI} is built by "node esbuild.mjs"`);
    pki = makeTestCertificates();
    sim = await Simulator.start({ keys: [{ key: KEY }] });
    // On this machine's outside address: a loopback host never goes through a proxy.
    tlsSim = await Simulator.start({ keys: [{ key: KEY }], tls: { key: pki.key, cert: pki.cert }, host: nonLoopbackAddress() });
    proxy = await TestProxy.start();
    authProxy = await TestProxy.start({ auth: { user: 'ci', password: 'pr0xy-pw' } });
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-cli-net-'));
  });

  afterEach(() => {
    proxy.clear();
    authProxy.clear();
  });

  after(async () => {
    await Promise.all([sim.stop(), tlsSim.stop(), proxy.stop(), authProxy.stop()]);
    rmSync(dir, { recursive: true, force: true });
    pki.remove();
    const all = printed.join('\n');
    assert.ok(!all.includes(KEY), 'the key was printed');
    assert.ok(!all.includes('pr0xy-pw') && !all.includes(Buffer.from('ci:pr0xy-pw').toString('base64')), 'a proxy credential was printed');
  });

  function cli(on: Simulator, args: string[], env: Record<string, string | undefined> = {}): Promise<Outcome> {
    const base: Record<string, string | undefined> = { PATH: process.env.PATH, DOCS_ADMIN_API_KEY: KEY, DOCS_ADMIN_BASE_URL: on.baseUrl, DOCS_ADMIN_PROJECT_ID: on.projectId };
    const merged = Object.fromEntries(Object.entries({ ...base, ...env }).filter((e): e is [string, string] => e[1] !== undefined));
    return new Promise((done) => {
      execFile(process.execPath, [CLI, ...args], { env: merged, cwd: dir }, (error, stdout, stderr) => {
        printed.push(stdout, stderr);
        collector.record(`cli: docs-admin ${args.join(' ')} (stdout)`, stdout);
        collector.record(`cli: docs-admin ${args.join(' ')} (stderr)`, stderr);
        done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
      });
    });
  }

  const completed = (on: Simulator) => String(on.addExportJob({ queuedMs: 0, durationMs: 0, createdAt: on.now() - 60_000 }).jobId);
  const host = (url: string) => new URL(url).host;
  const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

  it('--help says which variables and options set the network', async () => {
    const help = await cli(sim, ['--help']);
    for (const text of ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY', '--ca-file <file>', 'DOCS_ADMIN_CA_FILE', 'NODE_EXTRA_CA_CERTS']) assert.ok(help.stdout.includes(text), text);
    assert.match((await cli(sim, ['export', 'download', '--help'])).stdout, /--ca-file <file> +extra CA certificates to trust, a PEM file \(or DOCS_ADMIN_CA_FILE\)/);
  });

  it('HTTPS_PROXY and --ca-file: an https API and its storage through CONNECT tunnels, the download verified', async () => {
    const jobId = completed(tlsSim);
    const r = await cli(tlsSim, ['export', 'download', jobId, '--out', 'tls.tar.gz', '--ca-file', pki.caFile], { HTTPS_PROXY: proxy.url });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(readFileSync(join(dir, 'tls.tar.gz')), tlsSim.defaultBundle());
    assert.deepEqual([...new Set(proxy.log.map((e) => `${e.method} ${e.target}`))].sort(), [`CONNECT ${host(tlsSim.baseUrl)}`, `CONNECT ${host(tlsSim.storageBaseUrl)}`].sort());
    // DOCS_ADMIN_CA_FILE does the same.
    assert.equal((await cli(tlsSim, ['export', 'status', jobId], { HTTPS_PROXY: proxy.url, DOCS_ADMIN_CA_FILE: pki.caFile })).code, 0);
  });

  it('without the CA: exit 5 and one line saying the certificate is not trusted and how to add the CA', async () => {
    const r = await cli(tlsSim, ['export', 'status', 'x']);
    assert.equal(r.code, 5);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`^docs-admin: The certificate of ${escaped(host(tlsSim.baseUrl))} is not trusted: it is signed by a certificate authority this computer does not know \\(UNABLE_TO_VERIFY_LEAF_SIGNATURE\\)\\. .*add that authority's certificate \\(a PEM file\\) to --ca-file \\(or DOCS_ADMIN_CA_FILE\\)\\.\n$`));
  });

  it('NODE_EXTRA_CA_CERTS works on its own, and still does alongside --ca-file', async () => {
    const jobId = completed(tlsSim);
    assert.equal((await cli(tlsSim, ['export', 'status', jobId], { NODE_EXTRA_CA_CERTS: pki.caFile })).code, 0);
    // --ca-file names another CA (the self-signed certificate): the test CA must still come from NODE_EXTRA_CA_CERTS.
    const other = join(dir, 'other-ca.pem');
    writeFileSync(other, pki.selfSignedCert);
    const both = await cli(tlsSim, ['export', 'status', jobId, '--ca-file', other], { NODE_EXTRA_CA_CERTS: pki.caFile });
    assert.equal(both.code, 0, both.stderr);
    assert.equal((await cli(tlsSim, ['export', 'status', jobId, '--ca-file', other])).code, 5, 'the other CA alone does not vouch for the server');
  });

  it('a CA file that cannot be used: exit 2, naming it', async () => {
    const missing = join(dir, 'nope.pem');
    const r = await cli(tlsSim, ['export', 'status', 'x', '--ca-file', missing]);
    assert.equal(r.code, 2);
    assert.equal(r.stderr, `docs-admin: The CA certificate file ${missing} (in --ca-file) was not used: there is no such file.\n`);
  });

  it('HTTP_PROXY serves https too when HTTPS_PROXY is unset; NO_PROXY bypasses it', async () => {
    const jobId = completed(tlsSim);
    assert.equal((await cli(tlsSim, ['export', 'status', jobId, '--ca-file', pki.caFile], { HTTP_PROXY: proxy.url })).code, 0);
    assert.deepEqual(proxy.log.map((e) => `${e.method} ${e.target}`), [`CONNECT ${host(tlsSim.baseUrl)}`]);
    proxy.clear();
    assert.equal((await cli(tlsSim, ['export', 'status', jobId, '--ca-file', pki.caFile], { HTTP_PROXY: proxy.url, NO_PROXY: `localhost,${new URL(tlsSim.baseUrl).hostname}` })).code, 0);
    assert.deepEqual(proxy.log, []);
  });

  it('a loopback http: API and storage (a kubectl port-forward) go direct whatever HTTP_PROXY and HTTPS_PROXY say: the proxy never sees the key', async () => {
    const jobId = completed(sim);
    const proxies = { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, NO_PROXY: 'example.com' };
    for (const [name, base] of [['ip', sim.baseUrl], ['name', sim.baseUrl.replace('127.0.0.1', 'localhost')]] as const) {
      const r = await cli(sim, ['export', 'download', jobId, '--out', `loopback-${name}.tar.gz`], { ...proxies, DOCS_ADMIN_BASE_URL: base });
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(readFileSync(join(dir, `loopback-${name}.tar.gz`)), sim.defaultBundle());
      // (Summed up: a failure here must not print the key or a link's signature.)
      assert.deepEqual(proxy.log.map((e) => `${e.method}${e.authorization === undefined ? '' : ' with an Authorization header'}`), [], base);
    }
  });

  it('a proxy that wants credentials: exit 5 with what to do; with them in the URL it works, and --verbose never shows them', async () => {
    const jobId = completed(tlsSim);
    const refused = await cli(tlsSim, ['export', 'status', jobId, '--ca-file', pki.caFile], { HTTPS_PROXY: authProxy.url });
    assert.equal(refused.code, 5);
    assert.equal(refused.stderr, `docs-admin: The proxy ${authProxy.url} (from HTTPS_PROXY) asks for credentials (407 Proxy Authentication Required). Give them as the user name and password in the proxy URL (HTTPS_PROXY=http://<user>:<password>@proxy:port).\n`);
    const ok = await cli(tlsSim, ['export', 'status', jobId, '--ca-file', pki.caFile, '--verbose'], { https_proxy: authProxy.urlWith('ci', 'pr0xy-pw') });
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stderr, new RegExp(`Network: https requests go through ${authProxy.url} \\(from https_proxy\\), http requests direct; with proxy credentials; 1 extra CA certificate\\(s\\) trusted`));
    const unreachable = await cli(tlsSim, ['export', 'status', jobId, '--ca-file', pki.caFile], { HTTP_PROXY: 'http://127.0.0.1:9' });
    assert.equal(unreachable.code, 5);
    assert.match(unreachable.stderr, /^docs-admin: The proxy http:\/\/127\.0\.0\.1:9 \(from HTTP_PROXY\) could not be reached \(ECONNREFUSED\)\. Check HTTP_PROXY/);
  });
});
