import * as vscode from 'vscode';
import type { KeyStore } from '../session/keys';
import type { Session } from '../session/environmentSession';

/** When a publish last went all the way through (epoch ms). */
const PUBLISHED_AT = 'docsAdmin.setup.publishedAt';
/** When a job was first created from a prompt here (epoch ms). */
const ASKED_AT = 'docsAdmin.setup.agentAskedAt';
/** When the Readers view first showed reader data here (epoch ms). */
const READERS_AT = 'docsAdmin.setup.readersSeenAt';

/** What the Getting Started walkthrough's steps wait for: each is true once that step is really done. */
export interface SetupState {
  keySet: boolean;
  projectSet: boolean;
  agentJobTracked: boolean;
  agentAsked: boolean;
  readersSeen: boolean;
  exportStarted: boolean;
  /** A deployment or preview started or tracked. */
  deployed: boolean;
  published: boolean;
}

/** When, after activation, the steps done so far are first offered to the walkthrough. */
const FIRST_PULSE_MS = 5_000;

/**
 * Sets the `docsAdmin.setup.*` context keys the walkthrough's steps complete on
 * (`completionEvents: onContext:…`), from the session's real state: a stored key, a base URL
 * and project id, a tracked agent job, an agent job created from a prompt, a tracked export, a tracked deployment or preview, a finished publish. A key is set only
 * when its value changes.
 *
 * Every step's expression also needs `docsAdmin.setup.live`, which is false except for a
 * moment (a pulse). VS Code (1.139) never completes a step whose `onContext` expression is
 * already true when the walkthrough is registered: it records the event as seen without
 * completing the step, and ignores it from then on. And it registers the walkthrough late: at
 * start-up in some sessions, only when the walkthrough is first opened in others; by then a
 * person who had a key and a project before may have done half the steps. With `live` false at
 * rest, every expression is false whenever the walkthrough is registered; a pulse (true, then
 * false again) then completes the steps that are done. Pulses come when a step's state turns
 * true, when tabs change (opening the walkthrough is one), when the window regains focus, and
 * once 5 s after activation. A completed step stays completed when `live` falls back. The UI
 * check asserts the ticks on the rendered page.
 */
export class SetupProgress implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[];
  private shown: Partial<SetupState> = {};
  private pending: Promise<void> = Promise.resolve();

  private readonly firstPulse: NodeJS.Timeout;

  constructor(
    private readonly session: Session,
    private readonly keys: KeyStore,
    private readonly state: vscode.Memento,
  ) {
    const update = () => void this.update();
    const pulse = () => void this.pulse();
    this.subscriptions = [
      session.onDidChangeState(update),
      session.onDidChangeJobs(update),
      keys.onDidChange(update),
      vscode.window.tabGroups.onDidChangeTabs(pulse),
      vscode.window.onDidChangeWindowState((s) => s.focused && pulse()),
    ];
    this.firstPulse = setTimeout(pulse, FIRST_PULSE_MS);
  }

  /** Offers the steps done so far to the walkthrough (see the class comment). */
  pulse(): Promise<void> {
    this.pending = this.pending.then(() => this.flashLive()).catch(() => undefined);
    return this.pending;
  }

  private async flashLive(): Promise<void> {
    await vscode.commands.executeCommand('setContext', 'docsAdmin.setup.live', true);
    await vscode.commands.executeCommand('setContext', 'docsAdmin.setup.live', false);
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

  /** Records that an agent job was created from a prompt (the walkthrough's "Ask the agent" step). */
  async markAgentAsked(): Promise<void> {
    if (this.state.get<number>(ASKED_AT) === undefined) await this.state.update(ASKED_AT, Date.now());
    await this.update();
  }

  /** Records that the Readers view showed reader data (the walkthrough's "See what readers say" step). */
  async markReadersSeen(): Promise<void> {
    if (this.state.get<number>(READERS_AT) !== undefined) return;
    await this.state.update(READERS_AT, Date.now());
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
      agentAsked: this.state.get<number>(ASKED_AT) !== undefined,
      readersSeen: this.state.get<number>(READERS_AT) !== undefined,
      exportStarted: jobs.some((j) => j.kind === 'export'),
      deployed: jobs.some((j) => j.kind === 'deployment'),
      published: this.lastPublishedAt !== undefined,
    };
    let done = false;
    for (const [name, value] of Object.entries(next) as [keyof SetupState, boolean][]) {
      if (this.shown[name] === value) continue;
      this.shown[name] = value;
      done ||= value;
      await vscode.commands.executeCommand('setContext', `docsAdmin.setup.${name}`, value);
    }
    if (done) await this.flashLive();
  }

  dispose(): void {
    clearTimeout(this.firstPulse);
    for (const s of this.subscriptions) s.dispose();
  }
}
