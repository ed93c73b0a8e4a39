/**
 * Archive writers for hostile and damaged bundles: headers no well-behaved tool writes, gzip
 * bombs built without compressing gigabytes, and a look at what landed on disk.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { constants, crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';

export interface RawEntry {
  name: string;
  /** ustar type flag: '0' file, '1' hard link, '2' symlink, '3' char device, '4' block device, '5' folder, '6' FIFO, 'x' PAX header. */
  type?: string;
  data?: Buffer | string;
  linkname?: string;
  /** The size the header declares, when it should lie. */
  declaredSize?: number;
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

export function tarHeader(name: string, type: string, size: number, linkname = ''): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, 100);
  h.write(octal(0o644, 8), 100);
  h.write(octal(0, 8), 108);
  h.write(octal(0, 8), 116);
  if (size < 8 ** 11) h.write(octal(size, 12), 124);
  else {
    // GNU base-256: the high bit of the first byte set, the size big-endian in the rest.
    h[124] = 0x80;
    h.writeBigUInt64BE(BigInt(size), 128);
  }
  h.write(octal(1_700_000_000, 12), 136);
  h.write(' '.repeat(8), 148);
  h.write(type, 156);
  h.write(linkname, 157, 100);
  h.write('ustar\0' + '00', 257);
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return h;
}

/** A PAX extended header entry ('x') carrying `records` for the entry after it. */
export function paxEntry(records: Record<string, string>): RawEntry {
  let body = '';
  for (const [key, value] of Object.entries(records)) {
    const rest = ` ${key}=${value}\n`;
    let length = rest.length + 1;
    while (`${length}${rest}`.length !== length) length = `${length}${rest}`.length;
    body += `${length}${rest}`;
  }
  return { name: 'PaxHeader', type: 'x', data: body };
}

/** An uncompressed tar, ending with the two zero blocks. */
export function rawTar(entries: RawEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const data = Buffer.from(e.data ?? '');
    parts.push(tarHeader(e.name, e.type ?? '0', e.declaredSize ?? data.length, e.linkname), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  return Buffer.concat([...parts, Buffer.alloc(1024)]);
}

export interface ZipEntry {
  name: string;
  data?: Buffer | string;
  /** Unix mode for the high bits of the external attributes (0o120777 is a symlink). */
  mode?: number;
  deflate?: boolean;
  /** Already deflated bytes (with their real expanded size and CRC), for bombs. */
  raw?: { body: Buffer; size: number; crc: number };
  /** Lie about the expanded size. */
  declaredSize?: number;
  /** An extra field (in both headers) and a comment (in the central directory). */
  extra?: Buffer;
  comment?: string;
}

/** A zip with stored or deflated entries, names written as given. */
export function zip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const data = Buffer.from(e.data ?? '');
    const body = e.raw?.body ?? (e.deflate ? deflateRawSync(data) : data);
    const deflated = e.raw !== undefined || e.deflate === true;
    const fields = (h: Buffer, at: number): void => {
      h.writeUInt16LE(0x0800, at); // UTF-8 names
      h.writeUInt16LE(deflated ? 8 : 0, at + 2);
      h.writeUInt16LE(0, at + 4);
      h.writeUInt16LE(0x21, at + 6);
      h.writeUInt32LE(e.raw?.crc ?? crc32(data), at + 8);
      h.writeUInt32LE(body.length, at + 12);
      h.writeUInt32LE(e.declaredSize ?? e.raw?.size ?? data.length, at + 16);
      h.writeUInt16LE(name.length, at + 20);
    };
    const extra = e.extra ?? Buffer.alloc(0);
    const comment = Buffer.from(e.comment ?? '');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    fields(local, 6);
    local.writeUInt16LE(extra.length, 28);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE((3 << 8) | 20, 4);
    cd.writeUInt16LE(20, 6);
    fields(cd, 8);
    cd.writeUInt16LE(extra.length, 30);
    cd.writeUInt16LE(comment.length, 32);
    cd.writeUInt32LE(((e.mode ?? (e.name.endsWith('/') ? 0o40755 : 0o100644)) << 16) >>> 0, 38);
    cd.writeUInt32LE(offset, 42);
    locals.push(local, name, extra, body);
    central.push(cd, name, extra, comment);
    offset += local.length + name.length + extra.length + body.length;
  }
  const cdSize = central.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cdSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...central, end]);
}

const MiB = 1024 * 1024;
const LEAD = 64 * 1024;

/**
 * Raw deflate of `head`, 64 KiB of zeros, then `mebibytes` MiB of zeros, built in
 * milliseconds: the block that encodes 1 MiB of zeros after zeros is the same block every time,
 * so it is compressed once and repeated. Gives the bytes, the expanded size and its CRC-32.
 */
export async function deflatedZeros(head: Buffer, mebibytes: number): Promise<{ body: Buffer; size: number; crc: number }> {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const flush = () => new Promise<void>((resolve) => deflate.flush(constants.Z_SYNC_FLUSH, () => resolve()));
  deflate.write(Buffer.concat([head, Buffer.alloc(LEAD)]));
  await flush();
  const prefixLength = Buffer.concat(out).length;
  deflate.write(Buffer.alloc(MiB));
  await flush();
  const all = Buffer.concat(out);
  deflate.destroy();
  const block = all.subarray(prefixLength);
  let crc = crc32(Buffer.concat([head, Buffer.alloc(LEAD)]));
  const zeros = Buffer.alloc(MiB);
  for (let i = 0; i < mebibytes; i++) crc = crc32(zeros, crc);
  const body = Buffer.concat([all.subarray(0, prefixLength), ...Array.from({ length: mebibytes }, () => block), Buffer.from([0x03, 0x00])]);
  return { body, size: head.length + LEAD + mebibytes * MiB, crc };
}

/** A gzip member around raw deflate bytes; `isize` lies about the expanded size when given. */
export function gzipMember(deflated: { body: Buffer; size: number; crc: number }, isize?: number): Buffer {
  const header = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0x03]);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(deflated.crc >>> 0, 0);
  trailer.writeUInt32LE((isize ?? deflated.size) % 2 ** 32, 4);
  return Buffer.concat([header, deflated.body, trailer]);
}

/** Every path below `dir` ('x/' for folders) with each file's content. */
export async function tree(dir: string, prefix = ''): Promise<Map<string, Buffer | null>> {
  const found = new Map<string, Buffer | null>();
  for (const entry of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix + entry.name;
    if (entry.isDirectory()) {
      found.set(`${rel}/`, null);
      for (const [p, c] of await tree(dir, `${rel}/`)) found.set(p, c);
    } else {
      found.set(rel, await readFile(join(dir, rel)));
    }
  }
  return found;
}
