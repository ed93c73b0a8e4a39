/**
 * The prompt composer: a Markdown file per draft (see core/agent/drafts.ts) under the
 * extension's global storage, opened in an editor. Its first line is a comment that says how to
 * send it (never sent); a "Send" CodeLens sits on top, the editor's title bar has a send button,
 * and Ctrl/Cmd+Enter sends (the `docsAdmin.composerActive` context key scopes the keybinding).
 * Every change is saved to the file (debounced), so a draft outlives a failed send, a reload and
 * a restart; only a job created from it (or Discard Draft) removes it. Closing the tab sends
 * nothing.
 */
import * as vscode from 'vscode';
import type { AgentRequest } from '../../core/agent/ask';
import { draftFolder, draftToContinue, parseDraftPath, promptDigest, type DraftAddress } from '../../core/agent/drafts';
import { composerHeader, newDraft, promptFromDraft } from '../../core/agent/prompt';
import type { Logger } from '../../core/log';

/** The text each draft was given when opened, by path: a draft still equal to it was never edited. */
const GENERATED = 'docsAdmin.agentDrafts.generated';
/** Drafts whose last send may have created a job (or reached it), by path, with when. */
const UNCERTAIN = 'docsAdmin.agentDrafts.uncertain';
/** The digest of the prompt the agent last took from each draft, by path (until the draft is made anew). */
const SENT = 'docsAdmin.agentDrafts.sent';
/** The digest of the prompt of each draft the person discarded, by path (until the draft is made anew). */
const DISCARDED = 'docsAdmin.agentDrafts.discarded';
const CONTEXT_KEY = 'docsAdmin.composerActive';
const SAVE_DELAY_MS = 300;

export class PromptComposer implements vscode.Disposable {
  private readonly root: vscode.Uri;
  private readonly saves = new Map<string, NodeJS.Timeout>();
  /** Drafts discarded and not opened since: a save that comes late must not write one back. */
  private readonly discarded = new Set<string>();
  /** What the Send and Discard CodeLenses hand their commands: made here, checked by identity (a link's JSON is never one). */
  private readonly tokens = new WeakMap<object, vscode.Uri>();
  private readonly lensEmitter = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    storage: vscode.Uri,
    private readonly state: vscode.Memento,
    private readonly log: Logger,
  ) {
    this.root = vscode.Uri.joinPath(storage, 'agent-prompts');
    this.subscriptions = [
      vscode.window.onDidChangeActiveTextEditor((editor) => void this.updateContext(editor)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0 && this.addressOf(e.document.uri) !== undefined) this.scheduleSave(e.document);
      }),
      vscode.languages.registerCodeLensProvider({ scheme: 'file', language: 'markdown' }, { provideCodeLenses: (doc) => this.lenses(doc), onDidChangeCodeLenses: this.lensEmitter.event }),
      this.lensEmitter,
    ];
    void this.updateContext(vscode.window.activeTextEditor);
  }

  /** What a document is a draft for; undefined when it is not a composer. */
  addressOf(uri: vscode.Uri): DraftAddress | undefined {
    if (uri.scheme !== this.root.scheme) return undefined;
    const root = this.root.path.endsWith('/') ? this.root.path : `${this.root.path}/`;
    if (!uri.path.startsWith(root)) return undefined;
    return parseDraftPath(uri.path.slice(root.length).split('/'));
  }

  /** The draft a CodeLens's token stands for; undefined for anything else (a link cannot make a token). */
  draftOfToken(value: unknown): vscode.Uri | undefined {
    return typeof value === 'object' && value !== null ? this.tokens.get(value) : undefined;
  }

  private token(uri: vscode.Uri): object {
    const token = { draft: uri.toString() };
    this.tokens.set(token, uri);
    return token;
  }

  /** The file of a draft. */
  uriOf(address: DraftAddress): vscode.Uri {
    return vscode.Uri.joinPath(this.root, ...draftFolder(address), fileName(address.request));
  }

  /**
   * Opens the draft for `address`: the one kept from before when the person wrote in it and did
   * not send it, else a new one with `header` and `context` (`continued` says which). What the
   * agent took never comes back: the draft's file is the draft, and a document VS Code still
   * holds after its file was removed is made anew (see `draftToContinue`).
   */
  async open(address: DraftAddress, header: string, context: string): Promise<{ editor: vscode.TextEditor; continued: boolean }> {
    const uri = this.uriOf(address);
    this.discarded.delete(uri.toString());
    const fresh = newDraft(composerHeader(header), context);
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    const continued =
      draftToContinue({
        saved: await this.read(uri),
        inMemory: open?.getText(),
        generated: this.state.get<Record<string, string>>(GENERATED, {})[uri.path],
        sentDigest: this.state.get<Record<string, string>>(SENT, {})[uri.path],
        discardedDigest: this.state.get<Record<string, string>>(DISCARDED, {})[uri.path],
      }) !== undefined;
    if (!continued) {
      if (open !== undefined) {
        // Written through the document, which saves it to the file (a file written behind its back would conflict).
        const edit = new vscode.WorkspaceEdit();
        edit.replace(uri, new vscode.Range(0, 0, open.lineCount, 0), fresh);
        if (!(await vscode.workspace.applyEdit(edit)) || !(await open.save())) throw new Error(vscode.l10n.t('The new prompt draft could not be written to {0}. Close its tab and try again.', uri.fsPath));
      } else {
        await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(uri, '..'));
        await vscode.workspace.fs.writeFile(uri, Buffer.from(fresh, 'utf8'));
      }
      await this.state.update(GENERATED, { ...this.state.get<Record<string, string>>(GENERATED, {}), [uri.path]: fresh });
      await this.forgetMark(SENT, uri);
      await this.forgetMark(DISCARDED, uri);
    }
    const document = open ?? (await vscode.workspace.openTextDocument(uri));
    const beside = vscode.window.activeTextEditor !== undefined && this.addressOf(vscode.window.activeTextEditor.document.uri) === undefined;
    // The cursor where the request goes, as the editor opens (not a moment later: typing would land before it).
    const end = document.lineAt(document.lineCount - 1).range.end;
    const editor = await vscode.window.showTextDocument(document, { preview: false, viewColumn: beside ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active, selection: new vscode.Range(end, end) });
    // Ctrl+Enter works from the moment Ask Agent… is done and says so: the window runs setContext
    // after its own activation step, not in order with the status bar message that follows.
    await this.updateContext(editor);
    this.lensEmitter.fire();
    return { editor, continued };
  }

  /** The prompt a composer document holds (without its header), saved to its file first. */
  async promptOf(document: vscode.TextDocument): Promise<string> {
    await this.flush(document);
    return promptFromDraft(document.getText());
  }

  /**
   * The agent took `prompt` from this draft: it is removed, and what was sent is remembered (as a
   * digest) so that the draft cannot come back even if its file could not be removed. A draft the
   * person wrote in while it was being sent is kept as it is now (`'kept'`): what they typed is
   * never lost, and since it no longer equals what was sent, it is theirs to edit and send.
   */
  async sent(uri: vscode.Uri, prompt: string): Promise<'removed' | 'kept'> {
    await this.state.update(SENT, { ...this.state.get<Record<string, string>>(SENT, {}), [uri.path]: promptDigest(prompt) });
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString() && !d.isClosed);
    if (document !== undefined && promptFromDraft(document.getText()) !== prompt) {
      await this.flush(document);
      await this.forgetMark(UNCERTAIN, uri);
      return 'kept';
    }
    await this.remove(uri);
    return 'removed';
  }

  /**
   * The person discards a draft: it is removed, and what it held is remembered (as a digest) so
   * that it cannot come back, even if its file could not be removed or a save under way wrote it
   * back (seen once under load: the next Ask Agent… opened the discarded text).
   */
  async discard(uri: vscode.Uri): Promise<void> {
    this.discarded.add(uri.toString());
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    const text = document?.getText() ?? (await this.read(uri));
    if (text !== undefined) await this.state.update(DISCARDED, { ...this.state.get<Record<string, string>>(DISCARDED, {}), [uri.path]: promptDigest(promptFromDraft(text)) });
    await this.remove(uri);
  }

  /** Removes a draft: its tabs close (nothing to save), its file and marks go. */
  private async remove(uri: vscode.Uri): Promise<void> {
    clearTimeout(this.saves.get(uri.toString()));
    this.saves.delete(uri.toString());
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (document?.isDirty === true) await document.save();
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString());
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
    try {
      await vscode.workspace.fs.delete(uri);
    } catch (error) {
      this.log.warn(`Could not delete the sent draft ${uri.fsPath}: ${error instanceof Error ? error.message : String(error)}`);
    }
    await this.forgetMark(GENERATED, uri);
    await this.forgetMark(UNCERTAIN, uri);
  }

  /** Whether the draft still holds only what it was opened with (the page and lines): nothing asked yet. */
  isUnwritten(document: vscode.TextDocument): boolean {
    return this.state.get<Record<string, string>>(GENERATED, {})[document.uri.path] === document.getText();
  }

  /** Whether the last send of this draft may have created a job (or reached one). */
  wasMaybeSent(uri: vscode.Uri): boolean {
    return this.state.get<Record<string, number>>(UNCERTAIN, {})[uri.path] !== undefined;
  }

  async markMaybeSent(uri: vscode.Uri): Promise<void> {
    await this.state.update(UNCERTAIN, { ...this.state.get<Record<string, number>>(UNCERTAIN, {}), [uri.path]: Date.now() });
  }

  /** The composer documents open in this window (the tests' and the UI check's way in). */
  documents(): vscode.TextDocument[] {
    return vscode.workspace.textDocuments.filter((d) => this.addressOf(d.uri) !== undefined);
  }

  private async forgetMark(key: string, uri: vscode.Uri): Promise<void> {
    const marks = { ...this.state.get<Record<string, unknown>>(key, {}) };
    if (!(uri.path in marks)) return;
    delete marks[uri.path];
    await this.state.update(key, marks);
  }

  private async read(uri: vscode.Uri): Promise<string | undefined> {
    try {
      return Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
    } catch {
      return undefined;
    }
  }

  private scheduleSave(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    clearTimeout(this.saves.get(key));
    if (this.discarded.has(key)) return;
    this.saves.set(
      key,
      setTimeout(() => {
        this.saves.delete(key);
        void this.flush(document);
      }, SAVE_DELAY_MS),
    );
  }

  private async flush(document: vscode.TextDocument): Promise<void> {
    clearTimeout(this.saves.get(document.uri.toString()));
    this.saves.delete(document.uri.toString());
    if (!document.isDirty || document.isClosed || this.discarded.has(document.uri.toString())) return;
    try {
      await document.save();
    } catch (error) {
      this.log.warn(`Could not save the prompt draft ${document.uri.fsPath}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private updateContext(editor: vscode.TextEditor | undefined): Thenable<unknown> {
    return vscode.commands.executeCommand('setContext', CONTEXT_KEY, editor !== undefined && this.addressOf(editor.document.uri) !== undefined);
  }

  private lenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const address = this.addressOf(document.uri);
    if (address === undefined) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    return [
      new vscode.CodeLens(top, {
        title: address.request.kind === 'create' ? `$(send) ${vscode.l10n.t('Send to agent')}` : `$(send) ${vscode.l10n.t('Send follow-up to job {0}', address.request.jobId)}`,
        command: 'docsAdmin.agent.send',
        arguments: [this.token(document.uri)],
      }),
      new vscode.CodeLens(top, { title: `$(trash) ${vscode.l10n.t('Discard draft')}`, command: 'docsAdmin.agent.discardDraft', arguments: [this.token(document.uri)] }),
    ];
  }

  dispose(): void {
    for (const timer of this.saves.values()) clearTimeout(timer);
    this.saves.clear();
    for (const s of this.subscriptions) s.dispose();
  }
}

/** The draft's file name: what its tab shows. */
function fileName(request: AgentRequest): string {
  return request.kind === 'create' ? 'Ask Agent.md' : `Follow-up ${request.jobId.replace(/[^\w.-]/g, '_').slice(0, 24)}.md`;
}
