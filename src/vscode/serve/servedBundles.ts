import * as vscode from 'vscode';
import type { Logger } from '../../core/log';
import { startPreviewServer, type PreviewServer } from '../../core/bundle/serve/bundleServer';
import type { StatusItem, Ui } from '../ui/ui';

interface Running {
  server: PreviewServer;
  label: string;
  openIn: 'simpleBrowser' | 'external';
}

/**
 * The local previews of extracted bundles: one loopback server per folder, a status bar item
 * while any runs (click to stop), stopped when its Simple Browser tab closes, on the
 * Stop command, and when the extension deactivates.
 */
export class PreviewManager implements vscode.Disposable {
  private readonly running = new Map<string, Running>();
  private readonly item: StatusItem;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly log: Logger,
    ui: Ui,
  ) {
    this.item = ui.statusItem('docsAdmin.preview', vscode.StatusBarAlignment.Left, 49);
    this.item.name = vscode.l10n.t('Docs Admin: bundle served locally');
    this.item.command = 'docsAdmin.preview.stop';
    this.subscriptions.push(vscode.window.tabGroups.onDidChangeTabs((e) => this.tabsChanged(e)));
  }

  /** The folders being served, with their URLs (for tests and the stop picker). */
  list(): { folder: string; url: string; label: string }[] {
    return [...this.running.entries()].map(([folder, r]) => ({ folder, url: r.server.url, label: r.label }));
  }

  /** Serves the folder (or reuses its server) and opens it where the settings say. */
  async open(folder: string, label: string, openIn: 'simpleBrowser' | 'external'): Promise<string> {
    let running = this.running.get(folder);
    if (running === undefined) {
      const server = await startPreviewServer({ root: folder, log: this.log });
      running = { server, label, openIn };
      this.running.set(folder, running);
      this.log.info(`Previewing ${folder} at ${server.url}`);
      this.update();
    }
    running.openIn = openIn;
    const external = await vscode.env.asExternalUri(vscode.Uri.parse(running.server.url));
    if (openIn === 'external') {
      // eslint-disable-next-line no-restricted-properties -- the preview's own loopback server (asExternalUri maps it for a remote window)
      await vscode.env.openExternal(external);
    } else {
      await vscode.commands.executeCommand('simpleBrowser.show', external.toString(true));
    }
    return running.server.url;
  }

  async stop(folder?: string): Promise<number> {
    const folders = folder === undefined ? [...this.running.keys()] : [folder];
    let stopped = 0;
    for (const f of folders) {
      const running = this.running.get(f);
      if (running === undefined) continue;
      this.running.delete(f);
      await running.server.close();
      this.log.info(`Stopped the preview of ${f}.`);
      stopped++;
    }
    this.update();
    return stopped;
  }

  /** The last Simple Browser tab closed: its previews are no longer seen. */
  private tabsChanged(e: vscode.TabChangeEvent): void {
    const isSimpleBrowser = (tab: vscode.Tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.includes('simpleBrowser');
    if (!e.closed.some(isSimpleBrowser)) return;
    const open = vscode.window.tabGroups.all.some((group) => group.tabs.some(isSimpleBrowser));
    if (open) return;
    for (const [folder, running] of this.running) {
      if (running.openIn === 'simpleBrowser') void this.stop(folder);
    }
  }

  private update(): void {
    const count = this.running.size;
    void vscode.commands.executeCommand('setContext', 'docsAdmin.previewRunning', count > 0);
    if (count === 0) {
      this.item.hide();
      return;
    }
    const first = this.list()[0];
    this.item.text = `$(open-preview) ${count === 1 && first !== undefined ? vscode.l10n.t('Preview: {0}', first.label) : vscode.l10n.t('{0} previews', count)}`;
    this.item.tooltip = [...this.list().map((r) => `${r.label}: ${r.url} (${r.folder})`), vscode.l10n.t('Click to stop.')].join('\n');
    this.item.show();
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.item.dispose();
    void this.stop();
  }
}
