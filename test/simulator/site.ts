/**
 * A small generated docs site and its `tar.gz`, as a static export would produce it: `.html`
 * files whose links are extension-less (`/guides/install`), nested `index.html`, CSS and JS.
 * Built with node-tar from a temporary folder; deterministic (fixed mtimes, sorted entries).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as tar from 'tar';

const page = (title: string, body: string) =>
  `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title>` +
  `<link rel="stylesheet" href="/assets/site.css"><script defer src="/assets/site.js"></script></head>\n` +
  `<body><nav><a href="/">Home</a> <a href="/guides/install">Install</a> <a href="/guides/configure">Configure</a> <a href="/reference">Reference</a></nav>\n` +
  `<main><h1>${title}</h1>\n${body}\n</main></body></html>\n`;

/** Relative path -> content. */
export function siteFiles(): Map<string, string> {
  const files = new Map<string, string>();
  files.set('index.html', page('Acme Docs', '<p>Welcome. Start with <a href="/guides/install">the install guide</a>.</p>'));
  files.set('guides/install.html', page('Install', '<p>Then <a href="/guides/configure">configure it</a>.</p>'));
  files.set('guides/configure.html', page('Configure', '<p>See the <a href="/reference/api">API reference</a>.</p>'));
  files.set('reference/index.html', page('Reference', '<ul><li><a href="/reference/api">API</a></li><li><a href="/reference/cli">CLI</a></li></ul>'));
  files.set('reference/api.html', page('API', '<p>Endpoints.</p>'));
  files.set('reference/cli.html', page('CLI', '<p>Commands.</p>'));
  files.set('404.html', page('Not found', '<p>This page does not exist.</p>'));
  files.set('assets/site.css', 'body{font-family:sans-serif;margin:2rem}nav a{margin-right:1rem}\n');
  files.set('assets/site.js', 'document.documentElement.dataset.ready = "true";\n');
  return files;
}

export function buildSiteArchive(): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'docs-admin-site-'));
  try {
    const root = join(dir, 'site');
    const names = [...siteFiles().keys()].sort();
    for (const [name, content] of siteFiles()) {
      mkdirSync(dirname(join(root, name)), { recursive: true });
      writeFileSync(join(root, name), content);
    }
    const out = join(dir, 'bundle.tar.gz');
    tar.create({ gzip: true, file: out, cwd: root, portable: true, sync: true, mtime: new Date('2026-01-01T00:00:00Z') }, names);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
