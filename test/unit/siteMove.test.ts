/**
 * The move planner applied to a small site and compared byte for byte with the expected tree
 * (test/fixtures/site-move/after, checked by hand): links from other pages, the moved page's own
 * relative links, a snippet, a reference definition, a Card, another locale, docs.json's
 * navigation and an existing redirect's destination, and the redirects added from each old URL.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadSite } from '../../src/core/site/load';
import { applyEdits, planMove } from '../../src/core/site/move';
import { parsers } from './support/site';

const FIXTURES = resolve(__dirname, '../../../test/fixtures/site-move');
const WORKER = resolve(__dirname, '../../src/core/site/worker.js');

function tree(root: string, rel = ''): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of readdirSync(join(root, rel)).sort()) {
    const path = rel === '' ? name : `${rel}/${name}`;
    if (statSync(join(root, path)).isDirectory()) for (const [f, t] of tree(root, path)) files.set(f, t);
    else files.set(path, readFileSync(join(root, path), 'utf8'));
  }
  return files;
}

describe('site moves: the plan of a page move', () => {
  it('turns the tree before into the expected tree, byte for byte', async () => {
    const before = join(FIXTURES, 'before');
    const { model } = await loadSite(before, { threads: 1, workerScript: WORKER, mainThread: await parsers() });
    const plan = planMove(model, 'guides/setup.mdx', 'tutorials/install.mdx');
    assert.deepEqual(plan.moves, [
      { from: 'guides/setup.mdx', to: 'tutorials/install.mdx' },
      { from: 'es/guides/setup.mdx', to: 'es/tutorials/install.mdx' },
    ]);
    assert.deepEqual(plan.redirects, [
      { source: '/guides/setup', destination: '/tutorials/install' },
      { source: '/es/guides/setup', destination: '/es/tutorials/install' },
    ]);
    const after = applyEdits(tree(before), plan);
    const expected = tree(join(FIXTURES, 'after'));
    assert.deepEqual([...after.keys()].sort(), [...expected.keys()].sort());
    for (const [file, text] of expected) assert.equal(after.get(file), text, file);
  });

  it('moves one page alone (no locale copy): its navigation entry, the links to it, and its redirect after the last one', async () => {
    const before = join(FIXTURES, 'before');
    const { model } = await loadSite(before, { threads: 1, workerScript: WORKER, mainThread: await parsers() });
    const plan = planMove(model, 'guides/other.mdx', 'guides/another.mdx', { locales: false });
    assert.deepEqual(plan.redirects, [{ source: '/guides/other', destination: '/guides/another' }]);
    // The navigation entry, the redirect after the last one, the links from setup.mdx (./other, a bare other) and index.mdx.
    assert.deepEqual(plan.edits.map((e) => `${e.file}:${e.span.start.line}:${e.span.start.column} ${e.newText.trim().split('\n')[0] ?? ''}`), [
      'docs.json:11:66 "guides/another"',
      'docs.json:23:71 ,',
      'guides/setup.mdx:6:23 ./another',
      'guides/setup.mdx:7:23 another#next',
      'index.mdx:7:76 /guides/another',
    ]);
  });
});
