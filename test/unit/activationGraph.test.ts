import * as assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { build } from 'esbuild';

const REPO = resolve(__dirname, '..', '..', '..');
const HEAVY = /node_modules\/(undici|zod|yaml|tar|yauzl|minipass|minizlib|chownr|https-proxy-agent|http-proxy-agent|agent-base|debug)\//;

describe('what activation loads', function () {
  this.timeout(30_000);

  it('the modules loaded with the extension hold no heavy dependency: those load on first use', async () => {
    const result = await build({ entryPoints: [resolve(REPO, 'src/extension.ts')], absWorkingDir: REPO, bundle: true, write: false, metafile: true, platform: 'node', format: 'cjs', external: ['vscode'], logLevel: 'silent' });
    const inputs = result.metafile.inputs;
    // Follow static imports only: a dynamic import() is evaluated when the code reaches it.
    const via = new Map<string, string>();
    const seen = new Set<string>();
    const queue = ['src/extension.ts'];
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      if (seen.has(file)) continue;
      seen.add(file);
      for (const imported of inputs[file]?.imports ?? []) {
        if (imported.kind === 'dynamic-import' || imported.external === true || seen.has(imported.path)) continue;
        if (!via.has(imported.path)) via.set(imported.path, file);
        queue.push(imported.path);
      }
    }
    const chain = (file: string) => {
      const path = [file];
      for (let at = via.get(file); at !== undefined; at = via.get(at)) path.push(at);
      return path.reverse().join(' -> ');
    };
    const heavy = [...seen].filter((f) => HEAVY.test(f));
    assert.deepEqual(heavy.map(chain), [], 'loaded at activation');
    // And the heavy parts are in the bundle, reached lazily.
    assert.ok(Object.keys(inputs).some((f) => /node_modules\/undici\//.test(f)), 'undici is bundled');
  });
});
