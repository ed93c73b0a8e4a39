/**
 * Site health on a real site: the corpus (the platform vendor's own docs, 1,131 pages, MIT; see
 * test/unit/support/site.ts for where it is found). What the checker reports on it as it is must
 * be the committed record (each report looked at by hand: docs/site-health-oracle.md), agree with
 * the platform's own checker where that table says, and each seeded fault in a copy must be found
 * at its file, line and column with nothing else changing.
 */
import * as assert from 'node:assert/strict';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { FactsCache } from '../../src/core/site/cache';
import { checkSite } from '../../src/core/site/checks';
import { loadSite } from '../../src/core/site/load';
import { applyEdits, planMove } from '../../src/core/site/move';
import type { Problem } from '../../src/core/site/siteTypes';
import { corpusRoot, parsers } from './support/site';

const WORKER = resolve(__dirname, '../../src/core/site/worker.js');
const RECORD = resolve(__dirname, '../../../test/fixtures/site-corpus-problems.txt');
const ORACLE_TABLE = resolve(__dirname, '../../../docs/site-health-oracle.md');

function line(p: Problem): string {
  return `${p.file}:${p.span.start.line}:${p.span.start.column} ${p.severity} ${p.code}${p.target === undefined ? '' : ` ${p.target}`}`;
}

/** What is in `after` and not in `before`, counting repeats. */
function minus(after: string[], before: string[]): string[] {
  const left = new Map<string, number>();
  for (const b of before) left.set(b, (left.get(b) ?? 0) + 1);
  return after.filter((a) => {
    const n = left.get(a) ?? 0;
    if (n === 0) return true;
    left.set(a, n - 1);
    return false;
  });
}

/** The platform's checker's report on the corpus: (file, target) pairs. */
function oracle(corpus: string): string[] {
  const text = readFileSync(join(dirname(corpus), 'mintlify-docs.mint-broken-links.txt'), 'utf8');
  const found: string[] = [];
  let file = '';
  for (const row of text.split('\n')) {
    const mark = row.indexOf('⎿');
    if (mark !== -1) found.push(`${file} ${row.slice(mark + 1).replace(/^[\s\u00a0]+/, '')}`);
    else if (row !== '' && !row.startsWith('#') && !row.startsWith('found ')) file = row.trim();
  }
  return found;
}

describe('site health on the corpus (the platform vendor\'s own docs)', function () {
  this.timeout(900_000);
  const cache = FactsCache.open(undefined);
  let corpus: string;
  let root: string;
  let base: string[];

  async function problemsOf(dir: string): Promise<string[]> {
    const { model } = await loadSite(dir, { threads: 2, workerScript: WORKER, mainThread: await parsers(), cache });
    return checkSite(model).map(line);
  }

  before(async () => {
    corpus = corpusRoot();
    root = mkdtempSync(join(tmpdir(), 'docs-admin-corpus-'));
    cpSync(corpus, root, { recursive: true });
    base = await problemsOf(root);
  });

  after(() => {
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });

  it('reports exactly what the committed record holds (every report looked at in docs/site-health-oracle.md)', () => {
    const record = readFileSync(RECORD, 'utf8').trimEnd().split('\n');
    assert.deepEqual(base, record);
  });

  it('agrees with the platform\'s checker on 116 of its 118 reports, as the oracle table counts them', () => {
    const ours = base.filter((l) => / error (link-missing|anchor-missing|snippet-missing) /.test(l)).map((l) => `${l.slice(0, l.indexOf(':'))} ${l.slice(l.lastIndexOf(' ') + 1)}`);
    const theirs = oracle(corpus);
    const onlyTheirs = minus(theirs, ours);
    const onlyOurs = minus(ours, theirs);
    const table = readFileSync(ORACLE_TABLE, 'utf8');
    assert.equal(theirs.length, 118);
    assert.deepEqual({ both: theirs.length - onlyTheirs.length, onlyTheirs: onlyTheirs.length, onlyOurs: onlyOurs.length }, { both: 116, onlyTheirs: 2, onlyOurs: 15 });
    for (const row of [...onlyTheirs, ...onlyOurs]) {
      const [file, target] = row.split(' ');
      assert.ok(table.includes(`\`${file}\``) && table.includes(`\`${target}\``), `docs/site-health-oracle.md explains ${row}`);
    }
  });

  interface Fault {
    name: string;
    apply(dir: string): void;
    added: string[];
    removed?: string[];
  }

  const edit = (dir: string, file: string, change: (text: string) => string) => {
    const path = join(dir, file);
    chmodSync(path, 0o644);
    const before = readFileSync(path, 'utf8');
    const after = change(before);
    assert.notEqual(after, before, `the fault changes ${file}`);
    writeFileSync(path, after);
  };
  const add = (dir: string, file: string, text: string) => {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  };

  /** A line added at the end of guides/geo.mdx (218 lines, ending in a line break): it is line 220. */
  const appendToGeo = (dir: string, text: string) => edit(dir, 'guides/geo.mdx', (t) => `${t}\n${text}\n`);

  const faults: Fault[] = [
    {
      name: 'a renamed heading: every link to its anchor, in every language',
      apply: (dir) => edit(dir, 'quickstart.mdx', (t) => t.replace('## Set up Mintlify for the user', '## Setting up Mintlify for the user')),
      added: [
        'cli/index.mdx:27:203 error anchor-missing /quickstart#set-up-mintlify-for-the-user',
        'cli/install.mdx:24:218 error anchor-missing /quickstart#set-up-mintlify-for-the-user',
      ],
    },
    {
      name: 'a deleted page: its navigation entry and the links to it',
      apply: (dir) => rmSync(join(dir, 'editor/configurations.mdx')),
      added: [
        'docs.json:132:23 error nav-missing-page editor/configurations',
        'editor/index.mdx:70:73 error link-missing /editor/configurations',
        'editor/settings.mdx:139:20 error link-missing /editor/configurations',
      ],
      removed: ['editor/configurations.mdx:38:224 error anchor-missing /organize/settings-appearance#logos'],
    },
    {
      name: 'a typo in a link',
      apply: (dir) => appendToGeo(dir, 'See the [quick start](/quikstart).'),
      added: ['guides/geo.mdx:220:23 error link-missing /quikstart'],
    },
    {
      name: 'a redirect loop',
      apply: (dir) => edit(dir, 'redirects.json', (t) => t.replace(/\]\s*$/, ',\n    { "source": "/loop-a", "destination": "/loop-b" },\n    { "source": "/loop-b", "destination": "/loop-a" }\n]\n')),
      added: [
        'redirects.json:1403:17 error redirect-loop /loop-a',
        'redirects.json:1404:17 error redirect-loop /loop-b',
      ],
    },
    {
      name: 'a moved snippet: its imports, and the anchors it gave its pages',
      apply: (dir) => {
        mkdirSync(join(dir, 'snippets/automations'));
        renameSync(join(dir, 'snippets/gitlab-automation-setup.mdx'), join(dir, 'snippets/automations/gitlab-setup.mdx'));
      },
      added: [
        'automations/create.mdx:7:36 error snippet-missing /snippets/gitlab-automation-setup.mdx',
        'automations/create.mdx:17:62 error anchor-missing #gitlab-setup',
        'automations/manage.mdx:7:36 error snippet-missing /snippets/gitlab-automation-setup.mdx',
        'automations/manage.mdx:13:62 error anchor-missing #gitlab-setup',
      ],
    },
    {
      name: 'an anchor with a colon (mintlify/docs#5537)',
      apply: (dir) => appendToGeo(dir, '[MCP](/ai/model-context-protocol#example:-connect-to-the-mintlify-mcp-server)'),
      added: ['guides/geo.mdx:220:7 error anchor-missing /ai/model-context-protocol#example:-connect-to-the-mintlify-mcp-server'],
    },
    {
      name: 'a link with a dot: the right one passes, the wrong one is found (mintlify/docs#178)',
      apply: (dir) => {
        add(dir, 'releases/v1.2.mdx', '---\ntitle: Release 1.2\n---\nNotes.\n');
        appendToGeo(dir, '[1.2](/releases/v1.2) and [1.3](/releases/v1.3)');
      },
      added: ['guides/geo.mdx:220:33 error link-missing /releases/v1.3', 'releases/v1.2.mdx:1:1 info page-not-in-nav'],
    },
    {
      name: 'a non-ASCII path: the right one passes, the wrong one is found (mintlify/docs#6895)',
      apply: (dir) => {
        add(dir, 'es/guías/inicio.mdx', '---\ntitle: Inicio\n---\nHola.\n');
        appendToGeo(dir, '[a](/es/guías/inicio) [b](/es/guías/inico)');
      },
      added: [
        'es/guías/inicio.mdx:1:1 info page-not-in-nav',
        'guides/geo.mdx:220:27 error link-missing /es/guías/inico',
      ],
    },
    {
      name: 'Windows path separators (mintlify/docs#5680)',
      apply: (dir) => appendToGeo(dir, '[SEO](..\\optimize\\seo)'),
      added: ['guides/geo.mdx:220:7 warning link-backslash ..\\optimize\\seo'],
    },
  ];

  it('moves a page linked from other pages, other locales and docs.json: the moved copy has the same problems as before', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-admin-move-'));
    try {
      cpSync(root, dir, { recursive: true });
      const { model } = await loadSite(dir, { threads: 2, workerScript: WORKER, mainThread: await parsers(), cache });
      const plan = planMove(model, 'quickstart.mdx', 'start/quickstart.mdx');
      assert.deepEqual(plan.redirects, ['', '/fr', '/es', '/zh'].map((l) => ({ source: `${l}/quickstart`, destination: `${l}/start/quickstart` })));
      const touched = new Set([...plan.edits.map((e) => e.file), ...plan.moves.map((m) => m.from)]);
      const texts = new Map([...touched].map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
      for (const { from } of plan.moves) rmSync(join(dir, from));
      for (const [file, text] of applyEdits(texts, plan)) add(dir, file, text);
      assert.deepEqual(await problemsOf(dir), base);
      assert.ok(plan.edits.length > 20, `${plan.edits.length} edits`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const fault of faults) {
    it(`finds a seeded fault: ${fault.name}`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'docs-admin-fault-'));
      try {
        cpSync(root, dir, { recursive: true });
        chmodSync(dir, 0o755);
        fault.apply(dir);
        const after = await problemsOf(dir);
        assert.deepEqual({ added: minus(after, base), removed: minus(base, after) }, { added: fault.added, removed: fault.removed ?? [] });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
