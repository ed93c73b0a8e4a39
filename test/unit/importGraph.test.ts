/**
 * The import graph's rules (.dependency-cruiser.cjs, run by `npm run lint:imports` in npm test):
 * each one fails on a tree that breaks it, planted in a temporary folder, and a tree that keeps
 * them all passes. Type-only imports count.
 */
import * as assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const REPO = resolve(__dirname, '..', '..', '..');

/** The rules each file of `tree` breaks, by rule name and the arrow (`from -> to`). */
async function violations(tree: Record<string, string>): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'docs-admin-imports-'));
  try {
    for (const [file, text] of Object.entries(tree)) {
      await mkdir(dirname(join(dir, file)), { recursive: true });
      await writeFile(join(dir, file), text);
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the config is CommonJS, as dependency-cruiser reads it.
    const config = require(join(REPO, '.dependency-cruiser.cjs')) as { forbidden: unknown[]; options: Record<string, unknown> };
    const { cruise } = await import('dependency-cruiser');
    const { tsConfig: _, ...options } = config.options;
    const result = await cruise(['src'], { ...options, baseDir: dir, validate: true, ruleSet: { forbidden: config.forbidden } } as never);
    const output = result.output as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
    return output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('the import graph rules', function () {
  // dependency-cruiser loads TypeScript to read the planted files.
  this.timeout(60_000);

  it('pass a tree whose arrows point down (extension -> vscode -> core; cli -> mcp -> core; action -> cli)', async () => {
    assert.deepEqual(
      await violations({
        'src/extension.ts': "import { a } from './vscode/a';\nexport const top = a;\n",
        'src/vscode/a.ts': "import { c } from '../core/c';\nexport const a = c;\n",
        'src/cli/mcp.ts': "import { s } from '../mcp/server';\nexport const m = s;\n",
        'src/mcp/server.ts': "import { c } from '../core/c';\nexport const s = c;\n",
        'src/action/main.ts': "import { m } from '../cli/mcp';\nimport { c } from '../core/c';\nexport const x = [m, c];\n",
        'src/core/c.ts': 'export const c = 1;\n',
      }),
      [],
    );
  });

  it('fail on a circle, even of types only', async () => {
    assert.deepEqual(
      await violations({
        'src/action/operations.ts': "import { deploy } from './deploy';\nexport interface Context { n: number }\nexport const run = deploy;\n",
        'src/action/deploy.ts': "import type { Context } from './operations';\nexport const deploy = (c: Context) => c.n;\n",
      }),
      // One arrow of the circle is named: the one from the file that closes it.
      ['no-circle: src/action/deploy.ts -> src/action/operations.ts'],
    );
  });

  it('fail on an upward arrow: the core to a front end, the MCP server to the CLI, the editor to the CLI', async () => {
    assert.deepEqual(
      await violations({
        'src/core/c.ts': "import type { A } from '../vscode/a';\nexport type C = A;\n",
        'src/vscode/a.ts': "import { exit } from '../cli/exit';\nexport type A = string;\nexport const a = exit;\n",
        'src/mcp/command.ts': "import { exit } from '../cli/exit';\nexport const m = exit;\n",
        'src/cli/exit.ts': 'export const exit = 0;\n',
      }),
      ['core-stays-down: src/core/c.ts -> src/vscode/a.ts', 'editor-not-other-fronts: src/vscode/a.ts -> src/cli/exit.ts', 'mcp-server-only: src/mcp/command.ts -> src/cli/exit.ts'],
    );
  });
});
