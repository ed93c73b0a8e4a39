import * as vscode from 'vscode';
import type { ValuesProblemCode } from '../../core/helm/diagnose';
import { PRODUCT_NAME, readConfig } from '../session/extensionConfig';
import { formatDuration } from '../../core/formatUnits';
import { untrustedMarkdown } from '../ui/ui';

const SOURCE = PRODUCT_NAME;
export const REGENERATE_COMMAND = 'docsAdmin.values.regenerate';

function isValuesCandidate(document: vscode.TextDocument): boolean {
  return (document.languageId === 'yaml' || /\.ya?ml$/i.test(document.fileName)) && document.getText().includes('staticExport');
}

/** The CodeLens above a bundleUrl: "Bundle link expires in 3h". */
function lensTitle(left: number | undefined): string {
  if (left === undefined) return vscode.l10n.t('The bundle link does not say when it expires');
  return left <= 0 ? vscode.l10n.t('Bundle link expired {0} ago', formatDuration(-left)) : vscode.l10n.t('Bundle link expires in {0}', formatDuration(left));
}

/** The hover's first line: "**Bundle link** expires in 3h (24/11/2026, 10:00:00)." */
function hoverHeadline(left: number | undefined, now: number): string {
  if (left === undefined) return vscode.l10n.t('**Bundle link**: the link does not say when it expires.');
  const at = new Date(now + left).toLocaleString();
  return left <= 0 ? vscode.l10n.t('**Bundle link** expired {0} ago ({1}).', formatDuration(-left), at) : vscode.l10n.t('**Bundle link** expires in {0} ({1}).', formatDuration(left), at);
}

/** The quick fix, and the CodeLens that runs it. */
const regenerateTitle = () => vscode.l10n.t('Regenerate bundle and update');

/**
 * Problems in the `staticExport` block of open YAML files (an expired or expiring `bundleUrl`,
 * a link that is not https:, enabled without a link), redrawn every minute as links age; a
 * hover and a CodeLens with the time left; the quick fix "Regenerate bundle and update".
 */
export class ValuesDiagnostics implements vscode.Disposable, vscode.HoverProvider, vscode.CodeLensProvider, vscode.CodeActionProvider {
  static readonly fixKind = vscode.CodeActionKind.QuickFix;
  private readonly collection = vscode.languages.createDiagnosticCollection('docsAdmin.values');
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly lensEmitter = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.lensEmitter.event;
  private timer: NodeJS.Timeout | undefined;
  /** What the quick fix and the CodeLens hand their command: made here, checked by identity (a link's JSON is never one). */
  private readonly tokens = new WeakMap<object, vscode.Uri>();
  /** The rules (and the YAML parser under them), loaded when the first values file shows up. */
  private rules: Promise<typeof import('../../core/helm/diagnose.js')> | undefined;

  constructor() {
    const selector: vscode.DocumentSelector = [{ language: 'yaml' }, { pattern: '**/*.{yaml,yml}' }];
    this.subscriptions.push(
      this.collection,
      this.lensEmitter,
      vscode.languages.registerHoverProvider(selector, this),
      vscode.languages.registerCodeLensProvider(selector, this),
      vscode.languages.registerCodeActionsProvider(selector, this, { providedCodeActionKinds: [ValuesDiagnostics.fixKind] }),
      vscode.workspace.onDidOpenTextDocument((d) => this.check(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.check(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => this.collection.delete(d.uri)),
    );
    for (const document of vscode.workspace.textDocuments) this.check(document);
    this.schedule();
  }

  /** Links age: every minute, the open files are checked again. */
  private schedule(): void {
    this.timer = setTimeout(() => {
      this.refresh();
      this.schedule();
    }, 60_000);
  }

  /** The values file a quick fix's or a CodeLens's token stands for; undefined for anything else. */
  fileOfToken(value: unknown): vscode.Uri | undefined {
    return typeof value === 'object' && value !== null ? this.tokens.get(value) : undefined;
  }

  private token(uri: vscode.Uri): object {
    const token = { valuesFile: uri.toString() };
    this.tokens.set(token, uri);
    return token;
  }

  refresh(): void {
    for (const document of vscode.workspace.textDocuments) this.check(document);
    this.lensEmitter.fire();
  }

  private load(): Promise<typeof import('../../core/helm/diagnose.js')> {
    this.rules ??= import('../../core/helm/diagnose.js');
    return this.rules;
  }

  check(document: vscode.TextDocument): void {
    if (!isValuesCandidate(document)) {
      this.collection.delete(document.uri);
      return;
    }
    void this.load().then(({ diagnoseValues }) => this.report(document, diagnoseValues));
  }

  private report(document: vscode.TextDocument, diagnoseValues: (typeof import('../../core/helm/diagnose.js'))['diagnoseValues']): void {
    if (document.isClosed) return;
    const warnMs = readConfig().valuesWarnWithinMs;
    const problems = diagnoseValues(document.getText(), Date.now(), warnMs);
    this.collection.set(
      document.uri,
      problems.map((p) => {
        const d = new vscode.Diagnostic(new vscode.Range(document.positionAt(p.start), document.positionAt(p.end)), p.message, p.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
        d.source = SOURCE;
        d.code = p.code;
        return d;
      }),
    );
  }

  async provideHover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    if (!isValuesCandidate(document)) return undefined;
    const { bundleUrlInfo } = await this.load();
    const info = bundleUrlInfo(document.getText(), Date.now());
    if (info === undefined) return undefined;
    const range = new vscode.Range(document.positionAt(info.start), document.positionAt(info.end));
    if (!range.contains(position)) return undefined;
    const text = untrustedMarkdown(`${hoverHeadline(info.timeLeftMs, Date.now())}\n\n${vscode.l10n.t('The deployment downloads the bundle when a pod starts: after the link expires, a restarted pod cannot start.')}`);
    return new vscode.Hover(text, range);
  }

  async provideCodeLenses(document: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    if (!isValuesCandidate(document)) return [];
    const { bundleUrlInfo } = await this.load();
    const info = bundleUrlInfo(document.getText(), Date.now());
    if (info === undefined) return [];
    const range = new vscode.Range(document.positionAt(info.start), document.positionAt(info.start));
    const expired = info.timeLeftMs !== undefined && info.timeLeftMs <= 0;
    return [
      new vscode.CodeLens(range, { title: `${expired ? '$(error)' : '$(clock)'} ${lensTitle(info.timeLeftMs)}`, command: '' }),
      new vscode.CodeLens(range, { title: regenerateTitle(), command: REGENERATE_COMMAND, arguments: [this.token(document.uri)] }),
    ];
  }

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const ours = context.diagnostics.filter((d) => d.source === SOURCE && (['expired', 'expiring', 'missingLink', 'insecure', 'invalidLink'] as ValuesProblemCode[]).includes(d.code as ValuesProblemCode));
    if (ours.length === 0) return [];
    const fix = new vscode.CodeAction(regenerateTitle(), ValuesDiagnostics.fixKind);
    fix.diagnostics = ours;
    fix.isPreferred = true;
    fix.command = { title: regenerateTitle(), command: REGENERATE_COMMAND, arguments: [this.token(document.uri)] };
    return [fix];
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const s of this.subscriptions) s.dispose();
  }
}
