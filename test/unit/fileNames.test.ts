/**
 * One name, one meaning (issue 37): no two source files share a file name, so a name in a stack
 * trace, a review or a search means one thing. A new file whose name is taken gets a name that says
 * what it is of (`siteSettings.ts`, not a second `settings.ts`).
 */
import * as assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';

const REPO = resolve(__dirname, '..', '..', '..');

function filesBelow(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesBelow(join(dir, e.name)) : [join(dir, e.name)]));
}

/** The names held by more than one path, each with its paths. */
export function sharedNames(paths: readonly string[]): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const path of paths) byName.set(basename(path), [...(byName.get(basename(path)) ?? []), path]);
  return new Map([...byName].filter(([, held]) => held.length > 1));
}

describe('file names: one name, one meaning', () => {
  it('finds a name that two folders both use', () => {
    const shared = sharedNames(['src/vscode/commands/settings.ts', 'src/vscode/site/settings.ts', 'src/core/site/model.ts']);
    assert.deepEqual([...shared], [['settings.ts', ['src/vscode/commands/settings.ts', 'src/vscode/site/settings.ts']]]);
  });

  it('no two files under src/ share a name', () => {
    const paths = filesBelow(join(REPO, 'src')).map((p) => relative(REPO, p));
    assert.ok(paths.length > 100, `only ${paths.length} files found under src/`);
    assert.deepEqual([...sharedNames(paths)], []);
  });
});
