/**
 * The language-model tools (Copilot's agent mode, any chat participant): `vscode.lm.registerTool`
 * for each tool of core/tools/definitions.ts, which `contributes.languageModelTools` declares
 * with the same names, descriptions and input schemas (a test holds them equal).
 *
 * - Read tools read, and ask nothing.
 * - Action tools (ask the agent, follow up, preview, deploy) ask first: `prepareInvocation`
 *   checks the input completely and answers `confirmationMessages` naming the environment and
 *   the project and saying what will change, the prompt or branch shown as text. VS Code shows
 *   them (in the chat, or as a modal dialog when an extension calls `lm.invokeTool` outside a
 *   chat) and calls `invoke` only once the person allowed it. `prepareInvocation` sends nothing.
 *   And `invoke` itself sends an action only when its `prepareInvocation` asked about this very
 *   input (a ticket, used once, valid for 10 minutes): a path that reached `invoke` without a
 *   confirmation being asked sends nothing.
 * - Results are plain text, server and reader text quoted as data (core/tools/quote.ts); a
 *   failure is thrown as an error whose text is made the same way, the key redacted.
 * The runner, its input schemas and the editor's host are loaded on the first call, not at activation.
 */
import * as vscode from 'vscode';
import { redactSecrets } from '../../core/redact';
import { TOOLS, type ToolDefinition } from '../../core/tools/definitions';
import type { Deps } from '../commandKit/commandToolkit';
import { escapeMarkdown, untrustedMarkdown } from '../ui/ui';

/** Plain text in a Markdown confirmation: shown as written, nothing in it rendered or clickable (the quoted text in a fence longer than any run of backticks in it, so it cannot close it). */
function confirmationText(message: string, quoted: { label: string; text: string } | undefined): vscode.MarkdownString {
  const parts = [escapeMarkdown(message)];
  if (quoted !== undefined) {
    const fence = '`'.repeat(Math.max(3, ...[...quoted.text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
    parts.push('', escapeMarkdown(`${quoted.label}:`), '', `${fence}text`, quoted.text, fence, '');
  }
  return untrustedMarkdown(parts.join('\n'));
}

/** How long a confirmation asked stays good for its `invoke`. */
const TICKET_MS = 10 * 60_000;

export function tool(deps: Deps, def: ToolDefinition): vscode.LanguageModelTool<Record<string, unknown>> {
  /** The inputs a confirmation was asked for (as JSON), and when. */
  const asked = new Map<string, number>();
  const ticketOf = (input: unknown) => JSON.stringify(input ?? {});
  const load = async () => {
    const [run, confirm, results, host] = await Promise.all([import('../../core/tools/runTool.js'), import('../../core/tools/confirm.js'), import('../../core/tools/results.js'), import('./toolHost.js')]);
    return { run, confirm, results, host: host.editorToolHost(deps) };
  };
  return {
    async prepareInvocation(options) {
      const invocationMessage = vscode.l10n.t('{0} ({1})', def.displayName, deps.session.environment.name);
      if (def.kind === 'read') return { invocationMessage };
      const { run, confirm } = await load();
      // The whole input is checked first: a confirmation is asked only for what can be sent.
      const checked = run.checkAction(def.name, options.input, { secrets: () => deps.keys.known() });
      const env = deps.session.environment;
      const question = confirm.confirmationOf(def.name, checked, { environment: env.name, projectId: env.projectId });
      if (question === undefined) return { invocationMessage };
      const now = Date.now();
      for (const [key, at] of asked) if (now - at > TICKET_MS) asked.delete(key);
      asked.set(ticketOf(options.input), now);
      return { invocationMessage, confirmationMessages: { title: question.title, message: confirmationText(question.message, question.quoted) } };
    },
    async invoke(options, token) {
      const { run, results, host } = await load();
      if (def.kind === 'action') {
        const at = asked.get(ticketOf(options.input));
        asked.delete(ticketOf(options.input));
        if (at === undefined || Date.now() - at > TICKET_MS) {
          deps.log.warn(`Language-model tool ${def.name} was invoked without its confirmation being asked: nothing was sent.`);
          throw new Error(results.errorText(def.name, vscode.l10n.t('This action was not confirmed (no confirmation was asked for this input), so nothing was sent. Call the tool again so that the person is asked.')));
        }
      }
      const controller = new AbortController();
      const cancel = token.onCancellationRequested(() => controller.abort());
      try {
        const text = await run.runTool(def.name, options.input, host, controller.signal);
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(redactSecrets(text, deps.keys.known()))]);
      } catch (error) {
        const message = redactSecrets(error instanceof Error ? error.message : String(error), deps.keys.known());
        deps.log.warn(`Language-model tool ${def.name} failed: ${message}`);
        throw new Error(results.errorText(def.name, message), { cause: error });
      } finally {
        cancel.dispose();
      }
    },
  };
}

export type LmTools = ReadonlyMap<string, vscode.LanguageModelTool<Record<string, unknown>>>;

/** Registers the tools; answers them by name (the host tests call their `prepareInvocation`). */
export function register(deps: Deps): { tools: LmTools; disposables: vscode.Disposable[] } {
  const tools = new Map(TOOLS.map((def) => [def.name, tool(deps, def)] as const));
  // An editor without the language-model API (before VS Code 1.95, or a fork without it) gets no tools.
  if (typeof vscode.lm?.registerTool !== 'function') return { tools, disposables: [] };
  return { tools, disposables: [...tools].map(([name, t]) => vscode.lm.registerTool(name, t)) };
}
