/**
 * The jobs service as the extension runs it (JobsService, JobRegistry, PollScheduler with the
 * extension's defaults, the real API client over real HTTP), on a virtual clock that also
 * drives the simulator: every request is real, but minutes of polling pass in moments.
 * The client's own retry waits are asked for (recorded in `sleeps`) but take a moment only.
 */
import type { Dispatcher } from 'undici';
import { JobRegistry } from '../../../src/core/jobs/registry';
import { JobsService, type ServiceState, type Transition } from '../../../src/core/jobs/service';
import { abortableSleep } from '../../../src/core/abort';
import type { RequestLogEntry, Simulator } from '../../simulator';
import { recordingLogger, type RecordingLogger } from '../support/logger';
import { MemoryStore } from '../support/memoryStore';
import { InFlight, VirtualClock } from '../support/virtualClock';
import type { JobKey } from '../../../src/core/jobs/trackedJob';
import { AdminApiClient } from '../../../src/core/api/client';

export const SECOND = 1_000;
export const MINUTE = 60 * SECOND;
export const STORAGE_KEY = 'docsAdmin.jobs.reliability';

export interface RigOptions {
  baseUrl?: string;
  dispatcher?: Dispatcher;
  /** The key the extension holds (default the simulator's first). */
  key?: string;
  requestTimeoutMs?: number;
  bodyTimeoutMs?: number;
  maxConcurrent?: number;
  focused?: boolean;
}

export class ServiceRig {
  readonly clock: VirtualClock;
  readonly inFlight = new InFlight();
  readonly store = new MemoryStore();
  readonly log: RecordingLogger = recordingLogger('service');
  /** Where the extension keeps the key (SecretStorage): the service only reads it. */
  readonly keyStore: { value: string | undefined };
  /** Waits the client asked for between attempts (a `Retry-After`, back-off). */
  readonly sleeps: number[] = [];
  readonly states: ServiceState[] = [];
  readonly transitions: Transition[] = [];
  /** When the service polled each job (virtual time), by job id. */
  readonly polls = new Map<string, number[]>();
  readonly client: AdminApiClient;
  readonly service: JobsService;

  constructor(
    readonly sim: Simulator,
    options: RigOptions = {},
  ) {
    this.clock = new VirtualClock(Math.ceil(sim.now() / SECOND) * SECOND);
    this.keyStore = { value: options.key ?? sim.key };
    this.client = new AdminApiClient({
      baseUrl: options.baseUrl ?? sim.baseUrl,
      projectId: sim.projectId,
      getKey: () => this.keyStore.value,
      log: this.log,
      requestTimeoutMs: options.requestTimeoutMs ?? 250,
      ...(options.bodyTimeoutMs === undefined ? {} : { bodyTimeoutMs: options.bodyTimeoutMs }),
      connectTimeoutMs: 1_000,
      now: () => this.clock.now(),
      sleep: (ms, signal) => {
        this.sleeps.push(ms);
        return abortableSleep(Math.min(ms, 2), signal);
      },
      ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
    });
    // Each request sees the simulator's clock set to the virtual time it is sent at.
    const sync = (id?: string) => {
      sim.advance(this.clock.now() - sim.now());
      if (id !== undefined) this.polls.set(id, [...(this.polls.get(id) ?? []), this.clock.now()]);
    };
    const client = this.client;
    this.service = new JobsService({
      client: {
        getAgentJob: (id, call) => (sync(id), this.inFlight.hold(client.getAgentJob(id, call))),
        getExportJob: (id, call) => (sync(id), this.inFlight.hold(client.getExportJob(id, call))),
        startExport: (input, call) => (sync(), this.inFlight.hold(client.startExport(input, call))),
        getDeploymentStatus: (id, call) => (sync(id), this.inFlight.hold(client.getDeploymentStatus(id, call))),
      },
      registry: new JobRegistry(this.store, STORAGE_KEY, this.log),
      clock: this.clock,
      isFocused: () => options.focused ?? true,
      log: this.log,
      floorMs: 2 * SECOND,
      ceilingMs: 60 * SECOND,
      ...(options.maxConcurrent === undefined ? {} : { maxConcurrent: options.maxConcurrent }),
    });
    this.service.onDidChangeState((state) => this.states.push(state));
    this.service.onDidTransition((t) => this.transitions.push(t));
  }

  /** Lets `ms` of virtual time pass: due polls are sent and answered. */
  advance(ms: number): Promise<void> {
    return this.clock.runUntil(this.clock.now() + ms, () => this.inFlight.quiesce());
  }

  /** Lets time pass until `done()` (or `maxMs`); true when done. */
  async until(done: () => boolean, maxMs: number): Promise<boolean> {
    await this.clock.runUntil(this.clock.now() + maxMs, () => this.inFlight.quiesce(), done);
    return done();
  }

  /** Tracks through the service (as Track Agent Job does) and lets its first poll be answered. */
  async track(kind: 'agent' | 'export', id: string): Promise<JobKey> {
    await this.inFlight.hold(kind === 'agent' ? this.service.trackAgentJob(id) : this.service.trackExportJob(id));
    await this.advance(0);
    return `${kind}:${id}`;
  }

  /** Requests for one job's status (agent or export route), in the simulator's log. */
  pollsOf(id: string): RequestLogEntry[] {
    return this.sim.requests.filter((r) => (r.route === 'agent.get' || r.route === 'export.status') && decodeURIComponent(r.path.slice(r.path.lastIndexOf('/') + 1)) === id);
  }

  /** What the store holds (what a reload would find). */
  stored(): { kind: string; id: string; snapshot?: { status: string } }[] {
    return (this.store.get(STORAGE_KEY) ?? []) as { kind: string; id: string; snapshot?: { status: string } }[];
  }

  async dispose(): Promise<void> {
    this.service.dispose();
    await this.inFlight.quiesce();
    await this.client.close();
  }
}
