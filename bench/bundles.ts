/**
 * Bundles for the download benchmark: real tar.gz archives of a docs site's shape, so the
 * download's archive check reads a real archive through (every gzip member to its trailer, the
 * tar to its end). A large export is mostly media (images, video, fonts: already compressed, so
 * deflate stores them); beside them, a few hundred HTML pages of varied prose, which compress.
 * The media part is made as a stream through zlib, so that memory holds the archive once.
 */
import { randomBytes } from 'node:crypto';
import { createGzip, gzipSync } from 'node:zlib';
import { Header } from 'tar';
import { prng } from './types';

const MiB = 1024 ** 2;

/** A ustar header block, written by node-tar. */
function header(path: string, size: number): Buffer {
  const block = Buffer.alloc(512);
  new Header({ path, size, mode: 0o644, uid: 0, gid: 0, mtime: new Date(1_700_000_000_000), type: 'File', uname: '', gname: '' }).encode(block, 0);
  return block;
}

const WORDS = 'the docs page guide install configure deploy bundle export agent review branch request static site search assistant analytics api reference example token domain version release chart values helm kubernetes pod storage link expire proxy certificate'.split(' ');

function page(random: () => number, index: number): Buffer {
  const paragraphs: string[] = [];
  const count = 8 + Math.floor(random() * 12);
  for (let p = 0; p < count; p++) {
    const words = Array.from({ length: 40 + Math.floor(random() * 60) }, () => WORDS[Math.floor(random() * WORDS.length)] ?? 'docs');
    paragraphs.push(`<p>${words.join(' ')}.</p>`);
  }
  return Buffer.from(`<!doctype html><html><head><title>Page ${index}</title><link rel="stylesheet" href="/site.css"></head><body><main>${paragraphs.join('\n')}</main></body></html>\n`);
}

/**
 * A tar.gz of about `size` bytes: 300 pages, then media files of 1-8 MiB (slices of a random
 * block, different at every offset a 32 KiB window sees) until the archive reaches the size.
 * Two gzip members, as parallel compressors write them: the pages at level 6, the media at
 * level 0 (the stored blocks level 6 chooses for bytes that do not compress, without the minute
 * it spends finding that out).
 */
export async function siteBundle(size: number, seed = 0x5eed): Promise<Buffer> {
  const random = prng(seed);
  const noise = randomBytes(16 * MiB);
  const pages: Buffer[] = [];
  const entry = (into: Buffer[], path: string, data: Buffer) => {
    into.push(header(path, data.length), data);
    const pad = (512 - (data.length % 512)) % 512;
    if (pad > 0) into.push(Buffer.alloc(pad));
  };
  for (let i = 0; i < 300; i++) entry(pages, `docs/page-${i}.html`, page(random, i));
  const first = gzipSync(Buffer.concat(pages), { level: 6 });
  const media = createGzip({ level: 0, chunkSize: MiB });
  const out: Buffer[] = [first];
  media.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    media.once('end', resolve);
    media.once('error', reject);
  });
  const write = (chunks: Buffer[]) => new Promise<void>((resolve, reject) => media.write(Buffer.concat(chunks), (error) => (error ? reject(error) : resolve())));
  let estimate = first.length;
  let at = 0;
  for (let n = 0; estimate < size; n++) {
    const length = Math.min(Math.max(64 * 1024, size - estimate), MiB + Math.floor(random() * 7 * MiB));
    estimate += length + 1024;
    const parts: Buffer[] = [];
    for (let left = length; left > 0; ) {
      const take = Math.min(left, noise.length - at);
      parts.push(noise.subarray(at, at + take));
      at = (at + take) % noise.length;
      left -= take;
    }
    const file: Buffer[] = [];
    entry(file, `assets/media-${n}.bin`, Buffer.concat(parts));
    await write(file);
  }
  await write([Buffer.alloc(1024)]);
  media.end();
  await ended;
  return Buffer.concat(out);
}
