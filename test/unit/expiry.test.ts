import * as assert from 'node:assert/strict';
import { bundleExpiry, expiryFromUrl, timeLeftMs } from '../../src/core/bundle/links/expiry';

describe('bundle link expiry', () => {
  it('reads S3 SigV4 links (X-Amz-Date + X-Amz-Expires)', () => {
    const url = 'https://bucket.s3.amazonaws.com/exports/bundle.tar.gz?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20261122T120000Z&X-Amz-Expires=3600&X-Amz-Signature=ab';
    assert.deepEqual(expiryFromUrl(url), { at: Date.parse('2026-11-22T13:00:00Z'), source: 's3' });
  });

  it('reads GCS V4 links (X-Goog-Date + X-Goog-Expires), whatever the case of the names', () => {
    const url = 'https://storage.googleapis.com/b/bundle.tar.gz?x-goog-algorithm=GOOG4-RSA-SHA256&x-goog-date=20261122T120000Z&x-goog-expires=900&x-goog-signature=cd';
    assert.deepEqual(expiryFromUrl(url), { at: Date.parse('2026-11-22T12:15:00Z'), source: 'gcs' });
  });

  it('reads Azure SAS links (se=)', () => {
    const url = 'https://acct.blob.core.windows.net/c/bundle.tar.gz?sv=2022-11-02&se=2026-11-22T18%3A30%3A00Z&sr=b&sp=r&sig=xyz';
    assert.deepEqual(expiryFromUrl(url), { at: Date.parse('2026-11-22T18:30:00Z'), source: 'azure' });
  });

  it('reads CloudFront signed URLs (Expires= epoch seconds)', () => {
    const url = 'https://d111.cloudfront.net/bundle.tar.gz?Expires=1795000000&Signature=abc~&Key-Pair-Id=K2';
    assert.deepEqual(expiryFromUrl(url), { at: 1_795_000_000_000, source: 'cloudfront' });
  });

  it('gives nothing for a link without an expiry, or a malformed one', () => {
    assert.equal(expiryFromUrl('https://example.com/bundle.tar.gz'), undefined);
    assert.equal(expiryFromUrl('https://example.com/b?X-Amz-Date=yesterday&X-Amz-Expires=60'), undefined);
    assert.equal(expiryFromUrl('https://example.com/b?Expires=soon&Signature=x'), undefined);
    assert.equal(expiryFromUrl('not a url'), undefined);
  });

  it('prefers the server\'s expiresAt over the link', () => {
    const url = 'https://b.s3.amazonaws.com/x?X-Amz-Date=20261122T120000Z&X-Amz-Expires=60';
    assert.deepEqual(bundleExpiry({ bundleUrl: url, expiresAt: '2026-11-22T15:00:00Z' }), { at: Date.parse('2026-11-22T15:00:00Z'), source: 'expiresAt' });
    assert.equal(bundleExpiry({ bundleUrl: url })?.source, 's3');
  });

  it('corrects for the server\'s clock being ahead or behind', () => {
    const expiry = { at: Date.parse('2026-11-22T13:00:00Z'), source: 's3' as const };
    const ourNow = Date.parse('2026-11-22T12:00:00Z');
    assert.equal(timeLeftMs(expiry, ourNow), 3_600_000);
    // The server's clock is 5 minutes ahead of ours: its 13:00 is our 12:55.
    assert.equal(timeLeftMs(expiry, ourNow, { serverDate: ourNow + 300_000, receivedAt: ourNow }), 3_300_000);
    // Ten minutes behind: its 13:00 is our 13:10.
    assert.equal(timeLeftMs(expiry, ourNow, { serverDate: ourNow - 600_000, receivedAt: ourNow }), 4_200_000);
  });
});
