import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCaFiles } from '../../src/core/net/caFiles';
import { Network, NetworkConfigError, type NetworkConfig } from '../../src/core/net/network';
import { bypassesProxy, parseNoProxy } from '../../src/core/net/noProxy';
import { redactSecrets } from '../../src/core/redact';
import { makeTestCertificates } from '../support/certificates';

describe('NO_PROXY matching (curl\'s rules, plus *.domain and host:port) @networks @row', () => {
  const table: [string, string, boolean][] = [
    // [NO_PROXY, URL, bypasses the proxy]
    ['', 'https://api.example.com', false],
    ['*', 'https://api.example.com', true],
    ['localhost, *', 'https://anything.test', true],
    ['example.com', 'https://example.com', true],
    ['example.com', 'https://api.example.com', true],
    ['example.com', 'https://api.example.com:8443/x', true],
    ['example.com', 'https://notexample.com', false],
    ['example.com', 'https://example.com.evil.test', false],
    ['.example.com', 'https://example.com', true],
    ['.example.com', 'https://deep.api.example.com', true],
    ['*.example.com', 'https://api.example.com', true],
    ['*.example.com', 'https://example.com', true],
    ['EXAMPLE.com.', 'https://Api.Example.COM.', true],
    ['foo.test,example.com', 'https://api.example.com', true],
    ['  foo.test ,  example.com  ', 'https://api.example.com', true],
    ['foo.test example.com', 'https://api.example.com', true],
    ['example.com:8443', 'https://api.example.com:8443', true],
    ['example.com:8443', 'https://api.example.com', false],
    ['example.com:443', 'https://api.example.com', true],
    ['example.com:80', 'http://api.example.com', true],
    ['127.0.0.1', 'http://127.0.0.1:4000', true],
    ['127.0.0.1', 'http://127.0.0.2:4000', false],
    ['127.0.0.1:4000', 'http://127.0.0.1:4000', true],
    ['127.0.0.1:4000', 'http://127.0.0.1:4001', false],
    ['0.0.1', 'http://127.0.0.1', false],
    ['10.0.0.0/8', 'https://10.20.30.40', true],
    ['10.0.0.0/8', 'https://11.0.0.1', false],
    ['192.168.1.0/24', 'https://192.168.1.77', true],
    ['192.168.1.0/24', 'https://192.168.2.1', false],
    ['::1', 'http://[::1]:3000', true],
    ['[::1]', 'http://[::1]:3000', true],
    ['[::1]:3000', 'http://[::1]:3000', true],
    ['[::1]:3000', 'http://[::1]:3001', false],
    ['fd00::/8', 'https://[fd12:3456::1]', true],
    ['fd00::/8', 'https://[fe80::1]', false],
    ['::ffff:0:0/96', 'https://[::ffff:10.0.0.1]', true],
    ['10.0.0.1', 'https://ten.example', false],
    ['example.com/8', 'https://example.com', false],
    ['localhost', 'http://localhost:8080', true],
    ['localhost', 'http://127.0.0.1:8080', false],
  ];
  for (const [noProxy, url, expected] of table) {
    it(`${JSON.stringify(noProxy)} ${expected ? 'bypasses' : 'does not bypass'} for ${url}`, () => {
      assert.equal(bypassesProxy(new URL(url), parseNoProxy(noProxy)), expected);
    });
  }

  it('takes a list (the http.noProxy setting) as well as a string, and drops what it cannot use', () => {
    assert.equal(bypassesProxy(new URL('https://a.internal'), parseNoProxy(['x.test', 'internal'])), true);
    assert.deepEqual(parseNoProxy('host:port, a/b, *x, , '), []);
  });
});

describe('which proxy: explicit setting first, then the environment @networks @row', () => {
  const route = (config: NetworkConfig, env: Record<string, string>, url: string) => {
    const r = new Network(config, { env }).routeFor(new URL(url));
    return r === undefined ? 'direct' : `${r.display} ${r.source}`;
  };
  const P = 'http://set:1';
  const table: [string, NetworkConfig, Record<string, string>, string, string][] = [
    ['nothing set: direct', {}, {}, 'https://api.example.com', 'direct'],
    ['HTTPS_PROXY for https', {}, { HTTPS_PROXY: 'http://up:2' }, 'https://api.example.com', 'http://up:2 HTTPS_PROXY'],
    ['https_proxy before HTTPS_PROXY', {}, { https_proxy: 'http://low:3', HTTPS_PROXY: 'http://up:2' }, 'https://api.example.com', 'http://low:3 https_proxy'],
    ['https falls back to HTTP_PROXY', {}, { HTTP_PROXY: 'http://h:4' }, 'https://api.example.com', 'http://h:4 HTTP_PROXY'],
    ['http never uses HTTPS_PROXY', {}, { HTTPS_PROXY: 'http://up:2' }, 'http://127.0.0.1:9', 'direct'],
    ['http_proxy before HTTP_PROXY', {}, { http_proxy: 'http://low:5', HTTP_PROXY: 'http://h:4' }, 'http://api.example.com:9', 'http://low:5 http_proxy'],
    ['an empty variable is unset', {}, { https_proxy: ' ', HTTPS_PROXY: 'http://up:2' }, 'https://api.example.com', 'http://up:2 HTTPS_PROXY'],
    ['the setting wins over the environment, for both schemes', { proxy: P }, { HTTPS_PROXY: 'http://up:2', HTTP_PROXY: 'http://h:4' }, 'https://api.example.com', 'http://set:1 the proxy setting'],
    ['the setting for http too', { proxy: P }, {}, 'http://api.example.com:9', 'http://set:1 the proxy setting'],
    ['an empty setting leaves it to the environment', { proxy: '  ' }, { HTTPS_PROXY: 'http://up:2' }, 'https://api.example.com', 'http://up:2 HTTPS_PROXY'],
    ['no scheme means http://', {}, { HTTPS_PROXY: 'proxy.corp:3128' }, 'https://api.example.com', 'http://proxy.corp:3128 HTTPS_PROXY'],
    ['credentials never in the display', { proxy: 'http://bob:pw@p:8' }, {}, 'https://api.example.com', 'http://p:8 the proxy setting'],
    ['NO_PROXY applies to an env proxy', {}, { HTTPS_PROXY: 'http://up:2', NO_PROXY: 'example.com' }, 'https://api.example.com', 'direct'],
    ['no_proxy before NO_PROXY', {}, { HTTPS_PROXY: 'http://up:2', no_proxy: 'other.test', NO_PROXY: 'example.com' }, 'https://api.example.com', 'http://up:2 HTTPS_PROXY'],
    ['NO_PROXY applies to the setting too', { proxy: P }, { NO_PROXY: 'example.com' }, 'https://api.example.com', 'direct'],
    ['a noProxy list replaces NO_PROXY', { proxy: P, noProxy: ['other.test'] }, { NO_PROXY: 'example.com' }, 'https://api.example.com', 'http://set:1 the proxy setting'],
    ['an empty noProxy list leaves NO_PROXY', { proxy: P, noProxy: [] }, { NO_PROXY: 'example.com' }, 'https://api.example.com', 'direct'],
    // Loopback always goes direct (as in VS Code): plain http: to it would carry the key in clear to the proxy.
    ['loopback 127.0.0.1 is direct, whatever the setting', { proxy: P, noProxy: ['other.test'] }, {}, 'http://127.0.0.1:8080', 'direct'],
    ['loopback 127.x.y.z is direct, whatever the environment', {}, { HTTP_PROXY: 'http://h:4', NO_PROXY: 'other.test' }, 'http://127.1.2.3:8080', 'direct'],
    ['loopback localhost is direct, for https too', { proxy: P }, { HTTPS_PROXY: 'http://up:2' }, 'https://LOCALHOST:8443', 'direct'],
    ['loopback ::1 is direct', {}, { http_proxy: 'http://h:4' }, 'http://[::1]:8080', 'direct'],
    ['IPv4-mapped loopback (::ffff:127.0.0.1) is direct', { proxy: P }, { HTTP_PROXY: 'http://h:4' }, 'http://[::ffff:127.0.0.1]:8080', 'direct'],
    ['IPv4-mapped loopback written out whole is direct', { proxy: P }, {}, 'http://[0:0:0:0:0:ffff:7f01:0203]:8080', 'direct'],
    ['an IPv4-mapped address that is not loopback goes through the proxy', { proxy: P }, {}, 'http://[::ffff:10.0.0.1]:8080', 'http://set:1 the proxy setting'],
    ['a *.localhost name is not loopback: through the proxy', { proxy: P }, {}, 'http://api.localhost:8080', 'http://set:1 the proxy setting'],
    ['an address that only starts like loopback is not', { proxy: P }, {}, 'http://127.0.0.1.example.com', 'http://set:1 the proxy setting'],
  ];
  for (const [name, config, env, url, expected] of table) {
    it(name, () => assert.equal(route(config, env, url), expected));
  }

  it('credentials in the URL become a Basic Proxy-Authorization; an explicit one wins', () => {
    const url = new URL('https://api.example.com');
    assert.equal(new Network({ proxy: 'http://bob:p%40ss@p:8' }, { env: {} }).routeFor(url)?.authorization, `Basic ${Buffer.from('bob:p@ss').toString('base64')}`);
    assert.equal(new Network({ proxy: 'http://bob:pw@p:8', proxyAuthorization: 'Negotiate abc' }, { env: {} }).routeFor(url)?.authorization, 'Negotiate abc');
    assert.equal(new Network({ proxy: 'http://p:8' }, { env: {} }).routeFor(url)?.authorization, undefined);
  });

  it('a proxy that cannot be used is refused with where it came from, and without its credentials', () => {
    const refuse = (config: NetworkConfig, env: Record<string, string>, message: RegExp) =>
      assert.throws(() => new Network({ hints: { proxy: 'http.proxy' }, ...config }, { env }), (e: unknown) => e instanceof NetworkConfigError && message.test(e.message) && !e.message.includes('pw'));
    refuse({ proxy: 'socks5://bob:pw@p:1080' }, {}, /^The proxy in http\.proxy uses socks5, which Docs Admin does not support: use an http:\/\/ or https:\/\/ proxy\.$/);
    refuse({}, { HTTPS_PROXY: 'http://bob:pw@[bad' }, /^The proxy in HTTPS_PROXY is not a valid URL/);
  });

  it('describes what is in effect in one line, never a credential', () => {
    const text = new Network({ proxy: 'http://bob:pw@p:8', noProxy: 'x.test', strictSSL: false }, { env: {} }).describe();
    assert.equal(text, 'requests go through http://p:8 (from the proxy setting); except to the hosts in NO_PROXY; with proxy credentials; certificates NOT checked');
    assert.equal(new Network({}, { env: { HTTPS_PROXY: 'http://s:1' } }).describe(), 'https requests go through http://s:1 (from HTTPS_PROXY), http requests direct; certificates checked');
  });
});

describe('extra CA certificate files @networks @row', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-ca-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads every certificate of each file, and names each file it could not use, with why', async () => {
    const pki = makeTestCertificates();
    try {
      const bundle = join(dir, 'two.pem');
      writeFileSync(bundle, `# a comment\n${pki.caCert}\n${pki.selfSignedCert}`);
      writeFileSync(join(dir, 'notes.txt'), 'not a certificate');
      writeFileSync(join(dir, 'binary.der'), Buffer.from([0x30, 0x82, 0x01, 0x0a]));
      writeFileSync(join(dir, 'broken.pem'), '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
      const loaded = await loadCaFiles([bundle, join(dir, 'missing.pem'), join(dir, 'notes.txt'), join(dir, 'binary.der'), join(dir, 'broken.pem'), dir], 'docsAdmin.network.extraCaCertificates');
      assert.equal(loaded.certificates.length, 2);
      assert.deepEqual(loaded.problems, [
        `The CA certificate file ${join(dir, 'missing.pem')} (in docsAdmin.network.extraCaCertificates) was not used: there is no such file.`,
        `The CA certificate file ${join(dir, 'notes.txt')} (in docsAdmin.network.extraCaCertificates) was not used: it holds no PEM certificate (a block starting with -----BEGIN CERTIFICATE-----).`,
        `The CA certificate file ${join(dir, 'binary.der')} (in docsAdmin.network.extraCaCertificates) was not used: it looks like a binary (DER) certificate; convert it to PEM first (openssl x509 -inform der -in <file> -out <file>.pem).`,
        loaded.problems[3] ?? '',
        `The CA certificate file ${dir} (in docsAdmin.network.extraCaCertificates) was not used: it is a folder, not a file.`,
      ]);
      assert.match(loaded.problems[3] ?? '', /broken\.pem \(in docsAdmin\.network\.extraCaCertificates\) was not used: its certificate number 1 cannot be read/);
    } finally {
      pki.remove();
    }
  });
});

describe('proxy credentials are redacted from free text @networks @row', () => {
  it('masks credentials in a URL and Proxy-Authorization values', () => {
    const out = redactSecrets('via http://alice:s3cret@proxy:3128 with Proxy-Authorization: Basic YWxpY2U6czNjcmV0, Negotiate TlRMTVNT and a basic check');
    assert.equal(out, 'via http://[redacted]@proxy:3128 with Proxy-Authorization: Basic [redacted], Negotiate [redacted] and a basic check');
  });
});
