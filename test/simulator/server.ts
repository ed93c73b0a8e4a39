/**
 * The simulator: two HTTP listeners (the API origin and an object-storage origin), the job
 * store, faults and the request log. See README.md beside this file.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { AnalyticsRoutes } from './analytics';
import { playgroundAnalytics, type AnalyticsData } from './analyticsData';
import { SimClock } from './clock';
import { handleControl } from './control';
import { DeploymentStore } from './deployments';
import { FaultQueue, Gates } from './faults';
import { HostileText, type HostileField } from './hostile';
import { JobStore, type AgentJobRecord, type ExportJobRecord } from './jobs';
import type { JobTime } from './jobTime';
import { reportSecret } from './ledger';
import { RandomFaults, type RandomFaultOptions } from './randomFaults';
import { matchApi, matchStorage, segments, type Matched } from './routes';
import { buildSiteArchive } from './site';
import { Concurrency, sendInPieces, shaped, type StorageDelivery } from './delivery';
import { checkLink, parseRange, presign, s3Error } from './storage';
import {
  DEMO_KEY,
  type AgentDefaults,
  type AgentJobSeed,
  type AutomationSeed,
  type DeploymentDefaults,
  type DeploymentSeed,
  type ExportDefaults,
  type ExportJobSeed,
  type Exchange,
  type Fault,
  type KeySpec,
  type RequestLogEntry,
  type SimulatorOptions,
} from './types';

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const MAX_REQUEST_BODY = 1024 * 1024;

function json(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: Buffer.from(JSON.stringify(value)) };
}

function xml(status: number, code: string, message: string): Reply {
  return { status, headers: { 'content-type': 'application/xml' }, body: Buffer.from(s3Error(code, message)) };
}

/** A TCP RST; over TLS, on the TCP socket under it (a TLS socket cannot send one itself). */
function resetConnection(socket: Socket): void {
  const tcp = (socket as Socket & { _parent?: Socket })._parent ?? socket;
  tcp.resetAndDestroy();
  socket.destroy();
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_REQUEST_BODY) chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

export class Simulator {
  readonly requests: RequestLogEntry[] = [];
  readonly projectId: string;
  readonly keys: KeySpec[];
  private readonly clock: SimClock;
  private readonly jobs: JobStore;
  private readonly deploys: DeploymentStore;
  private readonly faults = new FaultQueue();
  private readonly gates = new Gates();
  private randomFaults: RandomFaults | undefined;
  private readonly secret = randomBytes(32).toString('hex');
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly api: Server | TlsServer;
  private readonly storage: Server | TlsServer;
  private exportDefaults: ExportDefaults;
  private agentDefaults: AgentDefaults;
  /** Simulated times of agent creates and follow-ups, per project, for the hourly limit. */
  private readonly agentUses = new Map<string, number[]>();
  private bundle: Buffer = Buffer.alloc(0);
  private siteArchive: Buffer = Buffer.alloc(0);
  private reportedSize: number | undefined;
  private staticExportEnabled: boolean;
  private linkTtlSeconds: number;
  private apiUrl = '';
  private storageUrl = '';
  /** Where issued links point, when not at the storage itself (a relay in front of it). */
  private linkOrigin: string | undefined;
  private delivery: StorageDelivery = {};
  /** The storage's GETs being answered at once (`now`), and the most since the last reset (`max`). */
  readonly storageConcurrency = new Concurrency();
  private readonly analytics: AnalyticsRoutes;
  private readonly exchangeListeners = new Set<(exchange: Exchange) => void>();
  private readonly hostile = new HostileText();

  private constructor(private readonly options: SimulatorOptions) {
    this.projectId = options.projectId ?? 'proj_demo';
    this.keys = options.keys ?? [{ key: DEMO_KEY }];
    for (const spec of this.keys) reportSecret('key', spec.key);
    this.clock = new SimClock(options.clockSkewMs ?? 0);
    this.jobs = new JobStore(() => this.clock.now(), options.timeScale ?? 1, this.projectId);
    this.exportDefaults = { queuedMs: 2_000, durationMs: 60_000, outcome: 'completed', pages: 120, ...options.exportDefaults };
    this.agentDefaults = {
      durationMs: 90_000,
      outcome: 'pr',
      repository: 'https://github.com/acme/docs',
      ref: 'docs-agent/{id}',
      hourlyLimit: 100,
      retryAfter: true,
      ...options.agentDefaults,
    };
    this.deploys = new DeploymentStore(() => this.clock.now(), options.timeScale ?? 1, this.projectId, () => this.storageUrl, options.deploymentDefaults);
    this.deploys.previewsEnabled = options.previewsEnabled ?? true;
    this.staticExportEnabled = options.staticExportEnabled ?? true;
    this.linkTtlSeconds = options.linkTtlSeconds ?? 3600;
    this.api = this.listener('api');
    this.storage = this.listener('storage');
    this.analytics = new AnalyticsRoutes(() => this.clock.now());
  }

  /**
   * The reader analytics the `analytics.*` routes serve (see analyticsData.ts); every reader
   * contact in them is told to the secrets watchers (it must never be logged or printed).
   */
  setAnalytics(data: AnalyticsData): void {
    for (const f of data.feedback) if (typeof f.contact === 'string' && f.contact !== '') reportSecret('contact', f.contact);
    this.analytics.data = data;
  }

  /** The playground's analytics, over the weeks before the simulator's clock now. */
  seedPlaygroundAnalytics(seed?: number): AnalyticsData {
    const data = playgroundAnalytics(this.clock.now(), seed);
    this.setAnalytics(data);
    return data;
  }

  get analyticsData(): AnalyticsData {
    return this.analytics.data;
  }

  /** `false`: the analytics routes answer 403, as for a plan without analytics. */
  setAnalyticsEnabled(enabled: boolean): void {
    this.analytics.enabled = enabled;
  }

  static async start(options: SimulatorOptions = {}): Promise<Simulator> {
    const sim = new Simulator(options);
    sim.siteArchive = buildSiteArchive();
    sim.bundle = sim.siteArchive;
    const host = options.host ?? '127.0.0.1';
    const listen = (server: Server | TlsServer, port: number) =>
      new Promise<number>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
      });
    const urlHost = host.includes(':') ? `[${host}]` : host;
    const scheme = (tls: unknown) => (tls === undefined ? 'http' : 'https');
    sim.apiUrl = `${scheme(options.tls)}://${urlHost}:${await listen(sim.api, options.port ?? 0)}`;
    sim.storageUrl = `${scheme(options.storageTls ?? options.tls)}://${urlHost}:${await listen(sim.storage, 0)}`;
    return sim;
  }

  get baseUrl(): string {
    return this.apiUrl;
  }

  get storageBaseUrl(): string {
    return this.storageUrl;
  }

  /**
   * Links issued from now on point at this origin (a TCP relay in front of the storage, say,
   * for a benchmark that caps each connection); undefined: at the storage again.
   */
  setLinkOrigin(origin: string | undefined): void {
    this.linkOrigin = origin;
  }

  /** The first valid key. */
  get key(): string {
    return this.keys[0]?.key ?? DEMO_KEY;
  }

  now(): number {
    return this.clock.now();
  }

  advance(ms: number): void {
    this.clock.advance(ms);
  }

  /**
   * Holds a job (an agent job, an export or a deployment, by its id) where it is now: queued or
   * running, it stays so, whatever the time scale and however slow the machine, until
   * `release`. A test that must see a job running holds it rather than giving it a long duration.
   */
  hold(id: string): void {
    this.jobTime(id).hold();
  }

  /** The held job goes on from where it was held (a job whose duration is over ends at once). */
  release(id: string): void {
    this.jobTime(id).release();
  }

  /** Releases every held job (a suite's `after`: nothing it held stays held for the next). */
  releaseAll(): void {
    for (const record of this.jobs.agents.values()) record.run.release();
    for (const record of this.jobs.exports.values()) record.time.release();
    for (const record of this.deploys.deployments.values()) record.time.release();
  }

  /** Moves one job's own time on by `simulatedMs`, held or not: a held export's progress, a held deployment's log lines. */
  stepJob(id: string, simulatedMs: number): void {
    this.jobTime(id).step(simulatedMs);
  }

  private jobTime(id: string): JobTime {
    const agent = [...this.jobs.agents.values()].find((record) => record.id === id);
    const time = agent?.run ?? this.jobs.exports.get(id)?.time ?? this.deploys.deployments.get(id)?.time;
    if (time === undefined) throw new Error(`The simulator has no job ${id}`);
    return time;
  }

  addAgentJob(seed?: AgentJobSeed): Record<string, unknown> {
    return this.jobs.agentJson(this.jobs.addAgent(seed));
  }

  archiveAgentJob(id: string, projectId = this.projectId): Record<string, unknown> | undefined {
    const record = this.jobs.archiveAgent(projectId, id);
    return record && this.jobs.agentJson(record);
  }

  addExportJob(seed: ExportJobSeed = {}): Record<string, unknown> {
    return this.jobs.exportJson(this.jobs.addExport(seed, this.exportDefaults));
  }

  setExportDefaults(defaults: Partial<ExportDefaults>): void {
    this.exportDefaults = { ...this.exportDefaults, ...defaults };
  }

  setAgentDefaults(defaults: Partial<AgentDefaults>): void {
    this.agentDefaults = { ...this.agentDefaults, ...defaults };
  }

  /** The prompts an agent job received (the create's, then each follow-up), as sent. */
  agentPrompts(id: string, projectId = this.projectId): string[] | undefined {
    return this.jobs.findAgent(projectId, id)?.prompts.slice();
  }

  /** A deployment or preview as if triggered (from the dashboard, GitHub, the API); answers its status now. */
  addDeployment(seed?: DeploymentSeed): Record<string, unknown> {
    return this.deploys.json(this.deploys.add(seed));
  }

  /** The deployment's status as the API would answer it now (no fault, no key), or undefined. */
  deployment(statusId: string): Record<string, unknown> | undefined {
    const record = this.deploys.deployments.get(statusId);
    return record && this.deploys.json(record);
  }

  /** Every deployment and preview the simulator knows, oldest first, as the API answers each now. */
  deploymentList(): Record<string, unknown>[] {
    return [...this.deploys.deployments.values()].map((record) => this.deploys.json(record));
  }

  /** An automation the trigger route knows (answers its id). */
  addAutomation(seed?: AutomationSeed): string {
    return this.deploys.addAutomation(seed).id;
  }

  /** The runs an automation's trigger started, oldest first. */
  automationRuns(id: string): { instanceId: string; jobId: string; at: number }[] | undefined {
    return this.deploys.automations.get(id)?.runs.slice();
  }

  /** `false`: the preview route answers 403, as for a plan without previews. */
  setPreviewsEnabled(enabled: boolean): void {
    this.deploys.previewsEnabled = enabled;
  }

  setDeploymentDefaults(defaults: Partial<DeploymentDefaults>): void {
    this.deploys.defaults = { ...this.deploys.defaults, ...defaults };
  }

  /** The preview URL a branch has (or gets), as the preview route hands it out. */
  previewUrl(branch: string): string {
    return this.deploys.previewUrl(branch);
  }

  setStaticExportEnabled(enabled: boolean): void {
    this.staticExportEnabled = enabled;
  }

  setLinkTtlSeconds(seconds: number): void {
    this.linkTtlSeconds = seconds;
  }

  setBundleContent(body: Buffer): void {
    this.bundle = body;
  }

  defaultBundle(): Buffer {
    return this.siteArchive;
  }

  setReportedSize(size: number | undefined): void {
    this.reportedSize = size;
  }

  /** How the storage sends bundles from now on (small writes, pauses, a flipped byte); `{}`: plainly. */
  setStorageDelivery(delivery: StorageDelivery): void {
    this.delivery = { ...delivery };
  }

  injectFault(fault: Fault): void {
    this.faults.add(fault);
  }

  /** Lets the answers a `gate` fault of that name holds go, and later ones pass at once. */
  openGate(name: string): void {
    this.gates.open(name);
  }

  clearFaults(): void {
    this.faults.clear();
  }

  /**
   * From now on a seeded share of the requests meets a random fault (see randomFaults.ts);
   * `undefined` stops it. Faults queued with `injectFault` come first.
   */
  setRandomFaults(options: RandomFaultOptions | undefined): void {
    this.randomFaults = options === undefined ? undefined : new RandomFaults(options);
  }

  /** How many random faults of each kind were served, by label. */
  get randomFaultCounts(): Record<string, number> {
    return { ...this.randomFaults?.counts };
  }

  /** The agent job as the API would answer it now (no fault, no key), or undefined. */
  agentJob(id: string, projectId = this.projectId): Record<string, unknown> | undefined {
    const record = this.jobs.findAgent(projectId, id);
    return record && this.jobs.agentJson(record);
  }

  /** The export job as the API would answer it now, or undefined. */
  exportJob(jobId: string): Record<string, unknown> | undefined {
    const record = this.jobs.exports.get(jobId);
    return record && this.jobs.exportJson(record);
  }

  clearRequests(): void {
    this.requests.length = 0;
  }

  /** Starts (true) or stops noting the string fields of the API's answers (see hostile.ts); starting forgets the last. */
  recordFields(on: boolean): void {
    this.hostile.record(on);
  }

  /** The string fields the API's answers held since `recordFields(true)`, by route (`feedback[].comment`). */
  servedFields(): Record<string, string[]> {
    return this.hostile.fields();
  }

  /** From now on that field of the route's answers gets the payload after its value; undefined: none does. */
  setHostileField(field: HostileField | undefined): void {
    this.hostile.arm(field);
  }

  /**
   * Tells `listener` every API request with the whole answer it got, as sent on the wire (the
   * contract tests validate both against the vendor's documents). Not told: the control
   * interface, the storage origin, and answers that never came whole (a reset, a cut, a stall,
   * an oversized body). Gives the function that stops it.
   */
  onExchange(listener: (exchange: Exchange) => void): () => void {
    this.exchangeListeners.add(listener);
    return () => this.exchangeListeners.delete(listener);
  }

  /** Drops every open connection (keep-alive ones too), as a network change would. */
  dropConnections(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  /** Closes both listeners and every connection, stalled ones included; clears every timer. */
  async stop(): Promise<void> {
    this.gates.openAll();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const close = (server: Server | TlsServer) =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    for (const socket of this.sockets) socket.destroy();
    await Promise.all([close(this.api), close(this.storage)]);
  }

  private listener(origin: 'api' | 'storage'): Server | TlsServer {
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      void this.handle(origin, req, res).catch((error: unknown) => {
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: `simulator error: ${String(error)}` }));
        }
      });
    };
    // An https server has the same request API (its TLS sockets are tracked like plain ones).
    const tls = origin === 'storage' ? (this.options.storageTls ?? this.options.tls) : this.options.tls;
    const server = tls === undefined ? createServer(handler) : createTlsServer(tls, handler);
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    return server;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
    });
  }

  private async handle(origin: 'api' | 'storage', req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawUrl = req.url ?? '/';
    const queryAt = rawUrl.indexOf('?');
    const rawPath = queryAt < 0 ? rawUrl : rawUrl.slice(0, queryAt);
    const query = queryAt < 0 ? '' : rawUrl.slice(queryAt + 1);
    const method = req.method ?? 'GET';
    const body = await readBody(req);
    if (origin === 'api' && rawPath.startsWith('/_sim/')) {
      const reply = handleControl(this, method, rawPath, body);
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body));
      return;
    }
    const parts = segments(rawPath);
    const matched: Matched = parts === undefined ? { route: 'unknown', params: {} } : origin === 'api' ? matchApi(method, parts) : matchStorage(method, parts);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : (value ?? '');
    // A key presented is a secret too, accepted or not (a wrong one may be another environment's).
    const presented = /^Bearer\s+(\S+)/i.exec(headers.authorization ?? '')?.[1];
    if (presented !== undefined) reportSecret('key', presented);
    const entry: RequestLogEntry = { at: Date.now(), origin, method, path: rawPath, query, route: matched.route, headers, body, status: 0 };
    this.requests.push(entry);
    if (matched.route === 'storage.get') this.storageConcurrency.track(res);

    const fault = this.faults.take(matched.route) ?? this.randomFaults?.take(matched.route, this.clock.now());
    let reply: Reply | undefined;
    switch (fault?.kind) {
      case 'reset':
        req.socket.destroy();
        return;
      case 'delay':
        await this.sleep(fault.ms);
        break;
      case 'gate':
        await this.gates.wait(fault.name);
        break;
      case 'status': {
        const headers = { ...fault.headers };
        if (fault.retryAfterDateSeconds !== undefined) headers['retry-after'] = new Date(this.clock.now() + fault.retryAfterDateSeconds * 1000).toUTCString();
        reply =
          typeof fault.body === 'string'
            ? { status: fault.status, headers: { 'content-type': 'text/plain', ...headers }, body: Buffer.from(fault.body) }
            : json(fault.status, fault.body ?? { error: `simulated ${fault.status}` }, headers);
        break;
      }
      case 'malformed':
        reply = { status: fault.status ?? 200, headers: { 'content-type': fault.contentType ?? 'text/html' }, body: Buffer.from(fault.body) };
        break;
      case 'oversized':
        entry.status = 200;
        await this.streamOversized(res, fault.bytes, fault.chunked === true, entry);
        return;
      case 'redirect':
        reply = { status: fault.status, headers: { location: fault.location }, body: Buffer.alloc(0) };
        break;
      default:
        break;
    }
    if (reply === undefined && origin === 'api') {
      const answer = this.apiReply(matched, method, headers, body, query);
      reply = { ...answer, body: this.hostile.apply(matched.route, answer.body) };
    }
    reply ??= this.storageReply(matched, method, headers, query, fault?.kind === 'ignoreRange');
    reply.headers.date = new Date(this.clock.now()).toUTCString();
    entry.status = reply.status;
    if (fault?.kind === 'truncate' || fault?.kind === 'stall') {
      res.writeHead(reply.status, { ...reply.headers, 'content-length': String(reply.body.length) });
      res.write(reply.body.subarray(0, fault.afterBytes));
      // A truncated answer ends with a dropped connection; a stalled one just stops.
      if (fault.kind === 'truncate') {
        setImmediate(() => (fault.reset === true ? resetConnection(req.socket) : req.socket.destroy()));
      }
      return;
    }
    res.writeHead(reply.status, { ...reply.headers, 'content-length': String(reply.body.length) });
    if (origin === 'storage' && method !== 'HEAD' && (this.delivery.pieceBytes !== undefined || this.delivery.pieceGapMs !== undefined)) {
      await sendInPieces(res, reply.body, this.delivery, (ms) => this.sleep(ms));
      return;
    }
    res.end(method === 'HEAD' ? undefined : reply.body);
    if (origin === 'api' && this.exchangeListeners.size > 0) {
      const exchange: Exchange = { request: entry, reply: { status: reply.status, headers: { ...reply.headers }, body: reply.body.toString('utf8') } };
      for (const listener of this.exchangeListeners) listener(exchange);
    }
  }

  /**
   * A 200 JSON body of `bytes` bytes, made as it is sent (never held whole), written only as
   * fast as the client reads, and stopped when the client goes away; `chunked` leaves out the
   * Content-Length, so only counting while reading can catch it. The log entry's `sentBytes`
   * says how much went out.
   */
  private async streamOversized(res: ServerResponse, bytes: number, chunked: boolean, entry: RequestLogEntry): Promise<void> {
    const head = '{"padding":"';
    const tail = '"}';
    const fill = Math.max(0, bytes - head.length - tail.length);
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', date: new Date(this.clock.now()).toUTCString() };
    if (!chunked) headers['content-length'] = String(head.length + fill + tail.length);
    res.writeHead(200, headers);
    let closed = false;
    res.on('close', () => {
      closed = true;
    });
    const block = Buffer.alloc(64 * 1024, 'x');
    entry.sentBytes = 0;
    const write = async (chunk: Buffer | string) => {
      if (closed) return;
      entry.sentBytes = (entry.sentBytes ?? 0) + Buffer.byteLength(chunk);
      if (res.write(chunk)) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    };
    await write(head);
    for (let left = fill; left > 0 && !closed; left -= block.length) await write(left >= block.length ? block : block.subarray(0, left));
    await write(tail);
    if (!closed) res.end();
  }

  private apiReply(matched: Matched, method: string, headers: Record<string, string>, body: string, query: string): Reply {
    if (matched.route === 'unknown') return json(404, { error: 'Not found' });
    const bearer = /^Bearer (.+)$/.exec(headers.authorization ?? '');
    const key = this.keys.find((k) => k.key === bearer?.[1]);
    if (key === undefined) return json(401, { error: 'Invalid or missing API key' });
    if (key.ipBlocked) return json(403, { error: "request IP is not in the API key's allow-list" });
    if (key.readOnly && method === 'POST') return json(403, { error: 'API key does not have write access' });
    const { params } = matched;
    switch (matched.route) {
      case 'agent.get': {
        const record = this.jobs.findAgent(params.projectId ?? '', params.id ?? '');
        return record ? json(200, this.jobs.agentJson(record)) : json(404, { error: 'Agent job not found' });
      }
      case 'agent.create':
      case 'agent.message':
        return this.agentWrite(matched, headers, body);
      case 'export.start':
        return this.startExport(headers, body);
      case 'export.status': {
        if (!this.staticExportEnabled) return this.exportDisabled();
        const record = this.jobs.exports.get(params.jobId ?? '');
        return record ? json(200, this.jobs.exportJson(record)) : json(404, { error: 'Export job not found' });
      }
      case 'export.bundle': {
        if (!this.staticExportEnabled) return this.exportDisabled();
        const record = this.jobs.exports.get(params.jobId ?? '');
        return record ? this.bundleReply(record) : json(404, { error: 'Export job not found' });
      }
      case 'deploy.trigger':
        return this.answer(this.deploys.triggerDeployment(params.projectId ?? ''));
      case 'deploy.status':
        return this.answer(this.deploys.statusAnswer(params.statusId ?? ''));
      case 'preview.trigger':
        return this.answer(this.deploys.triggerPreview(params.projectId ?? '', headers, body));
      case 'automation.trigger':
        return this.answer(this.deploys.triggerAutomation(params.projectId ?? '', params.automationId ?? ''));
      default:
        if (matched.route.startsWith('analytics.')) {
          if (params.projectId !== this.projectId) return json(404, { error: 'Project not found' });
          const answer = this.analytics.reply(matched.route as Parameters<AnalyticsRoutes['reply']>[0], params, new URLSearchParams(query));
          return json(answer.status, answer.body);
        }
        return json(404, { error: 'Not found' });
    }
  }

  /** Create and follow-up: a JSON `{prompt}` of at least one character, within the shared hourly limit. */
  private agentWrite(matched: Matched, headers: Record<string, string>, body: string): Reply {
    const projectId = matched.params.projectId ?? '';
    const record = matched.route === 'agent.message' ? this.jobs.findAgent(projectId, matched.params.id ?? '') : undefined;
    if (matched.route === 'agent.message' && record === undefined) return json(404, { error: 'Agent job not found' });
    if (!(headers['content-type'] ?? '').toLowerCase().startsWith('application/json')) return json(400, { error: 'Content-Type must be application/json' });
    let prompt: unknown;
    try {
      prompt = ((JSON.parse(body) ?? {}) as { prompt?: unknown }).prompt;
    } catch {
      return json(400, { error: 'Request body is not valid JSON' });
    }
    if (typeof prompt !== 'string' || prompt.length < 1) return json(400, { error: 'prompt is required (a string of at least 1 character)' });
    const now = this.clock.now();
    const hour = 3_600_000;
    const uses = (this.agentUses.get(projectId) ?? []).filter((at) => at > now - hour);
    this.agentUses.set(projectId, uses);
    if (uses.length >= this.agentDefaults.hourlyLimit) {
      const retryAfter = Math.max(1, Math.ceil(((uses[0] ?? now) + hour - now) / 1000));
      return json(429, { error: `Rate limit exceeded: ${this.agentDefaults.hourlyLimit} agent requests per project per hour` }, this.agentDefaults.retryAfter ? { 'retry-after': String(retryAfter) } : {});
    }
    uses.push(now);
    if (record !== undefined) {
      if (record.archivedAt !== undefined) return json(400, { error: 'Agent job is archived and takes no more messages' });
      this.jobs.continueAgent(record, prompt, this.agentDefaults.held === true);
      return json(200, this.jobs.agentJson(record));
    }
    const { durationMs, outcome, repository, ref, held } = this.agentDefaults;
    const created = this.jobs.addAgent({ projectId, durationMs, outcome, repository, prompt, held: held === true });
    created.ref = ref.replace('{id}', created.id);
    return json(201, this.jobs.agentJson(created));
  }

  private answer(answer: { status: number; body: unknown; headers?: Record<string, string> }): Reply {
    return json(answer.status, answer.body, answer.headers);
  }

  /** The docs site and its previews, as a browser sees them: a small page that says which. */
  private siteReply(matched: Matched): Reply {
    const { kind, name = '' } = matched.params;
    const branch = kind === 'previews' ? this.deploys.previewBranchOf(name) : undefined;
    if (kind === 'previews' && branch === undefined) return { status: 404, headers: { 'content-type': 'text/plain' }, body: Buffer.from('No preview here') };
    const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    const title = branch === undefined ? `The ${escape(name)} docs` : `Preview of ${escape(branch)}`;
    return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: Buffer.from(`<!doctype html><title>${title}</title><h1>${title}</h1><p>Served by the Docs Admin simulator.</p>`) };
  }

  private exportDisabled(): Reply {
    return json(403, { error: 'static export is not enabled for this organization' });
  }

  private startExport(headers: Record<string, string>, body: string): Reply {
    if (!this.staticExportEnabled) return this.exportDisabled();
    if (!(headers['content-type'] ?? '').toLowerCase().startsWith('application/json')) {
      return json(415, { error: 'Content-Type must be application/json' });
    }
    let request: unknown;
    try {
      request = JSON.parse(body);
    } catch {
      return json(400, { error: 'Request body is not valid JSON' });
    }
    const { domain, version } = (request ?? {}) as { domain?: unknown; version?: unknown };
    if (typeof domain !== 'string' || !/^[a-z0-9.-]+$/i.test(domain) || !domain.includes('.')) {
      return json(400, { error: 'domain must be a bare hostname such as docs.example.com (no scheme, path or trailing slash)' });
    }
    const record = this.jobs.addExport({ domain }, this.exportDefaults, typeof version === 'string' ? version : undefined);
    return json(202, this.jobs.exportJson(record));
  }

  private bundleReply(record: ExportJobRecord): Reply {
    const status = this.jobs.exportStatus(record);
    if (status !== 'completed') {
      return json(409, {
        error: status === 'failed' ? `Export job ${record.jobId} failed; start a new export` : `Export job ${record.jobId} is ${status}; the bundle can be generated once it is completed`,
      });
    }
    const now = this.clock.now();
    const bundleUrl = presign(this.secret, this.linkOrigin ?? this.storageUrl, record.jobId, now, this.linkTtlSeconds);
    reportSecret('signature', new URL(bundleUrl).searchParams.get('X-Amz-Signature') ?? '');
    return json(200, {
      jobId: record.jobId,
      bundleUrl,
      sizeBytes: this.reportedSize ?? this.bundle.length,
      expiresAt: new Date(Math.floor(now / 1000) * 1000 + this.linkTtlSeconds * 1000).toISOString(),
    });
  }

  private storageReply(matched: Matched, method: string, headers: Record<string, string>, query: string, ignoreRange: boolean): Reply {
    if (matched.route === 'site.get') return this.siteReply(matched);
    if (headers.authorization !== undefined) {
      return xml(400, 'InvalidArgument', 'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization header should be specified');
    }
    if (method === 'HEAD') return { ...xml(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.'), body: Buffer.alloc(0) };
    if (matched.route !== 'storage.get') return xml(404, 'NoSuchKey', 'The specified key does not exist.');
    const jobId = matched.params.jobId ?? '';
    const check = checkLink(this.secret, `/bundles/${encodeURIComponent(jobId)}/bundle.tar.gz`, new URLSearchParams(query), this.clock.now());
    if (!check.ok) return xml(check.status, check.code, check.message);
    const record = this.jobs.exports.get(jobId);
    if (record === undefined || this.jobs.exportStatus(record) !== 'completed') return xml(404, 'NoSuchKey', 'The specified key does not exist.');
    const base = { 'content-type': 'binary/octet-stream', 'accept-ranges': 'bytes', etag: `"${record.jobId}-${this.bundle.length}"` };
    const range = ignoreRange ? { kind: 'full' as const } : parseRange(headers.range, this.bundle.length);
    if (range.kind === 'unsatisfiable') {
      return { status: 416, headers: { ...base, 'content-range': `bytes */${this.bundle.length}`, 'content-type': 'application/xml' }, body: Buffer.from(s3Error('InvalidRange', 'The requested range is not satisfiable')) };
    }
    if (range.kind === 'partial') {
      return { status: 206, headers: { ...base, 'content-range': `bytes ${range.start}-${range.end}/${this.bundle.length}` }, body: shaped(this.bundle.subarray(range.start, range.end + 1), range.start, this.delivery) };
    }
    return { status: 200, headers: base, body: shaped(this.bundle, 0, this.delivery) };
  }

  /** For the control interface. */
  findAgentRecord(id: string): AgentJobRecord | undefined {
    return this.jobs.findAgent(this.projectId, id);
  }
}
