import * as assert from 'node:assert/strict';
import { redactSecrets, redactUrl } from '../../src/core/redact';
import { parseRetryAfter } from '../../src/core/api/retryAfter';

describe('Retry-After', () => {
  const now = Date.parse('2026-11-22T12:00:00Z');
  it('reads seconds and HTTP dates', () => {
    assert.equal(parseRetryAfter('120', now), 120_000);
    assert.equal(parseRetryAfter('Sun, 22 Nov 2026 12:00:30 GMT', now), 30_000);
    assert.equal(parseRetryAfter(['5', '9'], now), 5_000);
  });
  it('clamps a past date to zero and ignores nonsense', () => {
    assert.equal(parseRetryAfter('Sun, 22 Nov 2026 11:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter('-5', now), undefined);
    assert.equal(parseRetryAfter(undefined, now), undefined);
  });
});

describe('redaction', () => {
  it('drops a presigned link\'s query string and any credentials in it', () => {
    assert.equal(
      redactUrl('https://bucket.s3.amazonaws.com/b/bundle.tar.gz?X-Amz-Signature=abc&X-Amz-Credential=AKIA'),
      'https://bucket.s3.amazonaws.com/b/bundle.tar.gz?[redacted]',
    );
    assert.equal(redactUrl('https://user:pw@host/x'), 'https://[redacted]@host/x');
    assert.equal(redactUrl('/v2/agent/p/job/j'), '/v2/agent/p/job/j');
  });

  it('masks keys, bearer tokens and links inside free text', () => {
    const text = 'failed with key da_secret_123 and Authorization: Bearer abc.def at https://h/b.tgz?sig=zzz&se=2026 ok';
    const out = redactSecrets(text, ['da_secret_123']);
    assert.ok(!out.includes('da_secret_123'));
    assert.ok(!out.includes('abc.def'));
    assert.ok(!out.includes('sig=zzz'));
    assert.match(out, /https:\/\/h\/b\.tgz\?\[redacted\] ok$/);
  });
});
