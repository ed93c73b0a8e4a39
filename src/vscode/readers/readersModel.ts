/**
 * The reader analytics in the editor: the chosen period (7, 30 or 90 days, remembered), the
 * in-memory store of each period's data (core/analytics/store.ts, built on the session's
 * client: the same key, base URL and origin binding; forgotten when the environment, its key or
 * the settings change), the docs roots, and the index of both that the view and the CodeLens
 * read. Nothing is asked at activation, nor polled: the first need (the view shown, a docs page
 * opened) loads the period, once for the whole site; later needs within the cache time are
 * answered from memory. Which contacts the person revealed is kept here, in memory only.
 */
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { PERIOD_DAYS, periodRange, rangeKey, type PeriodDays } from '../../core/analytics/period';
import { compareByNeed, hasSignals, signalsByFile, signalsByPath, unansweredWithoutPage, unhelpfulSearches, type FileSignals, type Signals } from '../../core/analytics/signals';
// The loading (the HTTP answers' validation among it) is loaded when the data is first needed, not at activation.
import type { KindGate, SiteAnalytics } from '../../core/analytics/site';
import { AnalyticsStore, type RangeState } from '../../core/analytics/store';
import type { Unmatched } from '../../core/analytics/mapping';
import type { Conversation, DateRange, SearchRow } from '../../core/analytics/analyticsTypes';
import type { AdminApiClient } from '../../core/api/client';
import type { Logger } from '../../core/log';
import { readReadersConfig, type ReadersConfig } from '../session/extensionConfig';
import type { Session } from '../session/environmentSession';
import type { DocsSites } from './docsSites';

const PERIOD_KEY = 'docsAdmin.readers.periodDays';
/** A failed load is tried again by a need only after this long (a refresh tries at once). */
const RETRY_FAILED_MS = 60_000;

/** A page in the view: a file of a docs root, or a URL path that matches none. */
export interface PageEntry {
  /** The file's URI as a string, or `path:<url path>` for an unmatched path. */
  key: string;
  uri?: vscode.Uri;
  /** What the row shows: the file relative to the workspace, or the URL path. */
  label: string;
  /** The URL paths whose signals are here. */
  paths: string[];
  signals: Signals;
  /** Why no file serves it, for an unmatched path. */
  unmatched?: Unmatched;
}

/** A file's page: its URI and label worked out when first asked for (a site may have thousands). */
class FilePage implements PageEntry {
  readonly key: string;
  readonly paths: string[];
  readonly signals: Signals;
  private uriValue: vscode.Uri | undefined;
  private labelValue: string | undefined;

  constructor(f: FileSignals) {
    this.key = f.file;
    this.paths = f.paths.sort();
    this.signals = f;
  }

  get uri(): vscode.Uri {
    return (this.uriValue ??= vscode.Uri.parse(this.key));
  }

  get label(): string {
    return (this.labelValue ??= vscode.workspace.asRelativePath(this.uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1));
  }
}

export interface Indexed {
  site: SiteAnalytics;
  /** Files with signals, ranked by need. */
  pages: PageEntry[];
  /** Paths no file serves, ranked by need. */
  unmatched: PageEntry[];
  byKey: Map<string, PageEntry>;
  /** Unanswered questions without a known page, by category (`undefined`: none). */
  questionsByCategory: [string | undefined, Conversation[]][];
  searches: SearchRow[];
  /** Whether any docs root was found. */
  hasDocsRoot: boolean;
}

export class ReadersModel implements vscode.Disposable {
  private store: AnalyticsStore | undefined;
  private storeClient: AdminApiClient | undefined;
  /** One request at a time per kind, whichever period asks (made with the first load). */
  private gate: KindGate | undefined;
  private indexed: { site: SiteAnalytics; version: number; threshold: number; value: Indexed } | undefined;
  private failedAt = new Map<string, number>();
  private config: ReadersConfig = readReadersConfig();
  private rateLimitedUntil: number | undefined;
  /** How long the last index took to build (ms), for the log and the benchmark. */
  lastIndexMs: number | undefined;
  /** Feedback ids whose contact the person chose to see (memory only). */
  readonly revealed = new Set<string>();
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly session: Session,
    readonly sites: DocsSites,
    private readonly memento: vscode.Memento,
    private readonly log: Logger,
  ) {
    this.subscriptions = [
      this.emitter,
      session.onDidChangeState(() => {
        if (session.client !== this.storeClient) this.reset();
        this.emitter.fire();
      }),
      sites.onDidChange(() => {
        if (this.site() !== undefined) this.index();
        this.emitter.fire();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration('docsAdmin.readers')) return;
        const before = this.config;
        this.config = readReadersConfig();
        // The cache time and the cap change what is loaded: load afresh; the rest only redraws.
        if (before.cacheMs !== this.config.cacheMs || before.maxItems !== this.config.maxItems || before.enabled !== this.config.enabled) this.reset();
        void vscode.commands.executeCommand('setContext', 'docsAdmin.readers.enabled', this.config.enabled);
        this.emitter.fire();
      }),
    ];
    void vscode.commands.executeCommand('setContext', 'docsAdmin.readers.enabled', this.config.enabled);
  }

  get settings(): ReadersConfig {
    return this.config;
  }

  get period(): PeriodDays {
    const stored = this.memento.get<number>(PERIOD_KEY);
    return PERIOD_DAYS.find((d) => d === stored) ?? 30;
  }

  get range(): DateRange {
    return periodRange(this.period, Date.now());
  }

  /** Whether the session can ask the server (a key, a project, a client). */
  get usable(): boolean {
    return this.config.enabled && this.session.client !== undefined && this.session.state === 'ok';
  }

  async setPeriod(days: PeriodDays): Promise<void> {
    await this.memento.update(PERIOD_KEY, days);
    this.emitter.fire();
    this.need();
  }

  /** What is known of the current period. */
  state(): RangeState {
    return this.store?.state(this.range) ?? { kind: 'empty' };
  }

  /** The data shown now (fresh or being reloaded), if any. */
  site(): SiteAnalytics | undefined {
    return this.store?.peek(this.range);
  }

  /** Until when a 429 holds the load up (the view says so). */
  get waitingUntil(): number | undefined {
    return this.rateLimitedUntil !== undefined && this.rateLimitedUntil > Date.now() ? this.rateLimitedUntil : undefined;
  }

  /**
   * Something needs the current period (the view is shown, a page asks for its signals): loads it
   * when nothing fresh is in memory, once for the whole site; the docs roots are found too.
   */
  need(): void {
    if (!this.config.enabled) return;
    void this.sites.find().catch((error: unknown) => this.log.warn(`Could not find the docs roots: ${error instanceof Error ? error.message : String(error)}`));
    if (!this.usable) return;
    const range = this.range;
    const state = this.ensureStore().state(range);
    if (state.kind === 'loading' || (state.kind === 'ready' && state.fresh)) return;
    if (state.kind === 'failed' && Date.now() - (this.failedAt.get(rangeKey(range)) ?? 0) < RETRY_FAILED_MS) return;
    void this.load(range, false);
  }

  /**
   * A document asks for its signals: when it is a page of a docs root and nothing is in memory,
   * the site's data is needed (any other Markdown file asks nothing of the server).
   */
  needFor(uri: vscode.Uri): void {
    if (!this.config.enabled) return;
    const check = () => {
      if (this.sites.rootOf(uri) === undefined) return;
      const state = this.state();
      if (state.kind === 'empty' || (state.kind === 'ready' && !state.fresh) || state.kind === 'failed') this.need();
    };
    if (this.sites.current === undefined) void this.sites.find().then(check, () => undefined);
    else check();
  }

  /** Loads the current period again, whatever the age of what is in memory. */
  async refresh(): Promise<SiteAnalytics | undefined> {
    if (!this.usable) return undefined;
    void this.sites.find();
    return this.load(this.range, true);
  }

  /**
   * A range's data for a language-model tool: from memory while fresh (the view's own), else
   * loaded once for the whole site. Throws, saying what to do, when the analytics are off or
   * the environment is not set up.
   */
  async siteFor(range: DateRange): Promise<SiteAnalytics> {
    if (!this.config.enabled) throw new Error(vscode.l10n.t('Reader analytics are turned off (docsAdmin.readers.enabled).'));
    if (this.session.client === undefined) throw new Error(vscode.l10n.t('Set the base URL, project id and admin key first.'));
    return this.ensureStore().get(range);
  }

  private async load(range: DateRange, force: boolean): Promise<SiteAnalytics | undefined> {
    try {
      return await this.ensureStore().get(range, force);
    } catch (error) {
      this.failedAt.set(rangeKey(range), Date.now());
      this.log.warn(`Reader analytics for ${rangeKey(range)} could not be loaded: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  private ensureStore(): AnalyticsStore {
    const client = this.session.client;
    if (this.store !== undefined && client === this.storeClient) return this.store;
    this.store?.dispose();
    this.storeClient = client;
    const store = new AnalyticsStore({
      ttlMs: this.config.cacheMs,
      load: async (range, signal) => {
        if (client === undefined) throw new Error(vscode.l10n.t('Set the base URL, project id and admin key first.'));
        const [{ AnalyticsApi }, { KindGate, loadSite }] = await Promise.all([import('../../core/analytics/analyticsApi.js'), import('../../core/analytics/site.js')]);
        this.gate ??= new KindGate();
        const max = this.config.maxItems;
        return loadSite(new AnalyticsApi(client), range, {
          gate: this.gate,
          log: this.log,
          limits: { feedback: max, conversations: Math.max(max, 2 * max), searches: Math.min(max, 500), views: Math.max(max, 2 * max) },
          paging: {
            signal,
            maxRateLimitWaitMs: 10 * 60_000,
            onRateLimitWait: (ms) => {
              this.rateLimitedUntil = Date.now() + ms;
              this.log.info(`Reader analytics: rate limited (429); waiting ${Math.ceil(ms / 1000)} s.`);
              this.emitter.fire();
            },
          },
        });
      },
    });
    store.onDidChange(() => {
      // The index is built as the data arrives, so a page opened after is a look-up.
      if (store.state(this.range).kind === 'ready') this.index();
      this.emitter.fire();
    });
    this.store = store;
    return store;
  }

  /** Forgets every period's data (another environment, key or setting); nothing is loaded until needed. */
  reset(): void {
    this.store?.dispose();
    this.store = undefined;
    this.storeClient = undefined;
    this.indexed = undefined;
    this.failedAt.clear();
    this.revealed.clear();
    this.rateLimitedUntil = undefined;
  }

  /** The current data arranged for the view and the CodeLens (built once per data and docs roots). */
  index(): Indexed | undefined {
    const site = this.site();
    if (site === undefined) return undefined;
    const threshold = this.config.lowClickThrough;
    if (this.indexed?.site === site && this.indexed.version === this.sites.version && this.indexed.threshold === threshold) return this.indexed.value;
    const started = performance.now();
    const byPath = signalsByPath(site);
    const { files, unmatched } = signalsByFile(byPath, (path) => this.sites.resolve(path));
    const pages = [...files.values()].filter(hasSignals).map((f: FileSignals): PageEntry => new FilePage(f));
    const lost = unmatched.filter((u) => hasSignals(u.signals)).map((u): PageEntry => ({ key: `path:${u.signals.path}`, label: u.signals.path, paths: [u.signals.path], signals: u.signals, unmatched: u.match }));
    // Ties in order of the key (a file's URI): no label is worked out until a row shows it.
    const byKey = (a: PageEntry, b: PageEntry) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
    pages.sort((a, b) => compareByNeed(a.signals, b.signals) || byKey(a, b));
    lost.sort((a, b) => compareByNeed(a.signals, b.signals) || byKey(a, b));
    const value: Indexed = {
      site,
      pages,
      unmatched: lost,
      byKey: new Map([...pages, ...lost].map((p) => [p.key, p])),
      questionsByCategory: [...unansweredWithoutPage(site).entries()].sort((a, b) => b[1].length - a[1].length),
      searches: unhelpfulSearches(site.searches, threshold),
      hasDocsRoot: (this.sites.current?.length ?? 0) > 0,
    };
    this.indexed = { site, version: this.sites.version, threshold, value };
    this.lastIndexMs = performance.now() - started;
    this.log.debug(`Reader analytics indexed: ${pages.length} pages with signals, ${lost.length} paths no file serves, in ${this.lastIndexMs.toFixed(1)} ms.`);
    return value;
  }

  /** A document's page and its signals, from what is in memory (no request, no file search). */
  pageOf(uri: vscode.Uri): PageEntry | undefined {
    return this.index()?.byKey.get(uri.toString());
  }

  dispose(): void {
    this.store?.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
