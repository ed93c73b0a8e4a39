/**
 * Archive bombs made in the test, by streaming zeros through zlib (nothing stored in the
 * repository): a tar.gz holding one 4 GiB file, a zip (ZIP64) holding one deflated 4 GiB entry.
 * The run-length strategy compresses zeros as tightly as the default one (about 1,030:1, so a
 * 4 GiB bomb is about 4 MB) in a third of the time.
 */
import { crc32, constants, createDeflateRaw, createGzip, type Gzip, type DeflateRaw } from 'node:zlib';
import { tarHeader } from './archives';

const MiB = 1024 * 1024;
const ZEROS = Buffer.alloc(MiB);

/** Writes `head`, `zeros` bytes of zeros, then `tail` into `stream`; gives what came out, and the CRC-32 of what went in. */
async function squeeze(stream: Gzip | DeflateRaw, head: Buffer, zeros: number, tail: Buffer): Promise<{ body: Buffer; crc: number }> {
  const out: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  let crc = crc32(head);
  const write = async (chunk: Buffer): Promise<void> => {
    if (!stream.write(chunk)) await new Promise((resolve) => stream.once('drain', resolve));
  };
  await write(head);
  for (let left = zeros; left > 0; left -= MiB) {
    const chunk = left >= MiB ? ZEROS : ZEROS.subarray(0, left);
    crc = crc32(chunk, crc);
    await write(chunk);
  }
  crc = crc32(tail, crc);
  stream.end(tail);
  await ended;
  return { body: Buffer.concat(out), crc };
}

const options = { level: 9, strategy: constants.Z_RLE, chunkSize: MiB };

/** A tar.gz of one file of `bytes` zeros (declared honestly in its header), the tar's end blocks after it. */
export async function tarGzipBomb(bytes: number, name = 'zeros.bin'): Promise<Buffer> {
  const padding = Buffer.alloc((512 - (bytes % 512)) % 512);
  return (await squeeze(createGzip(options), tarHeader(name, '0', bytes), bytes, Buffer.concat([padding, Buffer.alloc(1024)]))).body;
}

/** Zeros, raw-deflated, with their size and CRC-32 (a zip entry's body). */
export async function deflatedZerosStream(bytes: number): Promise<{ body: Buffer; size: number; crc: number }> {
  const { body, crc } = await squeeze(createDeflateRaw(options), Buffer.alloc(0), bytes, Buffer.alloc(0));
  return { body, size: bytes, crc };
}

/**
 * A zip of one deflated entry of `bytes` zeros, declared honestly; past 4 GiB - 1 the size is
 * in a ZIP64 extended-information extra field (as zip tools write it).
 */
export async function zipBomb(bytes: number, name = 'zeros.bin'): Promise<Buffer> {
  const { body, crc } = await deflatedZerosStream(bytes);
  const nameBytes = Buffer.from(name);
  const zip64 = bytes >= 0xffffffff;
  const extra = Buffer.alloc(zip64 ? 12 : 0);
  if (zip64) {
    extra.writeUInt16LE(0x0001, 0);
    extra.writeUInt16LE(8, 2);
    extra.writeBigUInt64LE(BigInt(bytes), 4);
  }
  const fields = (h: Buffer, at: number): void => {
    h.writeUInt16LE(0x0800, at);
    h.writeUInt16LE(8, at + 2);
    h.writeUInt16LE(0, at + 4);
    h.writeUInt16LE(0x21, at + 6);
    h.writeUInt32LE(crc, at + 8);
    h.writeUInt32LE(body.length, at + 12);
    h.writeUInt32LE(zip64 ? 0xffffffff : bytes, at + 16);
    h.writeUInt16LE(nameBytes.length, at + 20);
    h.writeUInt16LE(extra.length, at + 22);
  };
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(45, 4);
  fields(local, 6);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE((3 << 8) | 45, 4);
  central.writeUInt16LE(45, 6);
  fields(central, 8);
  central.writeUInt32LE((0o100644 << 16) >>> 0, 38);
  central.writeUInt32LE(0, 42);
  const cdOffset = local.length + nameBytes.length + extra.length + body.length;
  const cdSize = central.length + nameBytes.length + extra.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(cdSize, 12);
  end.writeUInt32LE(cdOffset, 16);
  return Buffer.concat([local, nameBytes, extra, body, central, nameBytes, extra, end]);
}
