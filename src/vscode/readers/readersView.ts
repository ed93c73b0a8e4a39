/**
 * The Readers view itself: its tree, the period and the time of the data beside its title, a
 * message for what the person should know (loading, waiting out a rate limit, a failure and what
 * to do, a list cut at its cap, no docs.json in the workspace), and the first need when it is
 * shown. Reveals a page's row for the CodeLens.
 */
import * as vscode from 'vscode';
import { forMessage } from '../../core/untrusted';
import type { ReaderNode } from './nodes';
import type { ReadersModel } from './readersModel';
import { ReadersTreeProvider } from './readersTree';

export class ReadersView implements vscode.Disposable {
  readonly tree: ReadersTreeProvider;
  readonly view: vscode.TreeView<ReaderNode>;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly model: ReadersModel,
    /** Told when the view first shows reader data (the walkthrough's step). */
    private readonly onSeen: () => void = () => undefined,
    itemId: (id: string) => string = (id) => id,
  ) {
    this.tree = new ReadersTreeProvider(model, itemId);
    this.view = vscode.window.createTreeView('docsAdmin.readersView', { treeDataProvider: this.tree, showCollapseAll: true });
    this.subscriptions = [
      this.tree,
      this.view,
      this.view.onDidChangeVisibility((e) => {
        if (e.visible) model.need();
        this.show();
      }),
      model.onDidChange(() => this.show()),
    ];
    if (this.view.visible) model.need();
    this.show();
  }

  /** The title's description and the view's message, from the model's state. */
  show(): void {
    const model = this.model;
    const period = vscode.l10n.t('Last {0} days', model.period);
    const site = model.site();
    const state = model.state();
    if (this.view.visible && site !== undefined) this.onSeen();
    const at = site === undefined ? undefined : new Date(site.fetchedAt).toLocaleTimeString(vscode.env.language, { hour: '2-digit', minute: '2-digit' });
    this.view.description = at === undefined ? period : vscode.l10n.t('{0} · as of {1}', period, at);
    if (!model.settings.enabled || !model.usable) {
      this.view.message = '';
      return;
    }
    const notes: string[] = [];
    const waiting = model.waitingUntil;
    if (state.kind === 'loading') {
      notes.push(waiting === undefined ? vscode.l10n.t('Loading what readers did and said in the last {0} days…', model.period) : vscode.l10n.t('The server is rate limiting requests (429): waiting {0} s, then loading again.', Math.ceil((waiting - Date.now()) / 1000)));
    }
    if (state.kind === 'failed') notes.push(vscode.l10n.t('Could not load the reader analytics: {0} Refresh to try again.', state.error.message));
    if (site !== undefined) {
      const failed = Object.entries(site.failures).map(([kind, error]) => `${kind}: ${error.message}`);
      if (failed.length > 0) notes.push(vscode.l10n.t('Some lists could not be loaded ({0}); the rest is shown.', failed.join('; ')));
      const cut = (['feedback', 'conversations', 'searches', 'views'] as const).filter((k) => site.truncated[k] === true);
      if (cut.length > 0) notes.push(vscode.l10n.t('Only the first {0} rows of some lists were read ({1}): docsAdmin.readers.maxItems raises the cap.', model.settings.maxItems, cut.join(', ')));
      if (model.sites.current !== undefined && model.sites.current.length === 0) notes.push(vscode.l10n.t('No docs.json in this workspace: no path can be matched to a file, so every page is listed under "Paths no file serves". Open the folder that holds your docs.'));
      for (const root of model.sites.current ?? []) if (root.problem !== undefined) notes.push(root.problem);
    }
    // The view renders its message as text; whatever a server's error quotes stays unclickable.
    this.view.message = notes.map(forMessage).join(' ');
  }

  /** Shows a page's row, expanded (the CodeLens's click), opening the view if need be. */
  async revealPage(key: string): Promise<boolean> {
    const page = this.model.index()?.byKey.get(key);
    if (page === undefined) return false;
    const node = this.tree.nodes.get({ type: 'page', key, group: page.uri === undefined ? 'unmatched' : 'pages' });
    await this.view.reveal(node, { select: true, focus: true, expand: true });
    return true;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
