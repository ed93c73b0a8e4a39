import * as vscode from 'vscode';
import type { KeyStore } from '../session/keys';
import type { Session } from '../session/environmentSession';

/**
 * The context keys the command palette's and the views' menus read (package.json,
 * `menus.commandPalette` and `view/title`), one per need, so a command shows where it can work:
 * - `docsAdmin.configured`: the active environment has its base URL, project id and key (the
 *   server may still refuse the key or be out of reach: the views say so, and the commands too);
 * - `docsAdmin.keySet`: a key is kept for the active environment (Clear Admin Key);
 * - `docsAdmin.completedExport`: a completed static export is tracked (Download Bundle…, Update
 *   Helm Values…, Extract Bundle…);
 * - `docsAdmin.bundleDownloaded` / `docsAdmin.bundleExtracted`: a tracked export's bundle is on
 *   this machine, as an archive / extracted (Extract Bundle…, Serve Bundle Locally);
 * - `docsAdmin.deploymentTracked`: a deployment or preview is tracked (Show Deployment Logs).
 * The rest of the needs have their keys already: `docsAdmin.gitAvailable` (git/gitAccess.ts),
 * `docsAdmin.previewRunning` (serve/servedBundles.ts), `docsAdmin.composerActive` (agent/composer.ts).
 */
export interface PaletteNeeds {
  configured: boolean;
  keySet: boolean;
  completedExport: boolean;
  bundleDownloaded: boolean;
  bundleExtracted: boolean;
  deploymentTracked: boolean;
}

export class PaletteContext implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[];
  private shown: Partial<PaletteNeeds> = {};
  private keySet = false;
  private pending: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly session: Session,
    private readonly keys: KeyStore,
  ) {
    this.subscriptions = [
      // The key is read again only when it or the environment may have changed, not on every poll.
      session.onDidChangeState(() => void this.update(true)),
      keys.onDidChange(() => void this.update(true)),
      session.onDidChangeJobs(() => void this.update(false)),
    ];
    void this.update(true);
  }

  /**
   * Recomputes the keys (serialised: reading the key is asynchronous); resolves once the window has
   * them. The next reading does not wait for the window: each key's round trip to it can take a
   * while on a busy window (a reload's first seconds), and the last value sent is the one it keeps.
   */
  update(readKey = true): Promise<void> {
    const applied = this.pending.then(() => this.apply(readKey));
    this.pending = applied.catch(() => undefined);
    return applied.then((sent) => Promise.all(sent)).then(
      () => undefined,
      () => undefined,
    );
  }

  /** The keys as last set, for tests. */
  get current(): Partial<PaletteNeeds> {
    return { ...this.shown };
  }

  /** Sends the keys that changed; answers their round trips to the window. */
  private async apply(readKey: boolean): Promise<Thenable<unknown>[]> {
    if (readKey) {
      try {
        this.keySet = (await this.keys.get(this.session.environment.id)) !== undefined;
      } catch {
        // The keychain failed: the session says why; Clear Admin Key stays as it was.
      }
    }
    const state = this.session.state;
    const jobs = this.session.service?.list() ?? [];
    const shelf = this.session.shelf;
    const exports = jobs.filter((j) => j.kind === 'export');
    const next: PaletteNeeds = {
      configured: state !== 'noKey' && state !== 'noProject',
      keySet: this.keySet,
      completedExport: exports.some((j) => j.snapshot?.status === 'completed'),
      bundleDownloaded: exports.some((j) => shelf?.get(j.id)?.archive !== undefined),
      bundleExtracted: exports.some((j) => shelf?.get(j.id)?.folder !== undefined),
      deploymentTracked: jobs.some((j) => j.kind === 'deployment'),
    };
    const sent: Thenable<unknown>[] = [];
    for (const [name, value] of Object.entries(next) as [keyof PaletteNeeds, boolean][]) {
      if (this.shown[name] === value) continue;
      this.shown[name] = value;
      sent.push(vscode.commands.executeCommand('setContext', `docsAdmin.${name}`, value));
    }
    return sent;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
