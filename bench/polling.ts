/**
 * Polling: 50 agent jobs (1-15 min) and 20 export jobs (2-20 min) followed to their end by our
 * scheduler (the real JobsService, registry and PollScheduler with the extension's defaults,
 * 2 s floor and 60 s ceiling) and by two fixed pollers: every 10 s (the platform's documented
 * automation example) and every 2 s. Every poll is a real HTTP request over loopback to the
 * simulator, whose request log is what we count.
 *
 * Time is simulated: one virtual clock drives the scheduler's timers and the pollers' timers,
 * and the simulator's clock is set to it before each request (timeScale 1), so half an hour
 * of jobs passes in seconds and a run is repeatable. A request takes no virtual time: the
 * clock moves on only once every request in flight has been answered and handled.
 *
 * Detection latency: the virtual time the client first holds the terminal status, minus the
 * job's true end (createdAt + queued + duration, as the simulator computes it).
 */
import { JobRegistry } from '../src/core/jobs/registry';
import { JobsService } from '../src/core/jobs/service';
import { silentLogger } from '../src/core/log';
import { Simulator } from '../test/simulator';
import { MemoryStore } from '../test/unit/support/memoryStore';
import { VirtualClock } from '../test/unit/support/virtualClock';
import { median, percentile, prng, ratio, type Bench, type Measure } from './types';
import { isAgentTerminal, isExportTerminal, isTerminal, type JobKey } from '../src/core/jobs/trackedJob';
import { AdminApiClient } from '../src/core/api/client';
import { planJobs, WORKLOADS, type Kind, type PlannedJob } from './workloads';
import { countPhases, fullStretchMs, gapsOf, mergeTraces, paceNotes, phaseNote, phaseOf, type Phase, type Trace } from './pollingTrace';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
/** After the last job is seen done, how long we keep the clock going to catch stray polls. */
const TAIL_MS = 10 * MINUTE;

type Policy = { name: 'ours'; focused: boolean } | { name: 'fixed'; intervalMs: number };

interface JobOutcome {
  job: PlannedJob;
  /** Requests for this job in the simulator's log. */
  requests: number;
  /** Of those, the ones sent after the client already held the terminal status. */
  afterTerminal: number;
  /** Undefined when the client never saw the job end. */
  latencyMs: number | undefined;
  /** Virtual times of the polls, as the client sent them. */
  pollTimes: number[];
  /** An export's reads by the phase each found it in, in order. */
  phases: Phase[];
  /** When the job stopped being queued (virtual time). */
  queuedUntil: number;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Follows the planned jobs with one policy on a fresh simulator; what each job cost and when it was seen. */
async function runPolicy(jobs: readonly PlannedJob[], policy: Policy): Promise<JobOutcome[]> {
  const sim = await Simulator.start({ timeScale: 1 });
  const client = new AdminApiClient({ baseUrl: sim.baseUrl, projectId: sim.projectId, getKey: () => sim.key, baseDelayMs: 1, maxDelayMs: 5 });
  const start = Math.ceil(sim.now() / SECOND) * SECOND;
  const clock = new VirtualClock(start);
  const busy = new Set<Promise<unknown>>();
  const failures: string[] = [];
  const hold = <T>(promise: Promise<T>): Promise<T> => {
    busy.add(promise);
    promise.then(
      () => busy.delete(promise),
      (error: unknown) => {
        busy.delete(promise);
        failures.push(error instanceof Error ? error.message : String(error));
      },
    );
    return promise;
  };
  const quiesce = async () => {
    do {
      while (busy.size > 0) await Promise.allSettled([...busy]);
      for (let i = 0; i < 3; i++) await turn();
    } while (busy.size > 0);
  };

  const byId = new Map(jobs.map((job) => [job.id, job]));
  const pollTimes = new Map<string, number[]>(jobs.map((job) => [job.id, []]));
  const phases = new Map<string, Phase[]>(jobs.map((job) => [job.id, []]));
  const seen = new Map<string, { at: number; logIndex: number }>();
  const markSeen = (id: string) => {
    if (!seen.has(id)) seen.set(id, { at: clock.now(), logIndex: sim.requests.length });
  };
  // Every request sees the simulator's clock set to the virtual time it is sent at.
  const sync = (id: string) => {
    sim.advance(clock.now() - sim.now());
    pollTimes.get(id)?.push(clock.now());
  };
  const api: Pick<AdminApiClient, 'getAgentJob' | 'getExportJob' | 'startExport' | 'getDeploymentStatus'> = {
    getAgentJob: (id, call) => {
      sync(id);
      return hold(client.getAgentJob(id, call));
    },
    getExportJob: (id, call) => {
      sync(id);
      const reading = hold(client.getExportJob(id, call));
      void reading.then(
        (job) => phases.get(id)?.push(phaseOf(job)),
        () => undefined,
      );
      return reading;
    },
    startExport: () => Promise.reject(new Error('the benchmark tracks jobs; it starts none')),
    getDeploymentStatus: () => Promise.reject(new Error('the benchmark tracks agent jobs and exports only')),
  };

  for (const job of jobs) {
    const createdAt = start + job.createdMs;
    if (job.kind === 'agent') sim.addAgentJob({ id: job.id, createdAt, durationMs: job.durationMs, outcome: job.failed ? 'failed' : 'pr' });
    else sim.addExportJob({ jobId: job.id, createdAt, queuedMs: job.queuedMs, durationMs: job.durationMs, outcome: job.failed ? 'failed' : 'completed', ...(job.curve === undefined ? {} : { progressCurve: job.curve }) });
  }

  let service: JobsService | undefined;
  try {
    if (policy.name === 'ours') {
      const ours = new JobsService({
        client: api,
        registry: new JobRegistry(new MemoryStore(), 'bench.polling', silentLogger),
        clock,
        isFocused: () => policy.focused,
        log: silentLogger,
        floorMs: 2 * SECOND,
        ceilingMs: 60 * SECOND,
      });
      service = ours;
      ours.onDidChangeJobs((keys: JobKey[]) => {
        for (const key of keys) {
          const tracked = ours.get(key);
          if (tracked !== undefined && isTerminal(tracked)) markSeen(tracked.id);
        }
      });
      // A person tracks each job when it is started (pasting its id, or starting the export).
      for (const job of jobs) {
        clock.setTimeout(() => void hold(job.kind === 'agent' ? ours.trackAgentJob(job.id) : ours.trackExportJob(job.id)), job.createdMs);
      }
    } else {
      const every = policy.intervalMs;
      // The documented loop: read the status; stop at a terminal one; otherwise sleep and read again.
      const poll = async (job: PlannedJob): Promise<void> => {
        const terminal = job.kind === 'agent' ? isAgentTerminal(await api.getAgentJob(job.id)) : isExportTerminal(await api.getExportJob(job.id));
        if (terminal) markSeen(job.id);
        else clock.setTimeout(() => void hold(poll(job)), every);
      };
      for (const job of jobs) clock.setTimeout(() => void hold(poll(job)), job.createdMs);
    }

    const lastEnd = Math.max(...jobs.map((job) => job.createdMs + job.queuedMs + job.durationMs));
    await clock.runUntil(start + lastEnd + 30 * MINUTE, quiesce, () => seen.size === jobs.length);
    // Time goes on after the last job is seen done: a scheduler that still polls shows it here.
    await clock.runUntil(clock.now() + TAIL_MS, quiesce, () => false);
    if (failures.length > 0) throw new Error(`polling failed (${policy.name}): ${failures.slice(0, 3).join('; ')}`);
    for (const job of jobs) {
      const error = service?.errorOf(`${job.kind}:${job.id}`);
      if (error !== undefined) throw new Error(`${job.id}: ${error}`);
    }
  } finally {
    service?.dispose();
    await client.close();
    await sim.stop();
  }

  const outcomes = new Map<string, JobOutcome>(
    jobs.map((job) => {
      const end = start + job.createdMs + job.queuedMs + job.durationMs;
      const at = seen.get(job.id)?.at;
      const times = pollTimes.get(job.id) ?? [];
      const queuedUntil = start + job.createdMs + job.queuedMs;
      return [job.id, { job, requests: 0, afterTerminal: 0, latencyMs: at === undefined ? undefined : at - end, pollTimes: times, phases: phases.get(job.id) ?? [], queuedUntil }];
    }),
  );
  for (const [index, request] of sim.requests.entries()) {
    if (request.route !== 'agent.get' && request.route !== 'export.status') continue;
    const id = decodeURIComponent(request.path.slice(request.path.lastIndexOf('/') + 1));
    const outcome = outcomes.get(id);
    if (outcome === undefined || byId.get(id)?.kind !== (request.route === 'agent.get' ? 'agent' : 'export')) continue;
    outcome.requests++;
    const seenAt = seen.get(id);
    if (seenAt !== undefined && index >= seenAt.logIndex) outcome.afterTerminal++;
  }
  for (const outcome of outcomes.values()) {
    if (outcome.requests !== outcome.pollTimes.length) {
      throw new Error(`${outcome.job.id}: the simulator logged ${outcome.requests} requests, the client sent ${outcome.pollTimes.length}`);
    }
  }
  return [...outcomes.values()];
}

interface Summary {
  requests: Record<Kind, number>;
  p50: Record<Kind, number>;
  p95: Record<Kind, number>;
  afterTerminal: number;
  /** What the reads found, and the waits between them. */
  trace: Trace;
  unseen: number;
  /** Jobs that needed more than 60 polls: the documented example would have given up on them. */
  over60: number;
  /** Polls per minute of the busiest job, its first read left out (the read made on tracking). */
  busiestPerMinute: number;
  /** The shortest wait between two polls of one job. */
  minGapMs: number;
}

function summarize(outcomes: readonly JobOutcome[]): Summary {
  const of = (kind: Kind) => outcomes.filter((o) => o.job.kind === kind);
  const latencies = (kind: Kind) => of(kind).flatMap((o) => (o.latencyMs === undefined ? [] : [o.latencyMs / SECOND]));
  const sum = (kind: Kind) => of(kind).reduce((n, o) => n + o.requests, 0);
  let busiest = 0;
  let minGap = Infinity;
  for (const { pollTimes } of outcomes) {
    const first = pollTimes[0];
    const last = pollTimes[pollTimes.length - 1];
    if (first === undefined || last === undefined || last <= first) continue;
    busiest = Math.max(busiest, (pollTimes.length - 1) / ((last - first) / MINUTE));
    for (let i = 1; i < pollTimes.length; i++) minGap = Math.min(minGap, (pollTimes[i] ?? 0) - (pollTimes[i - 1] ?? 0));
  }
  return {
    requests: { agent: sum('agent'), export: sum('export') },
    p50: { agent: percentile(latencies('agent'), 50), export: percentile(latencies('export'), 50) },
    p95: { agent: percentile(latencies('agent'), 95), export: percentile(latencies('export'), 95) },
    afterTerminal: outcomes.reduce((n, o) => n + o.afterTerminal, 0),
    trace: {
      exportPhases: countPhases(of('export').flatMap((o) => o.phases)),
      agentGapsMs: of('agent').flatMap((o) => gapsOf(o.pollTimes)),
      queuedGapsMs: of('export').map((o) => gapsOf(o.pollTimes).filter((_, i) => (o.pollTimes[i] ?? Infinity) < o.queuedUntil)),
      exportEnds: of('export').flatMap((o) => (o.latencyMs === undefined ? [] : [{ latencyMs: o.latencyMs, standMs: fullStretchMs(o.job) }])),
    },
    unseen: outcomes.filter((o) => o.latencyMs === undefined).length,
    over60: outcomes.filter((o) => o.requests > 60).length,
    busiestPerMinute: busiest,
    minGapMs: minGap,
  };
}

type PolicyName = 'ours' | 'unfocused' | 'fixed10' | 'fixed2';
const POLICIES: Record<PolicyName, Policy> = {
  ours: { name: 'ours', focused: true },
  unfocused: { name: 'ours', focused: false },
  fixed10: { name: 'fixed', intervalMs: 10 * SECOND },
  fixed2: { name: 'fixed', intervalMs: 2 * SECOND },
};
const BASELINE_NAME: Record<'fixed10' | 'fixed2', string> = { fixed10: 'fixed 10 s poller', fixed2: 'fixed 2 s poller' };

export const polling: Bench = async (options) => {
  const runs = options.quick ? 1 : Math.max(1, options.runs);
  const seed = options.seed ?? 0x5eed;
  const results: Record<PolicyName, Summary[]> = { ours: [], unfocused: [], fixed10: [], fixed2: [] };
  let planned: PlannedJob[] = [];
  for (let run = 0; run < runs; run++) {
    planned = planJobs(seed + run, options.quick);
    for (const name of Object.keys(POLICIES) as PolicyName[]) {
      const t0 = Date.now();
      results[name].push(summarize(await runPolicy(planned, POLICIES[name])));
      options.log(`polling: run ${run + 1} of ${runs}, ${name}: ${((Date.now() - t0) / SECOND).toFixed(1)} s`);
    }
    const [o, f] = [results.ours[run], results.fixed10[run]];
    if (o !== undefined && f !== undefined) options.log(`polling: steady, run ${run + 1} (seed ${seed + run}), ours/fixed 10 s: exports ${o.requests.export}/${f.requests.export} requests (${ratio(o.requests.export, f.requests.export).toFixed(2)}x), p50 ${o.p50.export.toFixed(2)}/${f.p50.export.toFixed(2)} s, p95 ${o.p95.export.toFixed(2)}/${f.p95.export.toFixed(2)} s; agents ${o.requests.agent}/${f.requests.agent}, p50 ${o.p50.agent.toFixed(2)}/${f.p50.agent.toFixed(2)} s`);
  }
  const med = (name: PolicyName, pick: (s: Summary) => number) => median(results[name].map(pick));
  const agents = planned.filter((job) => job.kind === 'agent').length;
  const exports = planned.length - agents;

  const measures: Measure[] = [];
  const compare = (
    metric: string,
    unit: string,
    ours: PolicyName,
    pick: (s: Summary) => number,
    goals: Partial<Record<'fixed10' | 'fixed2', { goal: string; pass: (ours: number, baseline: number) => boolean }>> = {},
  ) => {
    const value = med(ours, pick);
    for (const baselineName of ['fixed10', 'fixed2'] as const) {
      const baseline = med(baselineName, pick);
      const goal = goals[baselineName];
      measures.push({
        metric,
        unit,
        ours: value,
        baseline,
        baselineName: BASELINE_NAME[baselineName],
        ratio: ratio(value, baseline),
        ...(goal === undefined ? {} : { goal: goal.goal, pass: goal.pass(value, baseline) }),
      });
    }
  };
  compare(`requests, ${exports} export jobs`, 'requests', 'ours', (s) => s.requests.export, {
    fixed10: { goal: '<= 0.5x the 10 s poller', pass: (o, b) => o <= 0.5 * b },
  });
  compare('export detection latency p50', 's', 'ours', (s) => s.p50.export, {
    fixed10: { goal: 'lower than the 10 s poller', pass: (o, b) => o < b },
  });
  compare('export detection latency p95', 's', 'ours', (s) => s.p95.export);
  compare(`requests, ${agents} agent jobs`, 'requests', 'ours', (s) => s.requests.agent, {
    fixed10: { goal: '<= 1.0x the 10 s poller', pass: (o, b) => o <= b },
  });
  compare('agent detection latency p50 (focused)', 's', 'ours', (s) => s.p50.agent, {
    fixed10: { goal: '<= 5 s', pass: (o) => o <= 5 },
  });
  compare('agent detection latency p95', 's', 'ours', (s) => s.p95.agent);
  const after = med('ours', (s) => s.afterTerminal) + med('unfocused', (s) => s.afterTerminal);
  measures.push({ metric: 'requests for jobs already seen terminal (focused + unfocused)', unit: 'requests', ours: after, goal: '0', pass: after === 0 });
  const perMinute = med('unfocused', (s) => s.busiestPerMinute);
  measures.push({ metric: 'unfocused: polls per job per minute (busiest job, after its first read)', unit: 'req/min', ours: perMinute, goal: '<= 1', pass: perMinute <= 1 });
  const minGap = med('unfocused', (s) => s.minGapMs) / SECOND;
  measures.push({ metric: 'unfocused: shortest wait between two polls of a job', unit: 's', ours: minGap, goal: '>= 60 s (1 per minute)', pass: minGap >= 60 });
  compare('unfocused: requests, export jobs', 'requests', 'unfocused', (s) => s.requests.export);
  compare('unfocused: export detection latency p50', 's', 'unfocused', (s) => s.p50.export);
  compare('unfocused: requests, agent jobs', 'requests', 'unfocused', (s) => s.requests.agent);
  compare('unfocused: agent detection latency p50', 's', 'unfocused', (s) => s.p50.agent);

  // The other workloads: ours (focused) against the 10 s poller, each reported on its own.
  const extra: string[] = [];
  const phaseNotes: string[] = [];
  for (const workload of WORKLOADS) {
    const ours: Summary[] = [];
    const fixed: Summary[] = [];
    let jobs: PlannedJob[] = [];
    for (let run = 0; run < runs; run++) {
      jobs = workload.plan(prng(seed + 101 * run + workload.name.length), options.quick);
      const t0 = Date.now();
      const [o, f] = [summarize(await runPolicy(jobs, POLICIES.ours)), summarize(await runPolicy(jobs, POLICIES.fixed10))];
      ours.push(o);
      fixed.push(f);
      const k: Kind = jobs[0]?.kind ?? 'export';
      const figures = `${o.requests[k]}/${f.requests[k]} requests (${ratio(o.requests[k], f.requests[k]).toFixed(2)}x), p50 ${o.p50[k].toFixed(2)}/${f.p50[k].toFixed(2)} s, p95 ${o.p95[k].toFixed(2)}/${f.p95[k].toFixed(2)} s`;
      options.log(`polling: ${workload.name}, run ${run + 1} of ${runs} (seed ${seed + 101 * run + workload.name.length}), ours/fixed 10 s: ${figures}; ${((Date.now() - t0) / SECOND).toFixed(1)} s`);
    }
    const kind: Kind = jobs[0]?.kind ?? 'export';
    const row = (metric: string, unit: string, pick: (s: Summary) => number, goal?: { goal: string; pass: (o: number, b: number) => boolean }) => {
      const o = median(ours.map(pick));
      const b = median(fixed.map(pick));
      measures.push({ metric: `${workload.name}: ${metric}`, unit, ours: o, min: Math.min(...ours.map(pick)), max: Math.max(...ours.map(pick)), baseline: b, baselineName: BASELINE_NAME.fixed10, ratio: ratio(o, b), ...(goal === undefined ? {} : { goal: goal.goal, pass: goal.pass(o, b) }) });
    };
    if (kind === 'export') {
      phaseNotes.push(phaseNote(workload.name, median(ours.map((s) => s.requests.export)), mergeTraces(ours.map((s) => s.trace))));
      row(`requests, ${jobs.length} export jobs`, 'requests', (s) => s.requests.export, { goal: '<= 0.5x the 10 s poller', pass: (o, b) => o <= 0.5 * b });
      row('export detection latency p50', 's', (s) => s.p50.export, { goal: 'lower than the 10 s poller', pass: (o, b) => o < b });
      row('export detection latency p95', 's', (s) => s.p95.export);
    } else {
      row(`requests, ${jobs.length} agent jobs`, 'requests', (s) => s.requests.agent, { goal: '<= 1.0x the 10 s poller', pass: (o, b) => o <= b });
      row('agent detection latency p50', 's', (s) => s.p50.agent, { goal: '<= 5 s', pass: (o) => o <= 5 });
      row('agent detection latency p95', 's', (s) => s.p95.agent);
    }
    extra.push(`${workload.name}: ${workload.what}`);
  }

  const notes = [
    `Workloads beyond the steady one (ours focused against the 10 s poller, ${runs} seed(s) each, medians with the lowest and highest): ${extra.join('; ')}. Created over the first ${options.quick ? '30 s' : '5 min'}, about 10 % failing (a failing export stops at 60 %).`,
    `${agents} agent jobs (1-${options.quick ? 3 : 15} min) and ${exports} export jobs (5-30 s queued, then ${options.quick ? '2-4' : '2-20'} min running), ` +
      `created over the first ${options.quick ? '30 s' : '5 min'}, about 10 % failing; seeded, ${runs} run(s) with different seeds, medians quoted. ` +
      'Ours is JobsService with the extension defaults (2 s floor, 60 s ceiling, 60 s unfocused); every job is tracked when created.',
    'Simulated time: one virtual clock drives every timer and the simulator (timeScale 1); requests are real HTTP over loopback but take no virtual time. ' +
      'Latency = when the client first holds the terminal status minus the job\'s true end; requests are counted from the simulator\'s log. ' +
      'Each ratio is a median over the seeds of ours divided by the median over the same seeds of the poller\'s (not a median of per-seed ratios, as the process benchmarks take).',
    'The fixed pollers read at once, then every N s until a terminal status (and stop). The documented example also stops after 60 polls (10 min); ' +
      `with that cap it would have given up on ${med('fixed10', (s) => s.over60)} of ${planned.length} jobs before they ended, so the baseline here polls without the cap.`,
  ];
  const unseen = Object.entries(results).filter(([, s]) => median(s.map((x) => x.unseen)) > 0);
  if (unseen.length > 0) notes.push(`Jobs never seen ending: ${unseen.map(([name, s]) => `${name} ${median(s.map((x) => x.unseen))}`).join(', ')}.`);
  // What the scheduler was seen to do, from the steady workload's reads (focused), and where each workload's export reads went.
  const steadyTrace = mergeTraces(results.ours.map((s) => s.trace));
  notes.push(...paceNotes(steadyTrace, { ours: med('ours', (s) => s.p50.agent), poller: med('fixed10', (s) => s.p50.agent) }));
  notes.push(phaseNote('steady', med('ours', (s) => s.requests.export), steadyTrace));
  notes.push(...phaseNotes);
  if (options.quick) notes.push('Quick (smoke) sizes: a handful of short jobs, too few for the goals to mean much; the full run is the measurement.');
  return { name: 'polling', measures, notes };
};
