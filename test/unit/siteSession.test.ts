/**
 * The editor's checker (SiteChecker): a change answers with the problems of just the files it
 * affects, each with its whole new list, so the Problems panel can replace them; a fix clears.
 */
import * as assert from 'node:assert/strict';
import { SiteChecker } from '../../src/core/site/session';
import { docsJson, parsers, siteOf } from './support/site';

const PAGE = (body: string) => `---\ntitle: T\n---\n${body}\n`;

describe('site checker: incremental re-checks', () => {
  it('re-checks a changed page and, when its anchors change, the pages linking to it', async () => {
    const model = await siteOf({ 'docs.json': docsJson(['a', 'b', 'c']), 'a.mdx': PAGE('## Setup'), 'b.mdx': PAGE('[x](/a#setup)'), 'c.mdx': PAGE('[y](/nowhere)') });
    const checker = new SiteChecker(model, await parsers());
    const first = checker.all();
    assert.deepEqual([...first].map(([f, list]) => `${f}: ${list.map((p) => p.code).join(',')}`), ['c.mdx: link-missing']);
    // Text only: a's anchors are the same, so only a is re-checked.
    assert.deepEqual([...checker.changeText('a.mdx', PAGE('## Setup\n\nMore text.')).keys()], ['a.mdx']);
    // The heading renamed: b's link breaks.
    const renamed = checker.changeText('a.mdx', PAGE('## Install'));
    assert.deepEqual([...renamed].map(([f, list]) => `${f}: ${list.map((p) => p.code).join(',')}`), ['a.mdx: ', 'b.mdx: anchor-missing']);
    // Fixed in b: its list is emptied.
    assert.deepEqual([...checker.changeText('b.mdx', PAGE('[x](/a#install)'))].map(([f, list]) => `${f}: ${list.length}`), ['b.mdx: 0']);
  });

  it('a new page mends the links to it; a deleted one breaks them again', async () => {
    const model = await siteOf({ 'docs.json': docsJson(['a', 'b']), 'a.mdx': PAGE('[x](/b)') });
    const checker = new SiteChecker(model, await parsers());
    assert.deepEqual(checker.all().get('a.mdx')?.map((p) => p.code), ['link-missing']);
    assert.deepEqual(checker.addFile('b.mdx', PAGE('hello')).get('a.mdx'), []);
    assert.deepEqual(checker.removeFile('b.mdx').get('a.mdx')?.map((p) => p.code), ['link-missing']);
  });
});
