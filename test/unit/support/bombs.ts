/**
 * Archive bombs made in the test, by streaming zeros through zlib (nothing stored in the
 * repository): a tar.gz holding one 4 GiB file, a zip (ZIP64) holding one deflated 4 GiB entry,
 * and smaller ones built the same way. The run-length strategy compresses zeros as tightly as
 * the default one (about 1,030:1, so a 4 GiB bomb is about 4 MB) in a third of the time.
 */
import { constants, crc32, createDeflateRaw, createGzip, type DeflateRaw, type Gzip } from 'node:zlib';
import { tarHeader } from './archives';

const MiB = 1024 * 1024;
const ZEROS = Buffer.alloc(MiB);

/** `bytes` zeros, a MiB at a time. */
export function* zeros(bytes: number): Generator<Buffer> {
  for (let left = bytes; left > 0; left -= MiB) yield left >= MiB ? ZEROS : ZEROS.subarray(0, left);
}

/** One tar entry of `bytes` zeros (header, data, padding), streamed. */
export function* tarZerosEntry(name: string, bytes: number): Generator<Buffer> {
  yield tarHeader(name, '0', bytes);
  yield* zeros(bytes);
  yield Buffer.alloc((512 - (bytes % 512)) % 512);
}

/** The tar's two end blocks. */
export const TAR_END = Buffer.alloc(1024);

/** Streams `chunks` through `stream`; gives what came out, and (`withCrc`) the CRC-32 of what went in. */
async function squeeze(stream: Gzip | DeflateRaw, chunks: Iterable<Buffer>, withCrc: boolean): Promise<{ body: Buffer; crc: number; size: number }> {
  const out: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  // gzip keeps its own CRC; a zip's is computed here.
  let crc = 0;
  let size = 0;
  for (const chunk of chunks) {
    if (withCrc) crc = crc32(chunk, crc);
    size += chunk.length;
    if (!stream.write(chunk)) await new Promise((resolve) => stream.once('drain', resolve));
  }
  stream.end();
  await ended;
  return { body: Buffer.concat(out), crc, size };
}

const options = { level: 9, strategy: constants.Z_RLE, chunkSize: MiB };

/** A tar.gz of whatever `chunks` hold (raw tar, end blocks included). */
export async function tarGzip(chunks: Iterable<Buffer>): Promise<Buffer> {
  return (await squeeze(createGzip(options), chunks, false)).body;
}

/** A tar.gz of one file of `bytes` zeros (declared honestly in its header). */
export function tarGzipBomb(bytes: number, name = 'zeros.bin'): Promise<Buffer> {
  return tarGzip((function* () {
    yield* tarZerosEntry(name, bytes);
    yield TAR_END;
  })());
}

/** Zeros, raw-deflated, with their size and CRC-32 (a zip entry's body). */
export async function deflatedZerosStream(bytes: number): Promise<{ body: Buffer; size: number; crc: number }> {
  return squeeze(createDeflateRaw(options), zeros(bytes), true);
}

/**
 * A zip's bytes for one entry at `offset`, declared honestly: `content` zeros deflated, or a buffer stored; past
 * 4 GiB - 1 the size is in a ZIP64 extended-information extra field (as zip tools write it).
 */
async function zipEntry(name: string, content: number | Buffer, offset: number): Promise<{ local: Buffer; central: Buffer }> {
  const stored = typeof content !== 'number';
  const bytes = stored ? content.length : content;
  const { body, crc } = stored ? { body: content, crc: crc32(content) } : await deflatedZerosStream(content);
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
    h.writeUInt16LE(stored ? 0 : 8, at + 2);
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
  central.writeUInt32LE(offset, 42);
  return { local: Buffer.concat([local, nameBytes, extra, body]), central: Buffer.concat([central, nameBytes, extra]) };
}

/** A zip of entries declared honestly: `[name, n]` is n zeros, deflated; `[name, buffer]` is stored as it is. */
export async function zipOfZeros(entries: [string, number | Buffer][]): Promise<Buffer> {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, bytes] of entries) {
    const { local, central } = await zipEntry(name, bytes, offset);
    locals.push(local);
    centrals.push(central);
    offset += local.length;
  }
  const cdSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cdSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

/** A zip of one deflated entry of `bytes` zeros (ZIP64 past 4 GiB - 1). */
export function zipBomb(bytes: number, name = 'zeros.bin'): Promise<Buffer> {
  return zipOfZeros([[name, bytes]]);
}
