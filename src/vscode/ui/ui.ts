/**
 * The one way this extension puts text where VS Code renders it, besides notifications and
 * modal dialogs (src/vscode/ui/messages.ts). A lint rule (eslint.config.mjs) keeps every such sink
 * of the API to these two files. What each sink does with link syntax, as read in VS Code's
 * source (1.139):
 *
 * - Rendered with links that run commands when clicked (`[label](command:…)`, any command, any
 *   arguments, even in Restricted Mode): a notification's message, and a progress notification's
 *   title and messages (the notification viewer's linked text); an input box's prompt and
 *   validation message (quickInput's `renderQuickInputDescription`, opened with commands allowed).
 * - Rendered as Markdown: a `MarkdownString` (a tooltip, a hover); its command links run only
 *   when it is trusted, and it never is here (`untrustedMarkdown`).
 * - Plain text, codicons at most: an input box's or a quick pick's title and placeholder, a quick
 *   pick item's label, description and detail, a file dialog's title and button, the status bar's
 *   text and string tooltip, a status bar message, a window progress title, tree items' labels and
 *   descriptions, a tree view's message (a string), CodeLens titles, diagnostics.
 *
 * Whatever the sink does, the text goes through `forMessage` here (line breaks kept where the
 * sink shows lines): a sink that starts to render links in a later version is covered too, and
 * outside text (a server's id or error, a file name) needs no thought at each call.
 */
import * as vscode from 'vscode';
import { forMessage, forMessageLines } from '../../core/untrusted';

/** A question put to the person (tests read these, and answer or dismiss them in the window). */
export interface ShownPrompt {
  kind: 'inputBox' | 'quickPick' | 'openDialog' | 'saveDialog';
  title?: string;
  prompt?: string;
  /** The input box's text as it opens. */
  value?: string;
  placeHolder?: string;
  /** A quick pick's rows (their labels). */
  items?: string[];
}

export type ProgressReport = { message?: string; increment?: number };

function safeValidation(result: string | vscode.InputBoxValidationMessage | null | undefined): string | vscode.InputBoxValidationMessage | null | undefined {
  if (typeof result === 'string') return forMessage(result);
  if (result === null || result === undefined) return result;
  return { message: forMessage(result.message), severity: result.severity };
}

function safeItem<T extends vscode.QuickPickItem>(item: T): T {
  return {
    ...item,
    label: forMessage(item.label),
    ...(item.description === undefined ? {} : { description: forMessage(item.description) }),
    ...(item.detail === undefined ? {} : { detail: forMessage(item.detail) }),
  };
}

/** A status bar item whose text and tooltip are made safe as they are set. */
export class StatusItem implements vscode.Disposable {
  constructor(private readonly item: vscode.StatusBarItem) {}

  get text(): string {
    return this.item.text;
  }

  set text(text: string) {
    this.item.text = forMessage(text);
  }

  /** Lines, shown as such. */
  set tooltip(tooltip: string) {
    this.item.tooltip = forMessageLines(tooltip);
  }

  set name(name: string) {
    this.item.name = forMessage(name);
  }

  set command(command: string) {
    this.item.command = command;
  }

  show(): void {
    this.item.show();
  }

  hide(): void {
    this.item.hide();
  }

  dispose(): void {
    this.item.dispose();
  }
}

/** A quick pick (`window.createQuickPick`) whose texts are made safe as they are set. */
export class QuickPickBox<T extends vscode.QuickPickItem> implements vscode.Disposable {
  constructor(
    private readonly pick: vscode.QuickPick<T>,
    private readonly onShow: (prompt: ShownPrompt) => void,
  ) {}

  set title(title: string) {
    this.pick.title = forMessage(title);
  }

  set placeholder(placeholder: string) {
    this.pick.placeholder = forMessage(placeholder);
  }

  set items(items: readonly T[]) {
    this.pick.items = items.map(safeItem);
  }

  set ignoreFocusOut(value: boolean) {
    this.pick.ignoreFocusOut = value;
  }

  /** The text typed (the person's own). */
  get value(): string {
    return this.pick.value;
  }

  get selectedItems(): readonly T[] {
    return this.pick.selectedItems;
  }

  get onDidChangeValue(): vscode.Event<string> {
    return this.pick.onDidChangeValue;
  }

  get onDidAccept(): vscode.Event<void> {
    return this.pick.onDidAccept;
  }

  get onDidHide(): vscode.Event<void> {
    return this.pick.onDidHide;
  }

  get onDidTriggerItemButton(): vscode.Event<vscode.QuickPickItemButtonEvent<T>> {
    return this.pick.onDidTriggerItemButton;
  }

  show(): void {
    this.onShow({
      kind: 'quickPick',
      ...(this.pick.title === undefined ? {} : { title: this.pick.title }),
      ...(this.pick.placeholder === undefined ? {} : { placeHolder: this.pick.placeholder }),
      items: this.pick.items.map((i) => i.label),
    });
    this.pick.show();
  }

  hide(): void {
    this.pick.hide();
  }

  /**
   * Shows the pick and waits for its answer: what `accept` makes of an accept (`undefined` keeps
   * the pick open, a value closes it with that answer), or undefined when it is dismissed. The
   * pick and `listeners` are disposed when it hides.
   */
  answer<R>(accept: () => { value: R } | undefined, listeners: vscode.Disposable[] = []): Promise<R | undefined> {
    return new Promise<R | undefined>((resolve) => {
      const subscriptions = [
        ...listeners,
        this.onDidAccept(() => {
          const accepted = accept();
          if (accepted === undefined) return;
          resolve(accepted.value);
          this.hide();
        }),
        this.onDidHide(() => {
          resolve(undefined);
          for (const s of subscriptions) s.dispose();
          this.dispose();
        }),
      ];
      this.show();
    });
  }

  dispose(): void {
    this.pick.dispose();
  }
}

/** Markdown's punctuation backslash-escaped: outside text in a Markdown tooltip reads as it is, with no link or emphasis. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (c) => `\\${c}`);
}

/**
 * A `MarkdownString` whose command links never run (untrusted, no HTML: neither is ever turned
 * on), for tooltips and hovers. `markdown` is this extension's own text; outside text goes in
 * through `escapeMarkdown`.
 */
export function untrustedMarkdown(markdown: string, options: { icons?: boolean } = {}): vscode.MarkdownString {
  const shown = new vscode.MarkdownString(markdown, options.icons === true);
  // Said, not left to the default: its command links never run, and no HTML is rendered.
  shown.isTrusted = false;
  shown.supportHtml = false;
  return shown;
}

/** A tooltip: a bold first line, then one line each; every text outside text, escaped. */
export function markdownLines(title: string, lines: readonly string[]): vscode.MarkdownString {
  return untrustedMarkdown([`**${escapeMarkdown(forMessage(title))}**`, '', ...lines.map((line) => `${escapeMarkdown(forMessage(line))}  `)].join('\n'), { icons: true });
}

export class Ui {
  /** The last 50 questions put to the person, oldest first. */
  readonly prompts: ShownPrompt[] = [];

  private record(prompt: ShownPrompt): void {
    this.prompts.push(prompt);
    if (this.prompts.length > 50) this.prompts.shift();
  }

  /** `window.withProgress` (a notification, the window, or a view's bar), its title and every reported message made safe. */
  progress<R>(
    options: { location: vscode.ProgressLocation | { viewId: string }; title?: string; cancellable?: boolean },
    task: (progress: vscode.Progress<ProgressReport>, token: vscode.CancellationToken) => Thenable<R>,
  ): Thenable<R> {
    return vscode.window.withProgress({ ...options, ...(options.title === undefined ? {} : { title: forMessage(options.title) }) }, (progress, token) =>
      task({ report: (value) => progress.report(value.message === undefined ? value : { ...value, message: forMessage(value.message) }) }, token),
    );
  }

  /** `window.showInputBox`: its title, prompt, placeholder and validation messages made safe. */
  inputBox(options: vscode.InputBoxOptions): Thenable<string | undefined> {
    const validate = options.validateInput === undefined ? undefined : (value: string) => options.validateInput?.(value);
    const shown: vscode.InputBoxOptions = {
      ...options,
      ...(options.title === undefined ? {} : { title: forMessage(options.title) }),
      ...(options.prompt === undefined ? {} : { prompt: forMessage(options.prompt) }),
      ...(options.placeHolder === undefined ? {} : { placeHolder: forMessage(options.placeHolder) }),
      ...(validate === undefined ? {} : { validateInput: async (value: string) => safeValidation(await validate(value)) }),
    };
    this.record({
      kind: 'inputBox',
      ...(shown.title === undefined ? {} : { title: shown.title }),
      ...(shown.prompt === undefined ? {} : { prompt: shown.prompt }),
      ...(shown.value === undefined ? {} : { value: shown.value }),
      ...(shown.placeHolder === undefined ? {} : { placeHolder: shown.placeHolder }),
    });
    return vscode.window.showInputBox(shown);
  }

  /** `window.showQuickPick` (one item): every row's texts, the title and the placeholder made safe; resolves with the item given. */
  async quickPick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions & { canPickMany?: false }): Promise<T | undefined> {
    const shown = items.map(safeItem);
    const safeOptions: vscode.QuickPickOptions = {
      ...options,
      ...(options.title === undefined ? {} : { title: forMessage(options.title) }),
      ...(options.placeHolder === undefined ? {} : { placeHolder: forMessage(options.placeHolder) }),
    };
    this.record({
      kind: 'quickPick',
      ...(safeOptions.title === undefined ? {} : { title: safeOptions.title }),
      ...(safeOptions.placeHolder === undefined ? {} : { placeHolder: safeOptions.placeHolder }),
      items: shown.map((i) => i.label),
    });
    const picked = await vscode.window.showQuickPick(shown, safeOptions);
    return picked === undefined ? undefined : items[shown.indexOf(picked)];
  }

  /**
   * `window.createQuickPick`, for a pick whose rows change as the person types: its title,
   * placeholder and every row's texts are made safe as they are set. A row keeps its own fields
   * (the safe copy is a spread of it), so `selectedItems` and button events read them.
   */
  quickPickBox<T extends vscode.QuickPickItem>(): QuickPickBox<T> {
    return new QuickPickBox<T>(vscode.window.createQuickPick<T>(), (prompt) => this.record(prompt));
  }

  /** `window.showOpenDialog`, its title and button made safe. */
  openDialog(options: vscode.OpenDialogOptions): Thenable<vscode.Uri[] | undefined> {
    const shown: vscode.OpenDialogOptions = {
      ...options,
      ...(options.title === undefined ? {} : { title: forMessage(options.title) }),
      ...(options.openLabel === undefined ? {} : { openLabel: forMessage(options.openLabel) }),
    };
    this.record({ kind: 'openDialog', ...(shown.title === undefined ? {} : { title: shown.title }) });
    return vscode.window.showOpenDialog(shown);
  }

  /** `window.showSaveDialog`, its title and button made safe. */
  saveDialog(options: vscode.SaveDialogOptions): Thenable<vscode.Uri | undefined> {
    const shown: vscode.SaveDialogOptions = {
      ...options,
      ...(options.title === undefined ? {} : { title: forMessage(options.title) }),
      ...(options.saveLabel === undefined ? {} : { saveLabel: forMessage(options.saveLabel) }),
    };
    this.record({ kind: 'saveDialog', ...(shown.title === undefined ? {} : { title: shown.title }) });
    return vscode.window.showSaveDialog(shown);
  }

  /** `window.createStatusBarItem`, as an item whose text and tooltip are made safe. */
  statusItem(id: string, alignment: vscode.StatusBarAlignment, priority: number): StatusItem {
    return new StatusItem(vscode.window.createStatusBarItem(id, alignment, priority));
  }
}
