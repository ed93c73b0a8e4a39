/**
 * A large, realistic docs site for the ratio guard to let through: pages of varied HTML (a
 * navigation of real links, headings, prose drawn word by word, code samples, tables), some CSS
 * and JavaScript, and incompressible images, as a static export holds them. Nothing repeats
 * whole; it compresses about as a real site does (5-10:1). Written straight to disk, as a tar.gz
 * or a zip, a page at a time: memory stays flat whatever the size.
 */
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { constants, crc32, createGzip, deflateRawSync } from 'node:zlib';
import { tarHeader } from './archives';

/** A small, fast, seeded generator (mulberry32): the same site every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['con', 'fig', 'ure', 'de', 'ploy', 'ment', 'serv', 'er', 'cli', 'ent', 'key', 'ex', 'port', 'bun', 'dle', 'set', 'ting', 'val', 'ue', 'in', 'stall', 'route', 'proxy', 'cache', 'in', 'dex', 'page', 'search', 'auth', 'token', 'role', 'poli', 'cy', 'node', 'clus', 'ter', 'name', 'space', 'vol', 'ume', 'log', 'trace', 'met', 'ric', 'a', 'o', 'i', 'u', 'e'];

interface Site {
  /** Files in order: path and bytes. */
  files(): Generator<{ path: string; data: Buffer }>;
}

/** About `totalBytes` of site, seeded. */
export function bigSite(totalBytes: number, seed = 7): Site {
  const rnd = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)] as T;
  // A vocabulary of a few thousand words, drawn with a skew (as in prose: a few words are common).
  const vocabulary = Array.from({ length: 1200 }, () => Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => pick(SYLLABLES)).join(''));
  const word = (): string => vocabulary[Math.floor(vocabulary.length * rnd() ** 4)] ?? 'docs';
  const words = (n: number): string => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(word());
    return out.join(' ');
  };
  const inline = (): string => {
    const r = rnd();
    if (r < 0.15) return `<code class="inline-code notranslate">${word()}.${word()}</code>`;
    if (r < 0.3) return `<a class="reference internal" href="/docs/${word()}/${word()}.html#${word()}"><span class="std std-ref">${words(2)}</span></a>`;
    if (r < 0.4) return `<strong class="emphasis">${word()}</strong>`;
    return '';
  };
  const sentence = (): string => {
    const s = `${words(3 + Math.floor(rnd() * 6))} ${inline()} ${words(2 + Math.floor(rnd() * 5))}`;
    return `${s.charAt(0).toUpperCase()}${s.slice(1)}${pick(['.', '.', '.', '?', ':'])}`;
  };
  const paragraph = (): string => `<p class="md-paragraph" data-block="text">${Array.from({ length: 2 + Math.floor(rnd() * 4) }, sentence).join(' ')}</p>`;
  const code = (): string =>
    `<div class="highlight"><pre class="code"><code class="language-yaml">${Array.from({ length: 4 + Math.floor(rnd() * 12) }, () => `<span class="line">${'  '.repeat(Math.floor(rnd() * 3))}<span class="token key">${word()}</span><span class="token punctuation">:</span> <span class="token ${pick(['string', 'number', 'boolean'])}">${word()}</span></span>`).join('\n')}</code></pre><button class="copy-button" title="Copy to clipboard">Copy</button></div>`;
  const table = (): string =>
    `<table class="table"><thead><tr><th>${words(1)}</th><th>${words(1)}</th><th>${words(1)}</th></tr></thead><tbody>${Array.from({ length: 3 + Math.floor(rnd() * 8) }, () => `<tr><td><code>${word()}.${word()}</code></td><td>${words(2)}</td><td>${sentence()}</td></tr>`).join('')}</tbody></table>`;
  const sections = Array.from({ length: 40 }, () => word());
  // A section's pages share its sidebar, as a static site's do.
  const titles = sections.map(() => Array.from({ length: 80 }, (_, i) => words(2 + (i % 3))));
  const nav = (section: number, pages: number, current: number): string =>
    `<nav class="sidebar" aria-label="${sections[section] ?? ''}"><ul class="nav-list">${Array.from({ length: pages }, (_, i) => `<li class="nav-item${i === current ? ' active' : ''}"><a class="nav-link" href="/docs/${sections[section] ?? ''}/page-${i}.html">${titles[section]?.[i] ?? ''}</a></li>`).join('')}</ul></nav>`;
  const page = (section: number, index: number, pages: number): string => {
    const body: string[] = [];
    const target = 12_000 + Math.floor(rnd() * 40_000);
    let length = 0;
    while (length < target) {
      const r = rnd();
      const id = `${word()}-${index}`;
      const block =
        r < 0.12
          ? `<section class="md-section" id="section-${id}"><h2 class="md-heading" id="${id}">${words(3)}<a class="headerlink" href="#${id}" title="Permanent link to this heading" aria-hidden="true">¶</a></h2>`
          : r < 0.32
            ? code()
            : r < 0.37
              ? table()
              : paragraph();
      body.push(block);
      length += block.length;
    }
    const title = titles[section]?.[index] ?? words(3);
    return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${title} | Docs</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="/assets/site.css"><script defer src="/assets/site.js"></script></head>
<body class="docs-page"><header class="top-bar"><a class="logo" href="/">Docs</a><input class="search" type="search" placeholder="Search"></header>
${nav(section, pages, index)}
<main class="content"><article><h1>${title}</h1>
${body.join('\n')}
</article></main><footer class="footer"><p>Last updated ${2020 + Math.floor(rnd() * 6)}-${1 + Math.floor(rnd() * 12)}-${1 + Math.floor(rnd() * 28)}</p></footer></body></html>
`;
  };
  return {
    *files() {
      let written = 0;
      yield { path: 'assets/site.css', data: Buffer.from(Array.from({ length: 3000 }, () => `.${word()}-${word()} { margin: ${Math.floor(rnd() * 40)}px; color: #${Math.floor(rnd() * 0xffffff).toString(16).padStart(6, '0')}; }`).join('\n')) };
      yield { path: 'assets/site.js', data: Buffer.from(Array.from({ length: 3000 }, () => `function ${word()}_${Math.floor(rnd() * 1e6)}(a, b) { return a.${word()}(b) || ${Math.floor(rnd() * 100)}; }`).join('\n')) };
      for (let part = 0; written < totalBytes; part++) {
        // Each part of the site is a folder of its own; the 40 sections' sidebars come round again.
        const section = part % sections.length;
        const pages = 20 + Math.floor(rnd() * 60);
        for (let index = 0; index < pages && written < totalBytes; index++) {
          const data = Buffer.from(page(section, index, pages));
          written += data.length;
          yield { path: `docs/${sections[section] ?? ''}-${part}/page-${index}.html`, data };
          if (rnd() < 0.02) {
            // An image: already compressed, it does not shrink.
            const image = Buffer.alloc(5_000 + Math.floor(rnd() * 60_000));
            for (let i = 0; i < image.length; i += 4) image.writeUInt32LE(Math.floor(rnd() * 0x100000000), Math.min(i, image.length - 4));
            written += image.length;
            yield { path: `docs/${sections[section] ?? ''}-${part}/img-${index}.png`, data: image };
          }
        }
      }
    },
  };
}

async function put(out: WriteStream | ReturnType<typeof createGzip>, data: Buffer): Promise<void> {
  if (!out.write(data)) await once(out, 'drain');
}

/** Writes the site as a tar.gz at `path` (gzip's default level, as export tools use); gives its expanded size. */
export async function writeSiteTarGz(site: Site, path: string): Promise<{ expanded: number; files: number }> {
  const gzip = createGzip({ level: constants.Z_DEFAULT_COMPRESSION });
  const file = createWriteStream(path);
  gzip.pipe(file);
  let expanded = 0;
  let files = 0;
  for (const { path: name, data } of site.files()) {
    await put(gzip, tarHeader(name, '0', data.length));
    await put(gzip, data);
    const padding = (512 - (data.length % 512)) % 512;
    if (padding > 0) await put(gzip, Buffer.alloc(padding));
    expanded += data.length;
    files++;
  }
  gzip.end(Buffer.alloc(1024));
  await once(file, 'close');
  return { expanded, files };
}

/** Writes the site as a zip at `path`, each file deflated; gives its expanded size. */
export async function writeSiteZip(site: Site, path: string): Promise<{ expanded: number; files: number }> {
  const file = createWriteStream(path);
  const central: Buffer[] = [];
  let offset = 0;
  let expanded = 0;
  let count = 0;
  for (const { path: name, data } of site.files()) {
    const nameBytes = Buffer.from(name);
    const body = deflateRawSync(data);
    const fields = (h: Buffer, at: number): void => {
      h.writeUInt16LE(0x0800, at);
      h.writeUInt16LE(8, at + 2);
      h.writeUInt16LE(0x21, at + 6);
      h.writeUInt32LE(crc32(data), at + 8);
      h.writeUInt32LE(body.length, at + 12);
      h.writeUInt32LE(data.length, at + 16);
      h.writeUInt16LE(nameBytes.length, at + 20);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    fields(local, 6);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE((3 << 8) | 20, 4);
    cd.writeUInt16LE(20, 6);
    fields(cd, 8);
    cd.writeUInt32LE((0o100644 << 16) >>> 0, 38);
    cd.writeUInt32LE(offset, 42);
    central.push(cd, nameBytes);
    await put(file, Buffer.concat([local, nameBytes, body]));
    offset += local.length + nameBytes.length + body.length;
    expanded += data.length;
    count++;
  }
  const cdSize = central.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(cdSize, 12);
  end.writeUInt32LE(offset, 16);
  file.end(Buffer.concat([...central, end]));
  await once(file, 'close');
  return { expanded, files: count };
}
