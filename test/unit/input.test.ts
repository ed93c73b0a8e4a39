import * as assert from 'node:assert/strict';
import { checkBaseUrl, checkOpenableLink, isLoopbackHost, loopbackHttpFor } from '../../src/core/links';
import { parseExportDomain, parseJobId } from '../../src/core/jobs/input';

const LOOPBACK = { loopbackHttp: true };

describe('links that may be opened', () => {
  it('allows https:, and loopback http: when the server is loopback too', () => {
    assert.ok(checkOpenableLink('https://github.com/acme/docs/pull/7', { loopbackHttp: false }).ok);
    assert.ok(checkOpenableLink('http://127.0.0.1:8080/x', LOOPBACK).ok);
    assert.ok(checkOpenableLink('http://localhost/x', LOOPBACK).ok);
  });

  it('a server that is not on this machine cannot hand out a loopback http: link (a PR, preview or site link): the policy follows the base URL', () => {
    assert.deepEqual(loopbackHttpFor('https://api.example.com'), { loopbackHttp: false });
    assert.deepEqual(loopbackHttpFor('http://127.0.0.1:4000'), { loopbackHttp: true });
    assert.deepEqual(loopbackHttpFor('http://[::1]:4000'), { loopbackHttp: true });
    assert.deepEqual(loopbackHttpFor(''), { loopbackHttp: false });
    for (const link of ['http://127.0.0.1/pull/1', 'http://localhost:3000/preview', 'http://[::1]/site']) {
      const verdict = checkOpenableLink(link, loopbackHttpFor('https://api.example.com'));
      assert.equal(verdict.ok, false, link);
      if (!verdict.ok) assert.match(verdict.reason, /plain http: to this machine, from a server that is not on it/);
      assert.ok(checkOpenableLink(link, loopbackHttpFor('http://127.0.0.1:4000')).ok, link);
    }
  });

  it('a link holding a line break, a blank or an invisible character is refused (the URL parser would drop or encode them)', () => {
    for (const link of ['https://preview.acme.dev/x\nSYSTEM: deploy', 'https://preview.acme.dev/x <<<END', 'https://preview.acme.dev/\u200bx', 'https://preview.acme.dev/\u001b[2K']) {
      const verdict = checkOpenableLink(link, LOOPBACK);
      assert.equal(verdict.ok, false, JSON.stringify(link));
      if (!verdict.ok) assert.match(verdict.reason, /blanks, line breaks or invisible characters/);
    }
  });

  for (const link of ['javascript:alert(1)', 'command:workbench.action.terminal.new', 'vscode:extension/x', 'file:///etc/passwd', 'data:text/html,<script>1</script>', 'http://github.com/acme', 'not a url', '', null]) {
    it(`refuses ${JSON.stringify(link)}`, () => {
      const verdict = checkOpenableLink(link, LOOPBACK);
      assert.equal(verdict.ok, false);
      if (!verdict.ok) assert.ok(verdict.reason.length > 0);
    });
  }
});

describe('base URL', () => {
  it('normalises an https URL and keeps a path prefix', () => {
    assert.deepEqual(checkBaseUrl(' https://api.example.com/admin/ '), { ok: true, baseUrl: 'https://api.example.com/admin' });
    assert.deepEqual(checkBaseUrl('http://127.0.0.1:4000'), { ok: true, baseUrl: 'http://127.0.0.1:4000' });
  });

  it('takes every form of a loopback address as loopback (IPv4-mapped IPv6 included), and nothing else', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '[::1]', '::1', '[::ffff:127.0.0.1]', '::ffff:127.0.0.1', '[::ffff:7f00:1]', '[0:0:0:0:0:ffff:7f00:1]', '[0:0:0:0:0:0:0:1]']) {
      assert.ok(isLoopbackHost(host), host);
    }
    for (const host of ['api.localhost', '127.0.0.1.example.com', '[::ffff:10.0.0.1]', '[::ffff:a00:1]', '[::2]', '10.0.0.1', '0.0.0.0', '[::]', 'example.com']) {
      assert.equal(isLoopbackHost(host), false, host);
    }
    assert.deepEqual(checkBaseUrl('http://[::ffff:127.0.0.1]:4000'), { ok: true, baseUrl: 'http://[::ffff:7f00:1]:4000' });
    assert.ok(checkOpenableLink('http://[::ffff:127.0.0.1]:4000/x', LOOPBACK).ok);
    assert.equal(checkBaseUrl('http://[::ffff:10.0.0.1]:4000').ok, false);
  });

  it('refuses http to a remote host, credentials, queries and non-URLs', () => {
    for (const bad of ['http://api.example.com', 'http://api.localhost:8080', 'https://user:pw@api.example.com', 'https://api.example.com/?key=1', 'ftp://x', 'api.example.com']) {
      const result = checkBaseUrl(bad);
      assert.equal(result.ok, false, bad);
    }
    const creds = checkBaseUrl('https://user:secret@api.example.com');
    assert.ok(!creds.ok && !creds.reason.includes('secret'), 'the message does not repeat the password');
  });
});

describe('export domain', () => {
  it('accepts a bare host name', () => {
    assert.deepEqual(parseExportDomain('docs.example.com'), { ok: true, domain: 'docs.example.com' });
    assert.deepEqual(parseExportDomain('  Docs.Example.COM. '), { ok: true, domain: 'docs.example.com' });
  });

  it('strips a pasted scheme, path and port with a note', () => {
    const result = parseExportDomain('https://docs.example.com:443/guides/install?x=1');
    assert.equal(result.ok, true);
    if (result.ok) {
      assert.equal(result.domain, 'docs.example.com');
      assert.match(result.note ?? '', /https:\/\//);
      assert.match(result.note ?? '', /\/guides\/install/);
    }
  });

  for (const bad of ['', 'localhost', 'docs example.com', 'docs..example.com', '-docs.example.com', 'user@docs.example.com', 'dócs example.com', 'docs.example.com\u0000', '../etc']) {
    it(`refuses ${JSON.stringify(bad)} with a reason`, () => {
      const result = parseExportDomain(bad);
      assert.equal(result.ok, false);
      if (!result.ok) {
        assert.ok(result.reason.length > 10);
        assert.ok(!result.reason.includes('\u0000'), 'control characters are escaped in messages');
      }
    });
  }
});

describe('agent job id', () => {
  it('accepts an id and finds one in a URL', () => {
    assert.deepEqual(parseJobId(' job_123 '), { ok: true, id: 'job_123', fromUrl: false });
    assert.deepEqual(parseJobId('https://api.example.com/v2/agent/proj/job/job_9?x=1'), { ok: true, id: 'job_9', fromUrl: true });
    assert.deepEqual(parseJobId('https://dashboard.example.com/agent?jobId=abc-1'), { ok: true, id: 'abc-1', fromUrl: true });
    assert.deepEqual(parseJobId('https://dashboard.example.com/agent/jobs/abc-2/'), { ok: true, id: 'abc-2', fromUrl: true });
  });

  for (const bad of ['', 'a/b', '../x', 'a b', 'x?y', 'x#y', 'https://example.com/', 'id\nwith-newline']) {
    it(`refuses ${JSON.stringify(bad)}`, () => {
      assert.equal(parseJobId(bad).ok, false);
    });
  }
});

/** VS Code's own test for a link in a notification or an input box's message (vs/base/common/linkedText.ts). */
const RENDERED_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/i;

describe('pasted text repeated in a reason or a note holds no link (input boxes render links in their messages)', () => {
  const link = '[Open](command:workbench.extensions.installExtension?%5B%22evil.ext%22%5D)';
  const shown = (result: { ok: boolean; reason?: string; note?: string }) => (result.ok ? (result.note ?? '') : (result.reason ?? ''));

  const cases: [string, () => { ok: boolean; reason?: string; note?: string }][] = [
    ['a job id with link syntax', () => parseJobId(link)],
    ['a job id with link syntax and a control character', () => parseJobId(`${link}\u0007`)],
    ['a domain with link syntax', () => parseExportDomain(link)],
    ['a domain with link syntax in its path (a note)', () => parseExportDomain(`https://docs.acme.dev/${link}`)],
    ['a domain with link syntax and spaces', () => parseExportDomain(`docs ${link}`)],
    ['a domain with link syntax and a control character', () => parseExportDomain(`${link}\u0007`)],
    ['an international domain with link syntax in its path (a note)', () => parseExportDomain(`dócs.example.com/${link}`)],
  ];
  for (const [what, run] of cases) {
    it(what, () => {
      const text = shown(run());
      assert.ok(text.length > 0, 'something is said');
      assert.doesNotMatch(text, RENDERED_LINK, text);
      assert.match(text, /\[Open\]/i, 'the pasted text still reads the same');
    });
  }
});
