/**
 * NO_PROXY matching, as curl does it (lib/noproxy.c), plus the two forms other clients
 * (Go, undici, VS Code) accept and people write:
 * - entries separated by commas (blanks around them ignored); `*` matches every host;
 * - a host name matches itself and its subdomains on a dot boundary: `example.com` and
 *   `.example.com` both match `example.com` and `www.example.com`, never `notexample.com`;
 *   case and a trailing dot do not matter;
 * - an IP address matches only that address (never as a suffix), and a CIDR range
 *   (`10.0.0.0/8`, `fd00::/8`) every address in it; IPv6 may be written in brackets;
 * - beyond curl: `*.example.com` means `.example.com`, and `host:port` matches only that port.
 * Pure: no I/O, no DNS (a name is never resolved to compare it with an address).
 */
import { isIP } from 'node:net';

export interface NoProxyRule {
  /** Lower case, without brackets, leading `.`/`*.` or trailing dot. */
  pattern: string;
  kind: 'all' | 'host' | 'ip';
  /** For `kind: 'ip'`: the prefix length (32 or 128 for one address). */
  bits?: number;
  /** Only this port, when given. */
  port?: number;
}

/** The entries of a NO_PROXY value (or of a list such as `http.noProxy`); unusable ones are dropped. */
export function parseNoProxy(value: string | readonly string[] | undefined): NoProxyRule[] {
  if (value === undefined) return [];
  const text = typeof value === 'string' ? value : value.join(',');
  const rules: NoProxyRule[] = [];
  for (const raw of text.split(/[,\s]+/)) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') {
      rules.push({ pattern: '*', kind: 'all' });
      continue;
    }
    const rule = parseEntry(entry);
    if (rule !== undefined) rules.push(rule);
  }
  return rules;
}

function parseEntry(entry: string): NoProxyRule | undefined {
  let rest = entry;
  let port: number | undefined;
  // [v6]:port, [v6], v4:port, host:port; a bare IPv6 address has several colons and no port.
  const bracketed = /^\[([^\]]+)\](?::(\d+))?(\/\d+)?$/.exec(rest);
  if (bracketed) {
    rest = `${bracketed[1] ?? ''}${bracketed[3] ?? ''}`;
    if (bracketed[2] !== undefined) port = Number(bracketed[2]);
  } else if ((rest.match(/:/g) ?? []).length === 1) {
    const at = rest.lastIndexOf(':');
    const portText = rest.slice(at + 1);
    if (!/^\d+$/.test(portText)) return undefined;
    port = Number(portText);
    rest = rest.slice(0, at);
  }
  const portPart = port === undefined ? {} : { port };
  const slash = rest.indexOf('/');
  const address = slash >= 0 ? rest.slice(0, slash) : rest;
  const family = isIP(address);
  if (family !== 0) {
    const max = family === 4 ? 32 : 128;
    const bits = slash >= 0 ? Number(rest.slice(slash + 1)) : max;
    if (!Number.isInteger(bits) || bits < 0 || bits > max) return undefined;
    return { pattern: address, kind: 'ip', bits, ...portPart };
  }
  if (slash >= 0) return undefined;
  const host = rest.replace(/^\*?\./, '').replace(/\.$/, '');
  if (host === '' || host.includes('*')) return undefined;
  return { pattern: host, kind: 'host', ...portPart };
}

/** Whether a request to `url` goes around the proxy. */
export function bypassesProxy(url: URL, rules: readonly NoProxyRule[]): boolean {
  if (rules.length === 0) return false;
  const hostname = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const family = isIP(hostname);
  const name = hostname.replace(/\.$/, '');
  return rules.some((rule) => {
    if (rule.kind === 'all') return true;
    if (rule.port !== undefined && rule.port !== port) return false;
    if (rule.kind === 'ip') return family !== 0 && inRange(hostname, family, rule.pattern, rule.bits ?? 0);
    if (family !== 0) return false;
    return name === rule.pattern || name.endsWith(`.${rule.pattern}`);
  });
}

/** Whether `address` lies in `network/bits` (both of the same family). */
function inRange(address: string, family: number, network: string, bits: number): boolean {
  if (isIP(network) !== family) return false;
  const a = toBytes(address, family);
  const n = toBytes(network, family);
  if (a === undefined || n === undefined) return false;
  for (let bit = 0; bit < bits; bit++) {
    const mask = 0x80 >> bit % 8;
    const i = Math.floor(bit / 8);
    if (((a[i] ?? 0) & mask) !== ((n[i] ?? 0) & mask)) return false;
  }
  return true;
}

function toBytes(address: string, family: number): number[] | undefined {
  if (family === 4) return address.split('.').map(Number);
  // IPv6: expand `::`, and an embedded IPv4 tail (::ffff:1.2.3.4).
  let text = address;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4?.[1] !== undefined) {
    const [a = 0, b = 0, c = 0, d = 0] = v4[1].split('.').map(Number);
    text = `${text.slice(0, -v4[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  if (groups.length !== 8) return undefined;
  return groups.flatMap((g) => {
    const v = parseInt(g, 16);
    return [v >> 8, v & 0xff];
  });
}
