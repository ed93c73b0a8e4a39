/**
 * How links resolve and what each check reports, on small sites (src/core/site/RULES.md gives the
 * evidence for each rule: the platform's renderer source, or a probe page checked with its CLI).
 */
import * as assert from 'node:assert/strict';
import { checkSite } from '../../src/core/site/checks';
import type { Problem } from '../../src/core/site/siteTypes';
import { docsJson, siteOf } from './support/site';

const PAGE = (body: string) => `---\ntitle: T\n---\n${body}\n`;

function brief(problems: Problem[]): string[] {
  return problems.map((p) => `${p.file}:${p.span.start.line}:${p.span.start.column} ${p.code}${p.target === undefined ? '' : ` ${p.target}`}`);
}

async function check(files: Record<string, string>, pages = Object.keys(files).filter((f) => /\.mdx?$/.test(f) && !f.startsWith('snippets/')).map((f) => f.replace(/\.mdx?$/, ''))): Promise<string[]> {
  const model = await siteOf({ 'docs.json': docsJson(pages), ...files });
  return brief(checkSite(model).filter((p) => p.code !== 'page-not-in-nav'));
}

describe('site links: how a target resolves', () => {
  it('resolves root-relative, ./ and ../ from the file\'s folder, and a bare target from the page\'s URL', async () => {
    const problems = await check({
      'index.mdx': PAGE('[a](/guides/setup) [b](guides/setup)'),
      'guides/setup.mdx': PAGE('[c](./other) [d](../index) [e](other) [f](../guides/other)'),
      'guides/other.mdx': PAGE('x'),
      // guides/index.mdx is served at /guides: a bare "setup" there is /setup (probe: `v1.2` from guides/index fails).
      'guides/index.mdx': PAGE('[g](setup) [h](./setup)'),
    });
    assert.deepEqual(problems, ['guides/index.mdx:4:5 link-missing setup']);
  });

  it('takes index pages, a trailing slash, a query, an extension, and dots in a name (mintlify/docs#178)', async () => {
    const problems = await check({
      'index.mdx': PAGE('[a](/) [b](/guides) [c](/guides/index) [d](/guides/) [e](/v1.2/notes?x=1) [f](/v1.2/notes.mdx) [g](/guides/index.md)'),
      'guides/index.mdx': PAGE('x'),
      'v1.2/notes.mdx': PAGE('x'),
    });
    assert.deepEqual(problems, ['index.mdx:4:100 link-missing /guides/index.md']);
  });

  it('is case-sensitive (probe: /Target fails)', async () => {
    assert.deepEqual(await check({ 'index.mdx': PAGE('[a](/Target)'), 'target.mdx': PAGE('x') }), ['index.mdx:4:5 link-missing /Target']);
  });

  it('decodes percent-escapes and takes non-ASCII paths as they are (mintlify/docs#6895)', async () => {
    const problems = await check({ 'index.mdx': PAGE('[a](/ja/ページ) [b](/ja/%E3%83%9A%E3%83%BC%E3%82%B8) [c](/ja/ペ)'), 'ja/ページ.mdx': PAGE('x') });
    assert.deepEqual(problems, ['index.mdx:4:55 link-missing /ja/ペ']);
  });

  it('finds images and other files, and leaves external links alone', async () => {
    const problems = await check({
      'index.mdx': PAGE('![a](/images/a.png) ![b](/images/b.png) [c](https://example.com/x) [d](mailto:a@example.com) [e](//cdn.example.com/x.js) [f](/openapi.json)'),
      'images/a.png': '',
      'openapi.json': '{}',
    });
    assert.deepEqual(problems, ['index.mdx:4:26 link-missing /images/b.png']);
  });

  it('reads href and src of HTML elements and the platform\'s components, not of a page\'s own components', async () => {
    const problems = await check({
      'index.mdx': PAGE('export const Hero = ({ href }) => <a href={href}>go</a>;\n\n<Hero href="/custom-missing" />\n\n<Card title="c" href="/card-missing">x</Card>\n\n<a href="/a-missing">x</a>\n\n<img src="/img-missing.png" />'),
    });
    assert.deepEqual(problems, ['index.mdx:8:23 link-missing /card-missing', 'index.mdx:10:10 link-missing /a-missing', 'index.mdx:12:11 link-missing /img-missing.png']);
  });

  it('warns about \\ between folders, and still checks where it leads (mintlify/docs#5680)', async () => {
    const problems = await check({ 'index.mdx': PAGE('[a](guides\\setup) [b](guides\\missing)'), 'guides/setup.mdx': PAGE('x') });
    assert.deepEqual(problems, ['index.mdx:4:5 link-backslash guides\\setup', 'index.mdx:4:23 link-backslash guides\\missing', 'index.mdx:4:23 link-missing guides\\missing']);
  });
});

describe('site checks: anchors, snippets, navigation, redirects', () => {
  it('checks anchors on the target page, its snippets included, and on the same page', async () => {
    const problems = await check({
      'index.mdx': PAGE('import Setup from "/snippets/setup.mdx";\n\n## Here\n\n<Setup />\n\n[a](#here) [b](#gitlab-setup) [c](#nowhere) [d](/other#there) [e](/other#elsewhere) [f](/other#%C3%BCber)'),
      'snippets/setup.mdx': '## GitLab setup\n\nText.\n',
      'other.mdx': PAGE('## There\n\n## Über'),
    });
    assert.deepEqual(problems, ['index.mdx:10:35 anchor-missing #nowhere', 'index.mdx:10:67 anchor-missing /other#elsewhere']);
  });

  it('reports a missing snippet, and a page that is not valid MDX at the parser\'s place while the rest is checked', async () => {
    const problems = await check({ 'index.mdx': PAGE('import X from "/snippets/none.mdx";\n\n[a](/missing)'), 'broken.mdx': PAGE('<Card>\n</Cards>') });
    assert.deepEqual(problems, ['broken.mdx:5:1 parse-error', 'index.mdx:4:16 snippet-missing /snippets/none.mdx', 'index.mdx:6:5 link-missing /missing']);
  });

  it('reports a navigation entry without a page, leaves OpenAPI operations alone, and notes pages in no navigation', async () => {
    const model = await siteOf({ 'docs.json': docsJson(['index', 'gone', 'GET /users', 'openapi.json post /users']), 'index.mdx': PAGE('x'), 'hidden.mdx': PAGE('y') });
    assert.deepEqual(brief(checkSite(model)), ['docs.json:14:11 nav-missing-page gone', 'hidden.mdx:1:1 page-not-in-nav']);
  });

  it('reports redirects: a missing destination, a loop, a chain, a source that is still a page; and a link through one', async () => {
    const redirects = [
      { source: '/old', destination: '/index-page' },
      { source: '/gone', destination: '/nowhere' },
      { source: '/a', destination: '/b' },
      { source: '/b', destination: '/a' },
      { source: '/older', destination: '/old' },
      { source: '/page', destination: '/index-page' },
      { source: '/docs/:slug*', destination: '/:slug*' },
    ];
    const model = await siteOf({ 'docs.json': docsJson(['index-page', 'page'], redirects), 'index-page.mdx': PAGE('[a](/old) [b](/gone) [c](/docs/page)'), 'page.mdx': PAGE('x') });
    assert.deepEqual(brief(checkSite(model)), [
      'docs.json:26:22 redirect-missing-destination /nowhere',
      'docs.json:29:17 redirect-loop /a',
      'docs.json:33:17 redirect-loop /b',
      'docs.json:38:22 redirect-chain /old',
      'docs.json:41:17 redirect-shadows-page /page',
      'index-page.mdx:4:5 link-via-redirect /old',
      'index-page.mdx:4:15 link-missing /gone',
      'index-page.mdx:4:26 link-via-redirect /docs/page',
    ]);
  });

  it('gives the same problems in the same order every time, and takes severities from the options', async () => {
    const files = { 'docs.json': docsJson(['b', 'a']), 'b.mdx': PAGE('[x](/nope) [y](#no)'), 'a.mdx': PAGE('[x](/nope)') };
    const first = checkSite(await siteOf(files));
    assert.deepEqual(checkSite(await siteOf(files)), first);
    assert.deepEqual(brief(first), ['a.mdx:4:5 link-missing /nope', 'b.mdx:4:5 link-missing /nope', 'b.mdx:4:16 anchor-missing #no']);
    const chosen = checkSite(await siteOf(files), { severities: { 'link-missing': 'warning', 'anchor-missing': 'off' } });
    assert.deepEqual(chosen.map((p) => `${p.code} ${p.severity}`), ['link-missing warning', 'link-missing warning']);
  });

  it('suggests the nearest page or anchor', async () => {
    const model = await siteOf({ 'docs.json': docsJson(['index', 'quickstart']), 'index.mdx': PAGE('[a](/quickstrat) [b](/quickstart#instal)'), 'quickstart.mdx': PAGE('## Install') });
    assert.deepEqual(checkSite(model).map((p) => p.suggestions), [['/quickstart'], ['install']]);
  });
});
