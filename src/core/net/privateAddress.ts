/**
 * Addresses a redirect from the internet must not lead to: this machine (loopback), the local
 * network (RFC 1918, unique local IPv6), link-local ones (cloud metadata services answer on
 * 169.254.169.254), the shared and unspecified ranges. A bundle link handed out by a server is
 * followed across redirects; a redirect to one of these would let the storage (or whoever
 * answers for it) make this machine fetch from its own network. Kept in Node's `BlockList`.
 */
import * as l10n from '@vscode/l10n';
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isLoopbackHost } from '../links';

const V4: readonly [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
];
const V6: readonly [string, number][] = [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
];

const PRIVATE = new BlockList();
for (const [net, prefix] of V4) PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of V6) PRIVATE.addSubnet(net, prefix, 'ipv6');

/** Whether an IP address (v4, v6, or v4 mapped into v6) is loopback, private, link-local or unspecified. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (isIPv4(bare)) return PRIVATE.check(bare, 'ipv4');
  if (!isIPv6(bare)) return false;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(bare);
  if (mapped?.[1] !== undefined) return PRIVATE.check(mapped[1], 'ipv4');
  return PRIVATE.check(bare, 'ipv6');
}

/** Whether a URL's host names such an address by itself: a loopback name, or a private IP literal. */
export function isPrivateHost(hostname: string): boolean {
  return isLoopbackHost(hostname) || isPrivateAddress(hostname);
}

/** The error of a name that resolved to such an address. */
export class PrivateAddressError extends Error {
  readonly code = 'ERR_PRIVATE_ADDRESS';
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(l10n.t('{0} resolves to {1}, an address on this machine or its local network', host, address));
    this.name = 'PrivateAddressError';
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `net.connect` (Node's http passes it on) that refuses a name resolving to a
 * private address: a redirect that names a host (not an address) is checked where it connects.
 */
export function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error !== null) return callback(error, []);
    const refused = addresses.find((a) => isPrivateAddress(a.address));
    if (refused !== undefined) return callback(new PrivateAddressError(hostname, refused.address), []);
    if (options.all === true) return callback(null, addresses);
    const first = addresses[0];
    if (first === undefined) return callback(Object.assign(new Error(l10n.t('{0} has no address', hostname)), { code: 'ENOTFOUND' }), []);
    callback(null, first.address, first.family);
  });
}
