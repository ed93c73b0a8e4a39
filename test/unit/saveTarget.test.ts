/**
 * Download Bundle's save dialog (issue 35: pressing Enter on the suggested name saved
 * `name.tar.gz.tar.gz`, in the repository's root): where it starts, and what its file types make of
 * the suggested name, as VS Code's simple file dialog appends a type (its `addPostfix`, read in
 * src/vs/workbench/services/dialogs/browser/simpleFileDialog.ts). The dialog itself is tested in
 * the host (test/integration/bundle.test.ts).
 */
import * as assert from 'node:assert/strict';
import { BUNDLE_FILE_TYPES, downloadFolder, nameAfterFilter } from '../../src/core/bundle/download/saveTarget';

describe('Download Bundle\'s save dialog: its folder and its file types', () => {
  it('starts in the last folder used while it is there, else Downloads, else home; never the workspace', () => {
    const folders = new Set(['/home/ada', '/home/ada/Downloads', '/srv/bundles']);
    const isFolder = (path: string) => folders.has(path);
    assert.equal(downloadFolder({ last: '/srv/bundles', home: '/home/ada', isFolder }), '/srv/bundles');
    assert.equal(downloadFolder({ last: '/srv/gone', home: '/home/ada', isFolder }), '/home/ada/Downloads', 'a folder since removed is not suggested');
    assert.equal(downloadFolder({ last: undefined, home: '/home/ada', isFolder }), '/home/ada/Downloads');
    assert.equal(downloadFolder({ last: undefined, home: '/root', isFolder: (p) => p === '/root' }), '/root');
  });

  it('the suggested name keeps its .tar.gz once the dialog has added its type (tar.gz as a type made it .tar.gz.tar.gz)', () => {
    assert.equal(nameAfterFilter('docs-docs.acme.dev-2026-11-28.tar.gz', ['tar.gz', 'tgz', 'zip']), 'docs-docs.acme.dev-2026-11-28.tar.gz.tar.gz', 'what the old types did');
    for (const name of ['docs-docs.acme.dev-2026-11-28.tar.gz', 'site.tgz', 'site.zip']) assert.equal(nameAfterFilter(name, BUNDLE_FILE_TYPES), name);
    assert.equal(nameAfterFilter('site', BUNDLE_FILE_TYPES), 'site.tgz', 'a bare name gets a type that is one');
  });
});
