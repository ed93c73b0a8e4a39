import * as assert from 'node:assert/strict';
import { readStaticExport, setStaticExport, ValuesFileError } from '../../src/core/helm/values';
import { minimalEdit } from '../../src/core/helm/edit';

const URL_NEW = 'https://bucket.s3.amazonaws.com/exports/job_9/bundle.tar.gz?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20261123T100000Z&X-Amz-Expires=3600&X-Amz-Signature=abc%2Fdef';

const TYPICAL = `# Values for the docs deployment.
# Managed partly by hand: keep these comments.

replicaCount: 2   # two pods

image:
  repository: registry.example.com/docs
  tag: "1.4.2"

staticExport:
  # Turned on by the publish pipeline.
  enabled: false
  bundleUrl: 'https://old.example.com/bundle.tar.gz?X-Amz-Signature=old' # last publish
  version: v41

ingress:
  enabled: true
  hosts: [docs.example.com]
`;

function refusal(run: () => unknown): ValuesFileError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ValuesFileError, String(error));
    return error;
  }
  assert.fail('expected a ValuesFileError');
}

describe('Helm values: the staticExport block', () => {
  it('changes only the three values, keeping every other byte', () => {
    const out = setStaticExport(TYPICAL, { bundleUrl: URL_NEW, version: 'v42' });
    const expected = TYPICAL.replace('enabled: false', 'enabled: true')
      .replace(`'https://old.example.com/bundle.tar.gz?X-Amz-Signature=old'`, JSON.stringify(URL_NEW))
      .replace('version: v41', 'version: "v42"');
    assert.equal(out, expected);
    const block = readStaticExport(out);
    assert.equal(block?.bundleUrl?.value, URL_NEW);
    assert.equal(block?.enabled?.value, true);
    assert.equal(block?.version?.value, 'v42');
  });

  it('leaves an existing version alone when none is given', () => {
    const out = setStaticExport(TYPICAL, { bundleUrl: URL_NEW });
    assert.match(out, /\n {2}version: v41\n/);
  });

  it('adds the block to a file without one, with the file\'s own indentation', () => {
    const text = '# my values\nimage:\n    repository: docs\n    tag: latest\n';
    const out = setStaticExport(text, { bundleUrl: URL_NEW, version: '7' });
    assert.equal(out, `${text}staticExport:\n    enabled: true\n    bundleUrl: ${JSON.stringify(URL_NEW)}\n    version: "7"\n`);
    // And to one that does not end with a newline.
    const bare = setStaticExport('replicaCount: 1', { bundleUrl: URL_NEW });
    assert.equal(bare, `replicaCount: 1\nstaticExport:\n  enabled: true\n  bundleUrl: ${JSON.stringify(URL_NEW)}\n`);
  });

  it('adds missing keys inside an existing block, after its last key', () => {
    const text = 'staticExport:\n  enabled: false # off for now\nother: 1\n';
    const out = setStaticExport(text, { bundleUrl: URL_NEW });
    assert.equal(out, `staticExport:\n  enabled: true # off for now\n  bundleUrl: ${JSON.stringify(URL_NEW)}\nother: 1\n`);
  });

  it('fills keys that are present without a value, and an empty block', () => {
    const text = 'staticExport:\n  enabled:\n  bundleUrl:\nnext: 2\n';
    const out = setStaticExport(text, { bundleUrl: URL_NEW });
    assert.equal(out, `staticExport:\n  enabled: true\n  bundleUrl: ${JSON.stringify(URL_NEW)}\nnext: 2\n`);
    const empty = setStaticExport('a: 1\nstaticExport:\nb: 2\n', { bundleUrl: URL_NEW });
    assert.equal(empty, `a: 1\nstaticExport:\n  enabled: true\n  bundleUrl: ${JSON.stringify(URL_NEW)}\nb: 2\n`);
    assert.equal(readStaticExport(setStaticExport('staticExport: ~\n', { bundleUrl: URL_NEW }))?.bundleUrl?.value, URL_NEW);
  });

  it('writes into an empty file, and keeps CRLF line endings', () => {
    assert.equal(setStaticExport('', { bundleUrl: 'https://x/b' }), 'staticExport:\n  enabled: true\n  bundleUrl: "https://x/b"\n');
    const crlf = 'image:\r\n  tag: "1"\r\n';
    assert.equal(setStaticExport(crlf, { bundleUrl: 'https://x/b' }), 'image:\r\n  tag: "1"\r\nstaticExport:\r\n  enabled: true\r\n  bundleUrl: "https://x/b"\r\n');
  });

  it('refuses invalid YAML with the parser\'s line and column, changing nothing', () => {
    const error = refusal(() => setStaticExport('a: 1\nstaticExport:\n  enabled: [true\n', { bundleUrl: URL_NEW }));
    assert.ok(error.line !== undefined && error.line >= 3, String(error.line));
    assert.ok(error.column !== undefined && error.column >= 1);
    assert.match(error.message, /not valid YAML at line \d+, column \d+/);
    const duplicate = refusal(() => readStaticExport('staticExport:\n  enabled: true\nstaticExport: {}\n'));
    assert.match(duplicate.message, /line 3/);
  });

  it('refuses shapes it cannot edit without reformatting, with what to do', () => {
    assert.match(refusal(() => setStaticExport('staticExport: {enabled: false}\n', { bundleUrl: URL_NEW })).message, /block mapping/);
    assert.match(refusal(() => setStaticExport('- a\n- b\n', { bundleUrl: URL_NEW })).message, /top level/);
    assert.match(refusal(() => setStaticExport('staticExport:\n  bundleUrl:\n    nested: 1\n', { bundleUrl: URL_NEW })).message, /single value/);
  });

  it('reads the block with where each value is', () => {
    const block = readStaticExport(TYPICAL);
    assert.ok(block);
    assert.equal(block.enabled?.value, false);
    assert.equal(TYPICAL.slice(block.bundleUrl?.start, block.bundleUrl?.end), `'https://old.example.com/bundle.tar.gz?X-Amz-Signature=old'`);
    assert.equal(TYPICAL.slice(block.key.start, block.key.end), 'staticExport');
    assert.equal(readStaticExport('image: {}\n'), undefined);
  });
});

describe('minimalEdit', () => {
  it('replaces only what changed, and applying it gives the new text', () => {
    const cases: [string, string][] = [
      [TYPICAL, setStaticExport(TYPICAL, { bundleUrl: URL_NEW })],
      ['abc', 'abc'],
      ['', 'x'],
      ['aXa', 'aYYa'],
      ['aaaa', 'aa'],
    ];
    for (const [before, after] of cases) {
      const edit = minimalEdit(before, after);
      assert.equal(before.slice(0, edit.start) + edit.text + before.slice(edit.end), after);
      assert.ok(edit.end - edit.start <= before.length);
    }
    const edit = minimalEdit('enabled: false\nx: 1\n', 'enabled: true\nx: 1\n');
    assert.deepEqual(edit, { start: 9, end: 13, text: 'tru' }, 'false -> true keeps the shared final e');
  });
});
