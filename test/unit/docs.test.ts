/**
 * The README is the Marketplace page and the door to every other page (issue 36): short, and
 * every link in it and in the pages it leads to goes somewhere. Links are read with markdown-it
 * (what vsce renders the Marketplace page with), headings' anchors made as GitHub makes them.
 * What the .vsix carries (vsce rewrites the README's relative links to this repository on
 * GitHub) is checked by the packaging check, scripts/check-package.mjs.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import MarkdownIt from 'markdown-it';

const ROOT = resolve(__dirname, '../../..');
/** This repository on GitHub, as package.json names it: an absolute link there is a link to a file here. */
const REPOSITORY = 'https://github.com/docs-admin/docs-admin';
const markdown = new MarkdownIt({ html: true });
type Token = ReturnType<MarkdownIt['parse']>[number];

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The pages: the README, the documents beside it, docs/, and the CLI's own README. */
const PAGES = ['README.md', 'CONTRIBUTING.md', 'SECURITY.md', 'CHANGELOG.md', 'BENCHMARKS.md', 'cli/README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

interface Link {
  href: string;
  image: boolean;
  line: number;
}

function walk(tokens: Token[], visit: (token: Token, line: number) => void, line = 0): void {
  for (const token of tokens) {
    const at = token.map?.[0] ?? line;
    visit(token, at);
    if (token.children !== null) walk(token.children, visit, at);
  }
}

/** Every link and image of a page, with its line (1-based). */
function linksOf(text: string): Link[] {
  const found: Link[] = [];
  walk(markdown.parse(text, {}), (token, line) => {
    if (token.type === 'link_open') found.push({ href: token.attrGet('href') ?? '', image: false, line: line + 1 });
    if (token.type === 'image') found.push({ href: token.attrGet('src') ?? '', image: true, line: line + 1 });
  });
  return found;
}

/** A heading's anchor as GitHub makes it: its text, lower-cased, without punctuation, spaces as `-`; a repeat gets `-1`, `-2`… */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const tokens = markdown.parse(text, {});
  tokens.forEach((token, i) => {
    if (token.type !== 'heading_open') return;
    const words = (tokens[i + 1]?.children ?? []).filter((c) => c.type === 'text' || c.type === 'code_inline').map((c) => c.content).join('');
    const base = words.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  });
  return anchors;
}

/** What is wrong with a link of `page`, or undefined when it leads somewhere. */
function problemOf(page: string, link: Link): string | undefined {
  let { href } = link;
  if (href.startsWith(`${REPOSITORY}/`)) {
    // A file of this repository by its GitHub address: it must be here.
    const path = /^\/(?:blob|tree|raw)\/(?:HEAD|main)\/([^?#]+)(#.*)?$/.exec(href.slice(REPOSITORY.length));
    if (path === null) return /^\/(issues|releases|security)(\/|$)/.test(href.slice(REPOSITORY.length)) ? undefined : 'a GitHub address of this repository that names no file';
    href = `/${path[1] ?? ''}${path[2] ?? ''}`;
  } else if (/^[a-z][a-z0-9+.-]*:/i.test(href)) {
    return /^(https|mailto):/i.test(href) ? undefined : `a ${href.split(':')[0] ?? ''}: link`;
  }
  const [path = '', anchor] = href.split('#');
  const target = path === '' ? page : path.startsWith('/') ? normalize(path.slice(1)) : normalize(join(dirname(page), decodeURIComponent(path)));
  if (relative(ROOT, join(ROOT, target)).startsWith('..')) return 'it leads outside the repository';
  if (!existsSync(join(ROOT, target))) return `${target} does not exist`;
  if (anchor === undefined || anchor === '') return undefined;
  if (statSync(join(ROOT, target)).isDirectory() || !target.endsWith('.md')) return `an anchor (#${anchor}) in ${target}, which is not a page`;
  return anchorsOf(read(target)).has(anchor) ? undefined : `${target} has no heading #${anchor}`;
}

describe('the README and the pages it leads to', () => {
  it('the README is short: a user reads it in two minutes (at most 300 lines)', () => {
    const lines = read('README.md').split('\n').length;
    assert.ok(lines <= 300, `README.md has ${lines} lines`);
  });

  it('every link and image of every page leads to a file of this repository (and its heading) or to an https: address', () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      for (const link of linksOf(read(page))) {
        const problem = problemOf(page, link);
        if (problem !== undefined) broken.push(`${page}:${link.line}: ${link.href}: ${problem}`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it('every page is linked from the README, so everything moved out of it is found from it', () => {
    const linked = new Set(linksOf(read('README.md')).filter((l) => !l.image && !/^[a-z]+:/i.test(l.href)).map((l) => normalize(l.href.split('#')[0] ?? '')));
    const pages = PAGES.filter((p) => p !== 'README.md' && p !== 'cli/README.md');
    assert.deepEqual(pages.filter((p) => !linked.has(p)), []);
  });

  it("the README's links are relative, in-page or https: only (vsce makes the relative ones absolute for the Marketplace)", () => {
    const odd = linksOf(read('README.md')).filter((l) => !(l.href.startsWith('#') || /^https:/i.test(l.href) || !/^[a-z][a-z0-9+.-]*:/i.test(l.href)) || l.href.startsWith('../'));
    assert.deepEqual(odd, []);
  });

  describe('the checks themselves', () => {
    it('find a missing file, a missing heading and a plain http: link', () => {
      const page = 'docs/cli.md';
      assert.match(problemOf(page, { href: 'nowhere.md', image: false, line: 1 }) ?? '', /does not exist/);
      assert.match(problemOf(page, { href: 'proxies.md#no-such-heading', image: false, line: 1 }) ?? '', /no heading/);
      assert.match(problemOf(page, { href: 'http://example.com', image: false, line: 1 }) ?? '', /http: link/);
      assert.match(problemOf(page, { href: `${REPOSITORY}/blob/HEAD/docs/nowhere.md`, image: false, line: 1 }) ?? '', /does not exist/);
      assert.equal(problemOf(page, { href: '../CONTRIBUTING.md#testing', image: false, line: 1 }), undefined);
      assert.equal(problemOf(page, { href: `${REPOSITORY}/blob/HEAD/docs/proxies.md`, image: false, line: 1 }), undefined);
    });

    it('make anchors as GitHub does', () => {
      assert.deepEqual([...anchorsOf('# The CLI: `docs-admin`\n## Reliability: what is proven not to be lost\n## Notes\n## Notes\n')], ['the-cli-docs-admin', 'reliability-what-is-proven-not-to-be-lost', 'notes', 'notes-1']);
    });
  });
});
