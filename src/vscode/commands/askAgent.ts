/**
 * Ask Agent…, Send Follow-up…, and the composer's Send and Discard Draft. The draft is the
 * person's own text: it is kept through every failure (and the reason said), removed only once
 * the agent took it; a send that may have reached the agent is never repeated without asking.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { isBlankPrompt, type AgentRequest } from '../../core/agent/ask';
import type { DraftAddress } from '../../core/agent/drafts';
import { contextBlock, repositoryPath, type PromptContext } from '../../core/agent/prompt';
import type { AgentJob } from '../../core/api/apiTypes';
import { jobKey } from '../../core/jobs/trackedJob';
import { command, isJobNode, requireService, type Deps } from '../commandKit/commandToolkit';
import { isFromCode } from '../commandKit/fromCode';
import type { PromptComposer } from '../agent/composer';

/** What a send came to (the tests read it). */
export type SendOutcome =
  | { outcome: 'created' | 'sent'; jobId: string }
  | { outcome: 'blank' | 'cancelled' }
  | { outcome: 'rateLimited' | 'mayHaveArrived' | 'failed'; message: string };

export function register(deps: Deps): vscode.Disposable[] {
  const composer = deps.composer;
  /** Drafts being sent now: a second Ctrl+Enter while the first is on its way sends nothing. */
  const sending = new Set<string>();
  return [
    command('docsAdmin.agent.ask', deps, async (uri?: unknown) => {
      requireService(deps);
      const address: DraftAddress = { environmentId: deps.session.environment.id, request: { kind: 'create' } };
      return openComposer(deps, address, contextOf(editorFor(uri, composer)));
    }),
    command('docsAdmin.agentJob.sendFollowUp', deps, async (node: unknown) => {
      if (!isJobNode(deps, node) || node.kind !== 'agent') throw new Error(vscode.l10n.t('Pick an agent job in the Agent Jobs view.'));
      const job = requireService(deps).get(node.key);
      if (job === undefined) throw new Error(vscode.l10n.t('That job is no longer tracked.'));
      const address: DraftAddress = { environmentId: deps.session.environment.id, request: { kind: 'message', jobId: job.id } };
      // Lines selected in the page beside go with it, as for a new job.
      const editor = editorFor(undefined, composer);
      return openComposer(deps, address, editor === undefined || editor.selection.isEmpty ? '' : contextOf(editor));
    }),
    command('docsAdmin.agent.send', deps, async (target?: unknown) => {
      const { document, asked, sendAgain } = composerDocument(composer, target);
      const key = document.uri.toString();
      if (sending.has(key)) {
        deps.messages.status(vscode.l10n.t('This prompt is being sent already.'), 3000);
        return { outcome: 'cancelled' } satisfies SendOutcome;
      }
      sending.add(key);
      try {
        if (!asked && !(await confirmSend(deps, composer, document))) return { outcome: 'cancelled' } satisfies SendOutcome;
        return await send(deps, composer, document, sendAgain);
      } finally {
        sending.delete(key);
      }
    }),
    command('docsAdmin.agent.discardDraft', deps, async (target?: unknown) => {
      const { document, asked } = composerDocument(composer, target);
      if (!asked) {
        const discard = vscode.l10n.t('Discard');
        const choice = await deps.messages.ask('warning', vscode.l10n.t('Discard this prompt draft? Its text is deleted.'), { modal: true }, discard);
        if (choice !== discard) return false;
      }
      await composer.discard(document.uri);
      return true;
    }),
  ];
}

/**
 * Opens the composer for `address`, a new draft starting with `context` (the page and lines, or
 * any text a caller prefills), or the person's unsent draft, which is said; answers its file.
 */
export async function openComposer(deps: Pick<Deps, 'composer' | 'messages'>, address: DraftAddress, context: string): Promise<vscode.Uri> {
  const opened = await deps.composer.open(address, header(address.request), context);
  if (!opened.continued) return opened.editor.document.uri;
  // The unsent draft is back: the page and lines asked about now go at its end, never dropped.
  if (await addToDraft(opened.editor, context)) void deps.messages.info(vscode.l10n.t('Your unsent draft is open again, and the selected lines were added at its end: edit it, send it, or discard it.'));
  else deps.messages.status(vscode.l10n.t('Your unsent draft is back: edit it, send it, or discard it.'), 5000);
  return opened.editor.document.uri;
}

/**
 * Adds `context` (a page and its lines, or readers' words) at the end of a draft that came back,
 * after the person's words, and puts the cursor there; answers whether anything was added (not
 * when empty, or already in the draft).
 */
export async function addToDraft(editor: vscode.TextEditor, context: string): Promise<boolean> {
  const document = editor.document;
  if (context.trim() === '' || document.getText().includes(context.trim())) return false;
  const end = document.lineAt(document.lineCount - 1).range.end;
  if (!(await editor.edit((edit) => edit.insert(end, `${document.getText().endsWith('\n') ? '' : '\n'}\n${context.trimEnd()}\n\n`)))) return false;
  const last = document.lineAt(document.lineCount - 1).range.end;
  editor.selection = new vscode.Selection(last, last);
  editor.revealRange(new vscode.Range(last, last));
  return true;
}

/** What to check before sending again, in the editor: the job's row, or the view and the dashboard. */
function editorAdvice(request: AgentRequest): string {
  return request.kind === 'create'
    ? vscode.l10n.t('Check the Agent Jobs view or the dashboard (refresh them) before you send this prompt again.')
    : vscode.l10n.t('Refresh the job (it is active again if it took the follow-up) before you send it again.');
}

function header(request: AgentRequest): string {
  const how = vscode.l10n.t('Send: "Send" above, or Ctrl+Enter (Cmd+Enter on macOS), which asks first. Closing this tab sends nothing; the draft is kept. This line is not sent.');
  return request.kind === 'create' ? `${vscode.l10n.t('Ask the agent for a change.')} ${how}` : `${vscode.l10n.t('A follow-up instruction to agent job {0}.', request.jobId)} ${how}`;
}

/** The editor a command was run from (its title bar or context menu pass the file). */
function editorFor(uri: unknown, composer: PromptComposer): vscode.TextEditor | undefined {
  const active = vscode.window.activeTextEditor;
  const editor = uri instanceof vscode.Uri ? vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString()) ?? (active?.document.uri.toString() === uri.toString() ? active : undefined) : active;
  return editor === undefined || composer.addressOf(editor.document.uri) !== undefined ? undefined : editor;
}

/** The page's path in its repository and the selected lines, as the prompt starts. */
function contextOf(editor: vscode.TextEditor | undefined): string {
  if (editor === undefined || editor.document.uri.scheme === 'untitled') return '';
  const document = editor.document;
  const context: PromptContext = {};
  if (document.uri.scheme === 'file') {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    context.path = repositoryPath(document.uri.fsPath, folders, (dir) => existsSync(join(dir, '.git')));
  } else {
    context.path = vscode.workspace.asRelativePath(document.uri, false);
  }
  const selection = editor.selection;
  if (!selection.isEmpty) {
    // A selection that ends at the start of a line does not take that line.
    const last = selection.end.character === 0 && selection.end.line > selection.start.line ? selection.end.line - 1 : selection.end.line;
    const lines: string[] = [];
    for (let line = selection.start.line; line <= last; line++) lines.push(document.lineAt(line).text);
    context.selection = { startLine: selection.start.line + 1, lines };
  }
  return contextBlock(context, {
    page: (path) => vscode.l10n.t('Page: {0}', path),
    lines: (from, to) => (from === to ? vscode.l10n.t('Selected line {0}:', from) : vscode.l10n.t('Selected lines {0}-{1}:', from, to)),
  });
}

/**
 * The composer a Send or Discard is for, and whether the person already asked for it there: its
 * Send or Discard CodeLens hands a token only the composer makes (and code may name the draft and
 * answer "send it again?" in advance: `fromCode({ uri, sendAgain })`). Ctrl+Enter, the title bar
 * and the palette hand nothing but, at most, a Uri, which a link can hand too (`{"$mid":1,…}`
 * becomes a Uri), so they ask first.
 */
function composerDocument(composer: PromptComposer, target: unknown): { document: vscode.TextDocument; asked: boolean; sendAgain: boolean | undefined } {
  const fromLens = composer.draftOfToken(target);
  const code = isFromCode(target) ? (target as { uri?: unknown; sendAgain?: unknown }) : undefined;
  const named = fromLens ?? (code?.uri instanceof vscode.Uri ? code.uri : undefined);
  const uri = named ?? (target instanceof vscode.Uri ? target : vscode.window.activeTextEditor?.document.uri);
  const document = uri === undefined ? undefined : vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (document === undefined || composer.addressOf(document.uri) === undefined) throw new Error(vscode.l10n.t('Open a prompt first: Docs Admin: Ask Agent…, or Send Follow-up… on an agent job.'));
  return { document, asked: named !== undefined, sendAgain: typeof code?.sendAgain === 'boolean' ? code.sendAgain : undefined };
}

/** Asks before sending (a keystroke, the title bar or a link): where it goes, and how it starts. */
async function confirmSend(deps: Deps, composer: PromptComposer, document: vscode.TextDocument): Promise<boolean> {
  const address = composer.addressOf(document.uri);
  const prompt = await composer.promptOf(document);
  // Nothing to send: the send says so, with nothing to confirm.
  if (isBlankPrompt(prompt)) return true;
  const send = vscode.l10n.t('Send');
  const question = address?.request.kind === 'message' ? vscode.l10n.t('Send this follow-up to agent job {0}?', address.request.jobId) : vscode.l10n.t('Send this prompt to the agent? It creates an agent job.');
  const shown = prompt.length > 300 ? `${prompt.slice(0, 300)}…` : prompt;
  return (await deps.messages.ask('info', question, { modal: true, detail: shown }, send)) === send;
}

function environmentName(id: string): string {
  return id.startsWith('env:') ? id.slice(4) : vscode.l10n.t({ message: 'Default', comment: 'The name of the environment set by docsAdmin.baseUrl and docsAdmin.projectId (the others are named by the person)' });
}

async function send(deps: Deps, composer: PromptComposer, document: vscode.TextDocument, sendAgain: boolean | undefined): Promise<SendOutcome> {
  const address = composer.addressOf(document.uri);
  if (address === undefined) throw new Error(vscode.l10n.t('Open a prompt first: Docs Admin: Ask Agent…, or Send Follow-up… on an agent job.'));
  if (address.environmentId !== deps.session.environment.id) {
    throw new Error(vscode.l10n.t('This draft is for the environment "{0}": switch to it (Docs Admin: Switch Environment…) to send it. The draft is kept.', environmentName(address.environmentId)));
  }
  const service = requireService(deps);
  const client = deps.session.client;
  if (client === undefined) throw new Error(vscode.l10n.t('Set the base URL and project id of the "{0}" environment first (Docs Admin: Set Base URL, Docs Admin: Set Project ID).', deps.session.environment.name));
  const { askAgent, isBlankPrompt, AgentRateLimitError, AgentRequestMayHaveArrivedError } = await import('../../core/agent/ask.js');
  const prompt = await composer.promptOf(document);
  if (isBlankPrompt(prompt)) {
    void deps.messages.warn(vscode.l10n.t('The prompt is empty: write what the agent should do. Nothing was sent.'));
    return { outcome: 'blank' };
  }
  if (composer.isUnwritten(document)) {
    // Only the page and lines it was opened with: a job with no instruction is never what was meant.
    void deps.messages.warn(vscode.l10n.t('The prompt holds only the page and lines it was opened with: write what the agent should do below them. Nothing was sent.'));
    return { outcome: 'blank' };
  }
  if (composer.wasMaybeSent(document.uri) && sendAgain !== true) {
    if (sendAgain === false) return { outcome: 'cancelled' };
    const again = vscode.l10n.t('Send Again');
    const choice = await deps.messages.ask(
      'warning',
      address.request.kind === 'create'
        ? vscode.l10n.t('The last send of this prompt may have created an agent job already. Check the Agent Jobs view or the dashboard first: send it again anyway?')
        : vscode.l10n.t('The last send of this follow-up may have reached agent job {0} already. Refresh the job first: send it again anyway?', address.request.jobId),
      { modal: true },
      again,
    );
    if (choice !== again) return { outcome: 'cancelled' };
  }
  const request = address.request;
  deps.log.info(request.kind === 'create' ? `Asking the agent for a new job (a prompt of ${prompt.length} characters).` : `Sending a follow-up to agent job ${request.jobId} (a prompt of ${prompt.length} characters).`);
  // The prompt is the person's own text: at trace level only.
  deps.log.trace(`Prompt: ${prompt}`);
  let job: AgentJob;
  try {
    job = await deps.ui.progress(
      { location: vscode.ProgressLocation.Notification, title: request.kind === 'create' ? vscode.l10n.t('Sending the prompt to the agent…') : vscode.l10n.t('Sending the follow-up to agent job {0}…', request.jobId) },
      // No cancel: once sent, a request cannot be taken back, only left unanswered.
      () => askAgent(client, request, prompt, { maxRateLimitWaitMs: 0, advice: editorAdvice }),
    );
  } catch (error) {
    const kept = vscode.l10n.t('Your draft is kept.');
    if (error instanceof AgentRateLimitError) {
      deps.log.warn(error.message);
      void deps.messages.warn(`${error.message} ${kept}`);
      return { outcome: 'rateLimited', message: error.message };
    }
    if (error instanceof AgentRequestMayHaveArrivedError) {
      deps.log.warn(error.message);
      await composer.markMaybeSent(document.uri);
      const refresh = vscode.l10n.t('Refresh');
      void deps.messages.warn(`${error.message} ${kept}`, refresh).then((choice) => {
        if (choice !== refresh) return;
        if (request.kind === 'message') deps.session.service?.refresh(jobKey({ kind: 'agent', id: request.jobId }));
        else void vscode.commands.executeCommand('docsAdmin.refresh');
      });
      return { outcome: 'mayHaveArrived', message: error.message };
    }
    const message = error instanceof Error ? error.message : String(error);
    deps.log.warn(`The agent did not take the prompt: ${message}`);
    const showLogs = vscode.l10n.t('Show Logs');
    void deps.messages.error(`${message} ${kept}`, showLogs).then((choice) => {
      if (choice === showLogs) deps.channel.show(true);
    });
    return { outcome: 'failed', message };
  }
  if (request.kind === 'create') {
    await service.addCreatedAgentJob(job);
    deps.log.info(`Agent job ${job.id} created.`);
  } else {
    await service.reopenAgentJob(job);
    deps.log.info(`Agent job ${job.id} took the follow-up; it is ${job.rawStatus ?? 'active'} again.`);
  }
  const draft = await composer.sent(document.uri, prompt);
  deps.reveal({ key: jobKey({ kind: 'agent', id: job.id }), kind: 'agent' });
  if (request.kind === 'create') await deps.setup.markAgentAsked();
  const done = request.kind === 'create' ? vscode.l10n.t('Agent job {0} created.', job.id) : vscode.l10n.t('Agent job {0} took the follow-up.', job.id);
  if (draft === 'kept') {
    // Typed while it was being sent: kept, with what was sent still in it.
    void deps.messages.info(`${done} ${vscode.l10n.t('You wrote in the draft while it was being sent, so it is kept as it is now, the prompt that was sent included: edit it before you send it again.')}`);
  } else {
    deps.messages.status(done, 5000);
  }
  return { outcome: request.kind === 'create' ? 'created' : 'sent', jobId: job.id };
}
