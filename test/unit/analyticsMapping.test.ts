/**
 * The URL path <-> file mapping, as a table of cases: each row a path the analytics may give and
 * the file it must reach, or why it reaches none. The site: index files, a page in .md beside
 * .mdx ones, a localised (es) and a versioned (v1) copy, a path two files would serve, a name
 * with an accent; docs.json with exact, chained, wildcard, partial-wildcard, external and looping
 * redirects.
 */
import * as assert from 'node:assert/strict';
import { DocsJsonError, parseDocsJson } from '../../src/core/analytics/docsJson';
import { DocsSite } from '../../src/core/analytics/mapping';

const FILES = [
  'index.mdx',
  'quickstart.mdx',
  'guides/index.mdx',
  'guides/setup.md',
  'api/auth.mdx',
  'dup.mdx',
  'dup.md',
  'both.mdx',
  'both/index.mdx',
  'es/quickstart.mdx',
  'v1/quickstart.mdx',
  'café.mdx',
  'Guides/Case.mdx',
  'snippets/note.txt',
  'docs.json',
];

const DOCS_JSON = JSON.stringify({
  name: 'Acme',
  navigation: {
    languages: [
      { language: 'en', groups: [{ group: 'Start', pages: ['quickstart'] }] },
      { language: 'es', groups: [{ group: 'Inicio', pages: ['es/quickstart'] }] },
    ],
    versions: [{ version: 'v1', groups: [{ group: 'Old', pages: ['v1/quickstart'] }] }],
  },
  redirects: [
    { source: '/getting-started', destination: '/quickstart' },
    { source: '/quickstart-old', destination: '/getting-started' },
    { source: '/old/:slug*', destination: '/guides/:slug*' },
    { source: '/articles/concepts-*', destination: '/guides' },
    { source: '/legacy/article-*', destination: '/api/article-*' },
    { source: '/blog/:slug', destination: 'https://blog.acme.dev/:slug' },
    { source: '/loop-a', destination: '/loop-b' },
    { source: '/loop-b', destination: '/loop-a' },
    { source: '/moved', destination: '/quickstart#install' },
    { source: '/to-missing', destination: '/nowhere' },
    { source: '/api/auth', destination: '/guides/setup' },
    { source: 'not-a-redirect' },
  ],
});

type Expect = string | { unmatched: 'noFile' | 'ambiguous' | 'external' | 'redirectLoop' | 'invalid'; redirectedTo?: string };

/** [what the analytics say, the file it must reach (or why none), the copy it belongs to] */
const CASES: [string, Expect, string?][] = [
  // A page's path is its file's path without the extension, relative to the docs root.
  ['/quickstart', 'quickstart.mdx'],
  ['/guides/setup', 'guides/setup.md'],
  // An index file serves its folder; the root's serves /.
  ['/', 'index.mdx'],
  ['/guides', 'guides/index.mdx'],
  ['/guides/', 'guides/index.mdx'],
  // The same page however the server writes it.
  ['quickstart', 'quickstart.mdx'],
  ['/quickstart/', 'quickstart.mdx'],
  ['//quickstart', 'quickstart.mdx'],
  ['https://docs.acme.dev/quickstart?utm_source=x#step-2', 'quickstart.mdx'],
  ['/caf%C3%A9', 'café.mdx'],
  ['/guides/../quickstart', 'quickstart.mdx'],
  // Never guessed: another case, an extension, a page that is not there.
  ['/Quickstart', { unmatched: 'noFile' }],
  ['/guides/case', { unmatched: 'noFile' }],
  ['/Guides/Case', 'Guides/Case.mdx'],
  ['/guides/setup.md', { unmatched: 'noFile' }],
  ['/guides/deploy-on-mars', { unmatched: 'noFile' }],
  ['/snippets/note', { unmatched: 'noFile' }],
  // Two files would serve it: listed, not picked.
  ['/dup', { unmatched: 'ambiguous' }],
  ['/both', { unmatched: 'ambiguous' }],
  // Localised and versioned copies are their folders, never the default page.
  ['/es/quickstart', 'es/quickstart.mdx', 'es'],
  ['/v1/quickstart', 'v1/quickstart.mdx', 'v1'],
  ['/es/guides/setup', { unmatched: 'noFile' }],
  // docs.json redirects: exact, chained, wildcards, an anchor in the destination.
  ['/getting-started', 'quickstart.mdx'],
  ['/quickstart-old', 'quickstart.mdx'],
  ['/old/setup', 'guides/setup.md'],
  ['/old', 'guides/index.mdx'],
  ['/articles/concepts-overview', 'guides/index.mdx'],
  ['/moved', 'quickstart.mdx'],
  // A redirect comes before the files, as on the site: /api/auth is never served.
  ['/api/auth', 'guides/setup.md'],
  ['/legacy/article-7', { unmatched: 'noFile', redirectedTo: '/api/article-7' }],
  ['/to-missing', { unmatched: 'noFile', redirectedTo: '/nowhere' }],
  ['/blog/hello', { unmatched: 'external', redirectedTo: 'https://blog.acme.dev/hello' }],
  ['/loop-a', { unmatched: 'redirectLoop' }],
  // Not a page's path at all.
  ['', { unmatched: 'invalid' }],
  ['mailto:reader@example.com', { unmatched: 'invalid' }],
  ['/a%2Fb', { unmatched: 'invalid' }],
];

describe('analytics: URL path <-> file mapping', () => {
  const site = new DocsSite(FILES, parseDocsJson(DOCS_JSON));

  for (const [input, expected, copy] of CASES) {
    it(`${JSON.stringify(input)} -> ${typeof expected === 'string' ? expected : `unmatched (${expected.unmatched})`}`, () => {
      const match = site.resolve(input);
      if (typeof expected === 'string') {
        assert.equal(match.kind, 'page', JSON.stringify(match));
        assert.equal(match.kind === 'page' ? match.file : undefined, expected);
        assert.equal(match.kind === 'page' ? match.copy : undefined, copy);
      } else {
        assert.equal(match.kind, 'unmatched', JSON.stringify(match));
        assert.equal(match.kind === 'unmatched' ? match.reason : undefined, expected.unmatched);
        if (expected.redirectedTo !== undefined) assert.equal('redirectedTo' in match ? match.redirectedTo : undefined, expected.redirectedTo);
      }
    });
  }

  it('a file\'s own path, back the other way (index files serve their folder; other files are no page)', () => {
    const table: [string, string | undefined][] = [
      ['index.mdx', '/'],
      ['quickstart.mdx', '/quickstart'],
      ['guides/index.mdx', '/guides'],
      ['guides/setup.md', '/guides/setup'],
      ['es/quickstart.mdx', '/es/quickstart'],
      ['./quickstart.mdx', '/quickstart'],
      ['snippets/note.txt', undefined],
      ['missing.mdx', undefined],
    ];
    for (const [file, path] of table) assert.equal(site.pathOfFile(file), path, file);
    // Every page's own path leads back to it, unless a redirect takes it or another file shares it.
    for (const file of FILES.filter((f) => /\.mdx?$/.test(f))) {
      const path = site.pathOfFile(file)!;
      const match = site.resolve(path);
      if (['dup.mdx', 'dup.md', 'both.mdx', 'both/index.mdx', 'api/auth.mdx'].includes(file)) assert.notEqual(match.kind === 'page' ? match.file : undefined, file, file);
      else assert.equal(match.kind === 'page' ? match.file : undefined, file, file);
    }
  });

  it('docs.json: the languages and versions at any depth of the navigation; no redirects is no redirect; a broken file is named', () => {
    const config = parseDocsJson(DOCS_JSON);
    assert.deepEqual(config.languages, ['en', 'es']);
    assert.deepEqual(config.versions, ['v1']);
    assert.equal(config.redirects.length, 11, 'the entry without a destination is skipped');
    const nested = parseDocsJson(JSON.stringify({ navigation: { tabs: [{ tab: 'Docs', versions: [{ version: 'v2', languages: [{ language: 'fr' }] }] }] } }));
    assert.deepEqual([nested.versions, nested.languages], [['v2'], ['fr']]);
    const bare = new DocsSite(['a.mdx'], parseDocsJson('{"name":"x"}'));
    assert.equal(bare.resolve('/getting-started').kind, 'unmatched');
    assert.throws(() => parseDocsJson('{ "redirects": [', 'docs/docs.json'), (error: unknown) => error instanceof DocsJsonError && /docs\/docs\.json is not valid JSON/.test(error.message));
  });
});
