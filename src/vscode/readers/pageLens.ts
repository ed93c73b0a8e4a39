/**
 * The page's signals on its first line, as a CodeLens ("$(thumbsdown) 5 · $(thumbsup) 12 · 3
 * open comments · 2 unanswered questions · 1.2k views (38 % AI)"), on a `.md` / `.mdx` file of a
 * docs root; a click shows the page's feedback in the Readers view. Quiet: nothing when the
 * feature or its CodeLens is off, nothing for a page without data, and no request of its own:
 * the first page asks for the site's data once (the model's need), and every page after is a
 * look-up in memory. The click hands the command a token only the lens makes (a link cannot make
 * one), standing for the page.
 */
import * as vscode from 'vscode';
import type { ReadersModel } from './readersModel';
import { signalsLine } from './signalsLine';

export const SHOW_PAGE_COMMAND = 'docsAdmin.readers.showPage';

export class PageLens implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.emitter.event;
  private readonly subscriptions: vscode.Disposable[];
  private readonly tokens = new WeakMap<object, string>();

  constructor(private readonly model: ReadersModel) {
    this.subscriptions = [
      this.emitter,
      model.onDidChange(() => this.emitter.fire()),
      vscode.languages.registerCodeLensProvider([{ scheme: 'file', pattern: '**/*.md' }, { scheme: 'file', pattern: '**/*.mdx' }], this),
    ];
  }

  /** The page key a lens's token stands for; undefined for anything else (a link's string or JSON). */
  pageOfToken(value: unknown): string | undefined {
    return typeof value === 'object' && value !== null ? this.tokens.get(value) : undefined;
  }

  private token(key: string): object {
    const token = Object.freeze({ page: key });
    this.tokens.set(token, key);
    return token;
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const model = this.model;
    if (!model.settings.enabled || !model.settings.codeLens) return [];
    const page = model.pageOf(document.uri);
    if (page === undefined) {
      // Not known yet: a page of a docs root asks for the site's data, once; the lens comes with it.
      model.needFor(document.uri);
      return [];
    }
    const title = signalsLine(page.signals, 'lens');
    if (title === undefined) return [];
    return [new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), { title, command: SHOW_PAGE_COMMAND, arguments: [this.token(page.key)], tooltip: vscode.l10n.t('Show what readers said of this page (last {0} days)', model.period) })];
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
