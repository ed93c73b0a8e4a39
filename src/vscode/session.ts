import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import * as vscode from 'vscode';
import type { AdminApiClient } from '../core/api/client';
import type { BundleLinks } from '../core/bundle/links/linkCache';
import type { BundleShelf } from '../core/bundle/shelf/shelf';
import { systemClock } from '../core/jobs/clock';
import { isTerminal, jobKey, type JobKey } from '../core/jobs/trackedJob';
import type { JobsService, ServiceState, Transition } from '../core/jobs/service';
import { checkBaseUrl } from '../core/links';
import type { Logger } from '../core/log';
import type { Network } from '../core/net/network';
import { CA_SETTING, networkHints, readConfig, readNetworkSettings } from './config';
import { activeEnvironment, type Environment } from './environments';
import type { Messages } from './messages';
import type { KeyStore } from './keys';

export type SessionState = ServiceState['kind'] | 'noProject';

/**
 * The active environment, and its client and jobs. Rebuilt when the environment, its
 * settings or its key change; the views, status bar and commands read it.
 */
export class Session implements vscode.Disposable {
  private current:
    | { env: Environment; client: AdminApiClient; network: Network; service: JobsService; links: BundleLinks; shelf: BundleShelf; listeners: { dispose(): void }[] }
    | undefined;
  private env: Environment;
  private stateValue: SessionState = 'noKey';
  private problem: string | undefined;
  private readonly onJobsEmitter = new vscode.EventEmitter<JobKey[] | undefined>();
  private readonly onStateEmitter = new vscode.EventEmitter<SessionState>();
  private readonly onTransitionEmitter = new vscode.EventEmitter<Transition>();
  /** Rows that changed; `undefined` for all of them. */
  readonly onDidChangeJobs = this.onJobsEmitter.event;
  readonly onDidChangeState = this.onStateEmitter.event;
  readonly onDidTransition = this.onTransitionEmitter.event;
  private building: Promise<void> = Promise.resolve();
  /** Whether a Docs Admin view is visible (the views say so). */
  private viewVisible = false;
  private linkTick: NodeJS.Timeout | undefined;
  /** The network problems last shown, so a rebuild does not show them again. */
  private shownNetworkProblems = '';
  /** The key-origin mismatch last asked about, so a rebuild does not ask again. */
  private askedOrigin: string | undefined;
  /**
   * Other windows share globalState: their writes reach this window's copy, with no event. So
   * when this window is focused again, it reads what they tracked, stopped or downloaded.
   */
  private readonly focusListener = vscode.window.onDidChangeWindowState((state) => {
    if (!state.focused) return;
    this.current?.service.reload();
    this.current?.shelf.reload();
  });

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly keys: KeyStore,
    private readonly log: Logger,
    private readonly messages: Messages,
  ) {
    this.env = activeEnvironment(context.globalState);
  }

  get environment(): Environment {
    return this.env;
  }

  get state(): SessionState {
    return this.stateValue;
  }

  /** Why the session is not usable, for a view message. */
  get stateMessage(): string | undefined {
    return this.problem;
  }

  get service(): JobsService | undefined {
    return this.current?.service;
  }

  get client(): AdminApiClient | undefined {
    return this.current?.client;
  }

  /** The proxy and certificate settings in effect (downloads use them too). */
  get network(): Network | undefined {
    return this.current?.network;
  }

  /** Bundle links generated in this window, per export job id, with when each expires. */
  get links(): BundleLinks | undefined {
    return this.current?.links;
  }

  /** Downloaded archives and extracted folders, per export job id (persisted). */
  get shelf(): BundleShelf | undefined {
    return this.current?.shelf;
  }

  /**
   * A Docs Admin view was shown or hidden. The jobs are asked about only once something shows
   * them: a visible view, or the status bar when it has a job to show (see `updateDemand`).
   */
  setViewVisible(visible: boolean): void {
    this.viewVisible = visible;
    this.updateDemand();
    // A running export's row moves while a view shows it (the scheduler reads it every few seconds).
    this.current?.service.setWatched(visible);
  }

  /**
   * Demand for the jobs' data: a visible view, or a tracked job that is not terminal (the status
   * bar shows each such job's status and progress, so it needs them current). Until then, no
   * API request: a window that starts with a key and only ended jobs asks nothing.
   */
  private updateDemand(): void {
    const service = this.current?.service;
    if (service === undefined || service.isDemanded) return;
    if (this.viewVisible || service.list().some((job) => !isTerminal(job))) service.setDemand(true);
  }

  /** Rebuilds for the active environment; calls are serialised. */
  rebuild(): Promise<void> {
    this.building = this.building.then(() => this.build()).catch((error: unknown) => {
      this.log.error(`Could not set up the environment: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    });
    return this.building;
  }

  private teardown(): void {
    if (this.current === undefined) return;
    for (const l of this.current.listeners) l.dispose();
    this.current.service.dispose();
    void this.current.client.close();
    this.current = undefined;
    clearTimeout(this.linkTick);
  }

  private async build(): Promise<void> {
    this.teardown();
    const env = activeEnvironment(this.context.globalState);
    this.env = env;
    const checked = checkBaseUrl(env.baseUrl);
    if (env.baseUrl === '' || env.projectId === '' || !checked.ok) {
      this.problem = env.baseUrl !== '' && !checked.ok ? checked.reason : undefined;
      if (this.problem !== undefined) this.log.warn(`${env.name}: ${this.problem}`);
      this.setState('noProject');
      this.onJobsEmitter.fire(undefined);
      return;
    }
    // Loaded here, not at activation: the HTTP client and the validation library are the
    // heaviest part of the bundle, and activation must stay fast.
    const [{ AdminApiClient }, { JobRegistry }, { JobsService }, { BundleLinks }, { BundleShelf }] = await Promise.all([
      import('../core/api/client.js'),
      import('../core/jobs/registry.js'),
      import('../core/jobs/service.js'),
      import('../core/bundle/links/linkCache.js'),
      import('../core/bundle/shelf/shelf.js'),
    ]);
    const network = await this.buildNetwork();
    if (network === undefined) {
      this.setState('unreachable');
      this.onJobsEmitter.fire(undefined);
      return;
    }
    const config = readConfig();
    const origin = new URL(checked.baseUrl).origin;
    const client = new AdminApiClient({
      baseUrl: checked.baseUrl,
      projectId: env.projectId,
      network,
      // Only to the server the key was set for: a base URL changed since gets nothing.
      getKey: async () => {
        const stored = await this.keys.read(env.id);
        return stored?.origin === origin ? stored.key : undefined;
      },
      log: this.log,
      userAgent: `docs-admin-vscode/${String((this.context.extension.packageJSON as { version?: string }).version ?? '0')}`,
    });
    const service = new JobsService({
      client,
      registry: new JobRegistry(this.context.globalState, `docsAdmin.jobs.${env.id}`, this.log),
      clock: systemClock,
      isFocused: () => vscode.window.state.focused,
      isWatched: () => this.viewVisible,
      log: this.log,
      floorMs: config.minIntervalMs,
      ceilingMs: config.maxIntervalMs,
      demanded: this.viewVisible,
    });
    const links = new BundleLinks((jobId, options) => client.generateBundle(jobId, options));
    const shelf = new BundleShelf(this.context.globalState, `docsAdmin.bundles.${env.id}`, this.log);
    const listeners = [
      shelf.onDidChange((jobId) => this.onJobsEmitter.fire([jobKey({ kind: 'export', id: jobId })])),
      links.onDidChange((jobId) => {
        this.onJobsEmitter.fire([jobKey({ kind: 'export', id: jobId })]);
        this.scheduleLinkTick();
      }),
      service.onDidChangeJobs((keys) => {
        this.updateDemand();
        this.onJobsEmitter.fire(keys);
      }),
      service.onDidChangeState((state) => {
        this.problem = 'message' in state ? state.message : undefined;
        this.setState(state.kind);
      }),
      service.onDidTransition((t) => {
        // The server's own words, whole, for the log only (the notification shows them made safe).
        if (t.to === 'failed') this.log.info(`${t.key} failed; the server says: ${JSON.stringify((t.job.snapshot !== undefined && 'error' in t.job.snapshot ? t.job.snapshot.error : undefined) ?? null)}`);
        this.onTransitionEmitter.fire(t);
      }),
    ];
    this.current = { env, client, network, service, links, shelf, listeners };
    this.problem = undefined;
    let key: string | undefined;
    try {
      key = await this.keyFor(env, origin);
    } catch (error) {
      this.problem = error instanceof Error ? error.message : String(error);
      this.log.error(this.problem);
    }
    const held = this.problem;
    service.keyChanged(key !== undefined);
    // The service's own state has no message for a key held back: keep ours.
    this.problem ??= held;
    this.updateDemand();
    this.setState(key === undefined ? 'noKey' : 'ok');
    this.onJobsEmitter.fire(undefined);
  }

  /**
   * The environment's key, when it was set for the server at `origin`. A key kept without its
   * server (stored by an earlier version, which kept no origin) or set for another server is not
   * sent, and never bound on its own: the view says so, and a warning, naming the server, offers
   * to set the key again for it or to send this key there.
   */
  private async keyFor(env: Environment, origin: string): Promise<string | undefined> {
    const stored = await this.keys.read(env.id);
    if (stored === undefined) return undefined;
    if (stored.origin === origin) return stored.key;
    if (stored.origin === undefined) {
      this.log.warn(`${env.name}: the admin key was stored without the server it is for; the base URL is ${origin}. The key is not sent there until confirmed.`);
      this.problem = vscode.l10n.t('The admin key of "{0}" was stored without the server it is for: nothing was sent to {1}. Confirm it is for {1} in the warning, or set the key again.', env.name, origin);
    } else {
      this.log.warn(`${env.name}: the admin key was set for ${stored.origin}; the base URL is now ${origin}. The key is not sent there.`);
      this.problem = vscode.l10n.t('The admin key of "{0}" was set for {1}, not for {2}: nothing was sent. Set the key again for this server, or confirm it in the warning.', env.name, stored.origin, origin);
    }
    this.askAboutOrigin(env, stored.key, stored.origin, origin, this.problem);
    return undefined;
  }

  /** The warning that lets the person bind the key to `origin`, by its name (once per case). */
  private askAboutOrigin(env: Environment, key: string, from: string | undefined, origin: string, problem: string): void {
    const asked = `${env.id} ${from ?? '-'} ${origin}`;
    if (this.askedOrigin === asked) return;
    this.askedOrigin = asked;
    const setKey = vscode.l10n.t('Set Admin Key for {0}', origin);
    const useIt = vscode.l10n.t('Send the Key to {0}', origin);
    void this.messages.warn(problem, setKey, useIt).then(async (choice) => {
      // Only for the server named in the button: the base URL may have moved on since.
      const now = checkBaseUrl(this.env.baseUrl);
      if (this.env.id !== env.id || !now.ok || new URL(now.baseUrl).origin !== origin) return;
      if (choice === setKey) await vscode.commands.executeCommand('docsAdmin.key.set');
      if (choice === useIt) {
        await this.keys.set(env.id, key, origin);
        await this.rebuild();
      }
    });
  }

  /**
   * The proxy and certificates from VS Code's `http.*` settings, the environment and
   * `docsAdmin.network.extraCaCertificates`. A CA file that cannot be used is named in a
   * warning (the others still count); a proxy that cannot be used stops the session, with
   * the reason as its message.
   */
  private async buildNetwork(): Promise<Network | undefined> {
    const [{ Network, NetworkConfigError }, { loadCaFiles }] = await Promise.all([import('../core/net/network.js'), import('../core/net/caFiles.js')]);
    const settings = readNetworkSettings();
    const relative = settings.extraCaFiles.filter((p) => !isAbsolute(p));
    const ca = await loadCaFiles(settings.extraCaFiles.filter((p) => isAbsolute(p)), CA_SETTING);
    const problems = [...relative.map((p) => vscode.l10n.t('The CA certificate file "{0}" (in {1}) was not used: give its full path.', p, CA_SETTING)), ...ca.problems];
    let network: Network | undefined;
    try {
      network = new Network(
        {
          proxy: settings.proxy,
          noProxy: settings.noProxy,
          proxyAuthorization: settings.proxyAuthorization,
          strictSSL: settings.strictSSL,
          extraCa: ca.certificates,
          systemCa: settings.systemCertificates,
          hints: networkHints(),
        },
        { env: process.env, readFile: (path) => readFileSync(path, 'utf8') },
      );
      this.log.info(`Network: ${network.describe()}.`);
    } catch (error) {
      if (!(error instanceof NetworkConfigError)) throw error;
      this.problem = error.message;
      problems.push(error.message);
    }
    for (const problem of problems) this.log.warn(problem);
    const shown = problems.join('\n');
    if (shown !== this.shownNetworkProblems && problems.length > 0) {
      const openSettings = vscode.l10n.t('Open Settings');
      void this.messages.warn(problems.join(' '), openSettings).then((choice) => {
        if (choice === openSettings) void vscode.commands.executeCommand('workbench.action.openSettings', network === undefined ? 'http.proxy' : CA_SETTING);
      });
    }
    this.shownNetworkProblems = shown;
    return network;
  }

  /**
   * Rows that show a link's time left are redrawn every 30 s, and the moment a link expires,
   * so "link expired" appears without anyone clicking.
   */
  private scheduleLinkTick(): void {
    clearTimeout(this.linkTick);
    const links = this.current?.links;
    const ids = links?.jobIds() ?? [];
    if (links === undefined || ids.length === 0) return;
    const lefts = ids.map((id) => links.timeLeft(links.peek(id)!)).filter((l): l is number => l !== undefined && l > 0);
    // Every link expired (or says nothing): the rows already say so; nothing left to count down.
    if (lefts.length === 0) return;
    const wait = Math.min(30_000, ...lefts.map((l) => l + 50));
    this.linkTick = setTimeout(() => {
      this.onJobsEmitter.fire(ids.map((id) => jobKey({ kind: 'export', id })));
      this.scheduleLinkTick();
    }, wait);
  }

  private setState(state: SessionState): void {
    this.stateValue = state;
    void vscode.commands.executeCommand('setContext', 'docsAdmin.state', state);
    this.onStateEmitter.fire(state);
  }

  dispose(): void {
    this.focusListener.dispose();
    this.teardown();
    this.onJobsEmitter.dispose();
    this.onStateEmitter.dispose();
    this.onTransitionEmitter.dispose();
  }
}
