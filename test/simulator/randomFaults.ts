/**
 * Random faults, for soak tests: a seeded share of the requests to some routes meets a fault
 * drawn from a weighted mix (5xx, 429 with Retry-After, resets, stalls, malformed bodies).
 * Seeded, so a failing run can be replayed.
 */
import type { FaultSpec, RouteName } from './types';

export interface RandomFaultMixItem {
  /** A short name, for the counts. */
  label: string;
  weight: number;
  /** The fault; `now` is the simulator's clock (for a `Retry-After` date). */
  fault: (now: number) => FaultSpec;
}

export interface RandomFaultOptions {
  /** The share of requests that meet a fault, 0 to 1. */
  rate: number;
  seed: number;
  /** Default: the API's two GET routes (`agent.get`, `export.status`). */
  routes?: RouteName[];
  /** Default: `DEFAULT_MIX`. */
  mix?: RandomFaultMixItem[];
}

/** Mulberry32: small, fast, good enough to spread faults. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const status = (code: number, headers?: Record<string, string>): FaultSpec => ({ kind: 'status', status: code, body: { error: `simulated ${code}` }, ...(headers === undefined ? {} : { headers }) });

export const DEFAULT_MIX: RandomFaultMixItem[] = [
  { label: '500', weight: 1, fault: () => status(500) },
  { label: '502 HTML page', weight: 1, fault: () => ({ kind: 'malformed', status: 502, body: '<html><body><h1>502 Bad Gateway</h1></body></html>' }) },
  { label: '503', weight: 1, fault: () => status(503, { 'retry-after': '2' }) },
  { label: '504', weight: 1, fault: () => status(504) },
  { label: '429 Retry-After 5 s', weight: 1, fault: () => status(429, { 'retry-after': '5' }) },
  { label: '429 Retry-After 90 s', weight: 0.5, fault: () => status(429, { 'retry-after': '90' }) },
  { label: '429 Retry-After date', weight: 0.5, fault: (now) => status(429, { 'retry-after': new Date(now + 20_000).toUTCString() }) },
  { label: 'reset', weight: 1, fault: () => ({ kind: 'reset' }) },
  { label: 'stall', weight: 1, fault: () => ({ kind: 'stall', afterBytes: 10 }) },
  { label: 'truncated body', weight: 0.5, fault: () => ({ kind: 'truncate', afterBytes: 20 }) },
  { label: 'HTML page (200)', weight: 0.5, fault: () => ({ kind: 'malformed', status: 200, body: '<!doctype html><title>Sign in</title>' }) },
  { label: 'not JSON', weight: 0.5, fault: () => ({ kind: 'malformed', status: 200, contentType: 'application/json', body: '{"status": "run' }) },
  { label: 'empty body', weight: 0.5, fault: () => ({ kind: 'malformed', status: 200, contentType: 'application/json', body: '' }) },
  { label: 'wrong shape', weight: 0.5, fault: () => ({ kind: 'status', status: 200, body: { ok: true, data: [] } }) },
];

export class RandomFaults {
  private readonly random: () => number;
  private readonly routes: ReadonlySet<string>;
  private readonly mix: RandomFaultMixItem[];
  private readonly total: number;
  /** How many of each fault were served, by label. */
  readonly counts: Record<string, number> = {};

  constructor(private readonly options: RandomFaultOptions) {
    this.random = seededRandom(options.seed);
    this.routes = new Set(options.routes ?? ['agent.get', 'export.status']);
    this.mix = options.mix ?? DEFAULT_MIX;
    this.total = this.mix.reduce((sum, item) => sum + item.weight, 0);
  }

  /** A fault for this request, or undefined (most of the time). */
  take(route: RouteName | 'unknown', now: number): FaultSpec | undefined {
    if (!this.routes.has(route) || this.random() >= this.options.rate) return undefined;
    let pick = this.random() * this.total;
    for (const item of this.mix) {
      pick -= item.weight;
      if (pick < 0) {
        this.counts[item.label] = (this.counts[item.label] ?? 0) + 1;
        return item.fault(now);
      }
    }
    return undefined;
  }
}
