import * as assert from 'node:assert/strict';
import { bundleUrlInfo, diagnoseValues } from '../../src/core/helm/diagnose';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const HOUR = 3600_000;

function s3(signedAt: string, seconds: number, scheme = 'https'): string {
  return `${scheme}://bucket.s3.amazonaws.com/b.tar.gz?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=${signedAt}&X-Amz-Expires=${seconds}&X-Amz-Signature=ab12`;
}

function values(url: string, enabled = true): string {
  return `image:\n  tag: "1"\nstaticExport:\n  enabled: ${enabled}\n  bundleUrl: "${url}"\n`;
}

describe('values diagnostics', () => {
  it('an expired link is an error on the link: the deployment cannot restart', () => {
    const text = values(s3('20261123T100000Z', 3600));
    const [problem, ...rest] = diagnoseValues(text, NOW, 24 * HOUR);
    assert.deepEqual(rest, []);
    assert.equal(problem?.code, 'expired');
    assert.equal(problem?.severity, 'error');
    assert.match(problem?.message ?? '', /expired 1h ago: the deployment cannot start on its next restart/);
    assert.equal(text.slice(problem?.start, problem?.end), `"${s3('20261123T100000Z', 3600)}"`);
  });

  it('a link expiring within the window is a warning; later is fine', () => {
    const soon = diagnoseValues(values(s3('20261123T113000Z', 3600)), NOW, 24 * HOUR);
    assert.deepEqual(soon.map((p) => [p.code, p.severity]), [['expiring', 'warning']]);
    assert.match(soon[0]?.message ?? '', /expires in 30m/);
    assert.deepEqual(diagnoseValues(values(s3('20261123T113000Z', 7 * 24 * 3600)), NOW, 24 * HOUR), []);
  });

  it('a non-https link is an error, and so is enabled without a link', () => {
    assert.deepEqual(diagnoseValues(values(s3('20261123T113000Z', 7 * 24 * 3600, 'http')), NOW, HOUR).map((p) => p.code), ['insecure']);
    const missing = diagnoseValues('staticExport:\n  enabled: true\n', NOW, HOUR);
    assert.deepEqual(missing.map((p) => [p.code, p.severity]), [['missingLink', 'error']]);
    assert.deepEqual(diagnoseValues('staticExport:\n  enabled: true\n  bundleUrl: ""\n', NOW, HOUR).map((p) => p.code), ['missingLink']);
    assert.deepEqual(diagnoseValues('staticExport:\n  enabled: false\n', NOW, HOUR), [], 'disabled without a link is fine');
    assert.deepEqual(diagnoseValues(values('not a url'), NOW, HOUR).map((p) => p.code), ['invalidLink']);
  });

  it('says nothing of files without the block, or invalid YAML', () => {
    assert.deepEqual(diagnoseValues('image:\n  tag: 1\n', NOW, HOUR), []);
    assert.deepEqual(diagnoseValues('staticExport: [\n', NOW, HOUR), []);
    assert.deepEqual(diagnoseValues(values('https://cdn.example.com/bundle.tar.gz'), NOW, HOUR), [], 'no expiry in the link: nothing to say');
  });

  it('gives the link and its time left for a hover', () => {
    const url = s3('20261123T113000Z', 3600);
    const info = bundleUrlInfo(values(url), NOW);
    assert.equal(info?.url, url);
    assert.equal(info?.timeLeftMs, 30 * 60_000);
    assert.equal(bundleUrlInfo('a: 1\n', NOW), undefined);
  });
});
