import * as vscode from 'vscode';
import type { KeyStore } from './keys';
import type { Session } from './session';

/** When a publish last went all the way through (epoch ms). */
const PUBLISHED_AT = 'docsAdmin.setup.publishedAt';

/** What the Getting Started walkthrough's steps wait for: each is true once that step is really done. */
export interface SetupState {
  keySet: boolean;
  projectSet: boolean;
  agentJobTracked: boolean;
  exportStarted: boolean;
  published: boolean;
}

/**
 * Sets the `docsAdmin.setup.*` context keys the walkthrough's steps complete on
 * (`completionEvents: onContext:…`), from the session's real state: a stored key, a base URL
 * and project id, a tracked agent job, a tracked export, a finished publish. A key is set only
 * when its value changes.
 */
export class SetupProgress implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[];
  private shown: Partial<SetupState> = {};
  private pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly session: Session,
    private readonly keys: KeyStore,
    private readonly state: vscode.Memento,
  ) {
    const update = () => void this.update();
    this.subscriptions = [session.onDidChangeState(update), session.onDidChangeJobs(update), keys.onDidChange(update)];
  }

  /** Recomputes the keys (serialised: reading the key is asynchronous). */
  update(): Promise<void> {
    this.pending = this.pending.then(() => this.apply()).catch(() => undefined);
    return this.pending;
  }

  /** Records that a publish went all the way through (the walkthrough's last step). */
  async markPublished(): Promise<void> {
    await this.state.update(PUBLISHED_AT, Date.now());
    await this.update();
  }

  /** When a publish last went all the way through, if one ever did. */
  get lastPublishedAt(): number | undefined {
    return this.state.get<number>(PUBLISHED_AT);
  }

  /** The state as last computed, for tests. */
  get current(): Partial<SetupState> {
    return { ...this.shown };
  }

  private async apply(): Promise<void> {
    const env = this.session.environment;
    const jobs = this.session.service?.list() ?? [];
    let keySet = false;
    try {
      keySet = (await this.keys.get(env.id)) !== undefined;
    } catch {
      // The keychain failed: the session shows why; the step stays open.
    }
    const next: SetupState = {
      keySet,
      projectSet: env.baseUrl !== '' && env.projectId !== '' && this.session.state !== 'noProject',
      agentJobTracked: jobs.some((j) => j.kind === 'agent'),
      exportStarted: jobs.some((j) => j.kind === 'export'),
      published: this.lastPublishedAt !== undefined,
    };
    for (const [name, value] of Object.entries(next) as [keyof SetupState, boolean][]) {
      if (this.shown[name] === value) continue;
      this.shown[name] = value;
      await vscode.commands.executeCommand('setContext', `docsAdmin.setup.${name}`, value);
    }
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
