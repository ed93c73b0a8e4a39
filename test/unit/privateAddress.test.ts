/**
 * Where a bundle link's redirect may not lead: this machine and its local network, named or
 * resolved (net/privateAddress.ts). The download's own tests follow redirects over real sockets
 * (download.test.ts, "redirects"); these are the address rules and the connect-time lookup.
 */
import * as assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { isPrivateAddress, isPrivateHost, PrivateAddressError, publicOnlyLookup } from '../../src/core/net/privateAddress';

describe('addresses a redirect may not lead to', () => {
  const refused = ['127.0.0.1', '127.8.9.10', '10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fc00::1', 'fd12:3456::1', 'fe80::1', '::ffff:10.1.2.3', '::ffff:127.0.0.1', '[::1]'];
  const allowed = ['8.8.8.8', '52.216.0.1', '172.32.0.1', '172.15.255.255', '192.169.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8', 'storage.example.com', 's3.amazonaws.com'];

  it('loopback, private, link-local, shared and unspecified addresses are refused, v4, v6 and v4 in v6', () => {
    for (const address of refused) assert.equal(isPrivateAddress(address), true, address);
    for (const address of allowed) assert.equal(isPrivateAddress(address), false, address);
  });

  it('a host is private by its name (localhost) or its address, never by a name that only resolves there', () => {
    assert.equal(isPrivateHost('localhost'), true);
    assert.equal(isPrivateHost('LOCALHOST'), true);
    assert.equal(isPrivateHost('10.1.2.3'), true);
    // A name is checked where the connection is made (publicOnlyLookup), not by its spelling.
    assert.equal(isPrivateHost('internal.example.com'), false);
    assert.equal(isPrivateHost('api.localhost'), false);
  });

  it('the lookup used after a redirect refuses a name that resolves to this machine, and passes a public address on', async () => {
    const lookup = (host: string, all: boolean) =>
      new Promise<{ error: NodeJS.ErrnoException | null; address: string | LookupAddress[] }>((resolve) => publicOnlyLookup(host, { all }, (error, address) => resolve({ error, address })));
    for (const all of [false, true]) {
      const local = await lookup('localhost', all);
      assert.ok(local.error instanceof PrivateAddressError, String(local.error));
      assert.match(local.error.message, /^localhost resolves to (127\.0\.0\.1|::1), an address on this machine or its local network$/);
    }
    // An address as the name: resolved to itself, offline.
    const plain = await lookup('8.8.8.8', false);
    assert.deepEqual([plain.error, plain.address], [null, '8.8.8.8']);
    const listed = await lookup('8.8.8.8', true);
    assert.deepEqual([listed.error, listed.address], [null, [{ address: '8.8.8.8', family: 4 }]]);
  });
});
