import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DocsAdminInternals } from '../../src/extension';
import type { Logger } from '../../src/core/log';

export const EXTENSION_ID = 'docs-admin.docs-admin';

export async function internals(): Promise<DocsAdminInternals> {
  const extension = vscode.extensions.getExtension<DocsAdminInternals>(EXTENSION_ID);
  assert.ok(extension);
  return extension.activate();
}

/**
 * Marks a command's options as coming from code, as the extension's own calls do (see
 * src/vscode/commandKit/fromCode.ts): the extension hands out its `fromCode` (outside production only), so
 * the mark is the one it checks; a copy of the module would carry another symbol.
 */
export function fromCode<T extends object>(args: T): T {
  const exports = vscode.extensions.getExtension<DocsAdminInternals>(EXTENSION_ID)?.exports;
  assert.ok(exports?.fromCode, 'the extension is active, outside production: it hands out fromCode');
  return exports.fromCode(args);
}

export async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function configure(values: Record<string, unknown>): Promise<void> {
  const config = vscode.workspace.getConfiguration('docsAdmin');
  for (const [key, value] of Object.entries(values)) await config.update(key, value, vscode.ConfigurationTarget.Global);
}

/**
 * The logger integration tests hand the core (never a silent one, a lint rule says): each line
 * is printed by the extension host, whose output the run's secrets scan reads
 * (test/host/logScan.ts).
 */
export function hostLogger(source: string): Logger {
  const at = (level: string) => (message: string) => console.log(`[${source}:${level}] ${message}`);
  return { trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
