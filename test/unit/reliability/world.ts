/**
 * Where the API faults happen: the simulator (faults per route), a raw TCP front before it
 * (a refused connection that comes and goes on the same address), and a resolver that fails
 * for one host name until told otherwise (a DNS failure that heals).
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { Agent } from 'undici';
import { Simulator, TcpFront, type KeySpec } from '../../simulator';

export const KEY = 'da_reliability_key_5e1f9a0c77';
/** The jobs every row works on: an agent job and an export job, both running. */
export const AGENT_ID = 'agent-rel-1';
export const EXPORT_ID = 'export-rel-1';
export const READ_ONLY_KEY = 'da_reliability_readonly_4c2b8e';
/** A host name no resolver knows (`.test` is reserved): resolved to loopback only while `dns.up`. */
export const FLAKY_HOST = 'docs-admin-api.test';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export interface World {
  sim: Simulator;
  front: TcpFront;
  dns: { up: boolean };
  /** An undici Agent whose resolver knows FLAKY_HOST while `dns.up` (other names: the system's). */
  dispatcher: Agent;
  /** FLAKY_HOST on the simulator's port. */
  flakyUrl: string;
  close(): Promise<void>;
}

export async function startWorld(options: { keys?: KeySpec[]; timeScale?: number } = {}): Promise<World> {
  const sim = await Simulator.start({ keys: options.keys ?? [{ key: KEY }, { key: READ_ONLY_KEY, readOnly: true }], timeScale: options.timeScale ?? 1 });
  const front = await TcpFront.start(sim.baseUrl);
  const dns = { up: true };
  const lookup = (hostname: string, opts: LookupOptions, callback: LookupCallback) => {
    if (hostname === FLAKY_HOST && dns.up) {
      if (opts.all === true) callback(null, [{ address: '127.0.0.1', family: 4 }]);
      else callback(null, '127.0.0.1', 4);
      return;
    }
    if (hostname === FLAKY_HOST) {
      // Down: what getaddrinfo answers for a name nobody knows, at once (the system resolver can be slow under load).
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', errno: -3008, syscall: 'getaddrinfo', hostname }), '');
      return;
    }
    dnsLookup(hostname, opts, callback);
  };
  const dispatcher = new Agent({ connect: { lookup, timeout: 1_000 } });
  return {
    sim,
    front,
    dns,
    dispatcher,
    flakyUrl: `http://${FLAKY_HOST}:${new URL(sim.baseUrl).port}`,
    close: async () => {
      await dispatcher.close();
      await front.stop();
      await sim.stop();
    },
  };
}

/** The two jobs the client and CLI rows call: both running for ten minutes. */
export function seedJobs(w: World): void {
  w.sim.addAgentJob({ id: AGENT_ID, durationMs: 10 * 60_000 });
  w.sim.addExportJob({ jobId: EXPORT_ID, queuedMs: 0, durationMs: 10 * 60_000 });
}
