/**
 * The manifest's `contributes.languageModelTools` is the core's one definition of the tools
 * (src/core/tools): the same names, reference names, descriptions, icons and input schemas, so
 * the editor's tools and the MCP server's cannot drift. The person-facing strings go through
 * package.nls.json (scripts/check-l10n.mjs checks they are localised).
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { TOOLS } from '../../src/core/tools/definitions';
import { inputSchemaOf } from '../../src/core/tools/inputs';

const REPO = resolve(__dirname, '..', '..', '..');

interface ManifestTool {
  name: string;
  toolReferenceName: string;
  displayName: string;
  userDescription: string;
  modelDescription: string;
  canBeReferencedInPrompt: boolean;
  icon: string;
  tags: string[];
  inputSchema: unknown;
}

describe('the language-model tools of the manifest', () => {
  it('are the core\'s definitions, in order, with their input schemas', () => {
    const manifest = JSON.parse(readFileSync(resolve(REPO, 'package.json'), 'utf8')) as { contributes: { languageModelTools: ManifestTool[] } };
    const nls = JSON.parse(readFileSync(resolve(REPO, 'package.nls.json'), 'utf8')) as Record<string, string>;
    const text = (value: string) => nls[/^%(.+)%$/.exec(value)?.[1] ?? ''] ?? value;
    const tools = manifest.contributes.languageModelTools;
    assert.deepEqual(tools.map((t) => t.name), TOOLS.map((t) => t.name));
    for (const [i, def] of TOOLS.entries()) {
      const t = tools[i]!;
      assert.deepEqual(
        { ...t, displayName: text(t.displayName), userDescription: text(t.userDescription) },
        { name: def.name, toolReferenceName: def.toolReferenceName, displayName: def.displayName, userDescription: def.userDescription, modelDescription: def.modelDescription, canBeReferencedInPrompt: true, icon: def.icon, tags: ['docs', 'docs-admin', def.kind], inputSchema: inputSchemaOf(def.name) },
        def.name,
      );
    }
  });
});
