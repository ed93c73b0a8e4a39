/**
 * Reading a docs site's `docs.json` from disk (the MCP reader-signals tool, and the editor's
 * docs-root scan for files on disk): only a regular file, inside the folder it belongs to, of a
 * sane size; a FIFO or a device behind the name never hangs the reader; and a file that is not
 * JSON is said to be so without quoting it (V8's JSON errors quote the start of the input: a
 * `docs.json` linked to a token file would print the token).
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocsJsonError, parseDocsJson } from '../../src/core/analytics/docsJson';
import { ToolInputError } from '../../src/core/tools/run';
import { findPage } from '../../src/mcp/docsFiles';

const TOKEN = 'ghp_docsjson_token_1f2e3d4c5b6a79880';

describe('docs.json from disk: a regular file inside the folder, never echoed, never a hang', function () {
  this.timeout(10_000);
  let root: string;
  let workspace: string;
  let outside: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'docs-admin-docsjson-'));
    workspace = join(root, 'workspace');
    outside = join(root, 'outside');
    mkdirSync(join(workspace, 'docs'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(workspace, 'docs', 'quickstart.mdx'), '# Quickstart\n');
    writeFileSync(join(outside, 'token.txt'), `${TOKEN}\n`);
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const refused = (what: RegExp) => (error: unknown) => {
    assert.ok(error instanceof ToolInputError, String(error));
    assert.ok(!error.message.includes(TOKEN), `the file's content was echoed: ${error.message}`);
    assert.match(error.message, what);
    return true;
  };

  it('a docs.json that links to a file outside the working folder is not read, and nothing of it is echoed', async () => {
    symlinkSync(join(outside, 'token.txt'), join(workspace, 'docs', 'docs.json'));
    await assert.rejects(findPage('docs/quickstart.mdx', workspace), refused(/docs\/docs\.json links to a file outside \/.*workspace: it was not read/));
  });

  it('a docs.json that is a FIFO, or a link to /dev/zero, is refused at once (no read that never ends)', async () => {
    execFileSync('mkfifo', [join(workspace, 'docs', 'docs.json')]);
    await assert.rejects(findPage('docs/quickstart.mdx', workspace), refused(/docs\/docs\.json is not a regular file/));
    rmSync(join(workspace, 'docs', 'docs.json'));
    symlinkSync('/dev/zero', join(workspace, 'docs', 'docs.json'));
    await assert.rejects(findPage('docs/quickstart.mdx', workspace), refused(/docs\/docs\.json (links to a file outside|is not a regular file)/));
  });

  it('a docs.json larger than any site\'s is refused, saying how large', async () => {
    writeFileSync(join(workspace, 'docs', 'docs.json'), `{"name":"${'x'.repeat(5 * 1024 * 1024)}"}`);
    await assert.rejects(findPage('docs/quickstart.mdx', workspace), refused(/docs\/docs\.json is larger than 4 MiB/));
  });

  it('a docs.json that is not JSON is said to be so, with where, never with what it holds', async () => {
    writeFileSync(join(workspace, 'docs', 'docs.json'), `${TOKEN} is not JSON`);
    await assert.rejects(findPage('docs/quickstart.mdx', workspace), (error: unknown) => {
      assert.ok(error instanceof Error && !error.message.includes(TOKEN), String(error));
      assert.match(error.message, /docs\/docs\.json is not valid JSON \(line 1, column 1\)/);
      return true;
    });
    assert.throws(() => parseDocsJson(`{"redirects": [\n  "${TOKEN}" oops`, 'docs.json'), (error: unknown) => error instanceof DocsJsonError && !error.message.includes(TOKEN) && /line 2, column \d+/.test(error.message));
  });

  it('a docs.json inside the folder, as a regular file or a link to one there, is read', async () => {
    writeFileSync(join(workspace, 'docs', 'site.json'), JSON.stringify({ redirects: [{ source: '/old', destination: '/quickstart' }] }));
    symlinkSync(join(workspace, 'docs', 'site.json'), join(workspace, 'docs', 'docs.json'));
    const page = await findPage('docs/quickstart.mdx', workspace);
    assert.deepEqual(page.paths, ['/quickstart']);
    assert.deepEqual(page.resolve('/old'), { kind: 'page', file: 'quickstart.mdx', path: '/old', redirectedTo: '/quickstart' });
  });
});
