/**
 * Whole processes, timed as a user sees them: wall time from spawn to exit (Node's start and
 * module loading included), and, through GNU time (`/usr/bin/time`), the process's CPU time
 * and peak RSS (its children's too: tar's gzip). Without GNU time, CPU and RSS are NaN.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Variables removed from every measured process's environment, ours and the baselines' alike.
 * NODE_EXTRA_CA_CERTS makes every Node process parse that bundle at its start: on the machine
 * the benchmarks were written on it is set machine-wide, and cost `node -e 0` 80 ms of CPU (100
 * ms against 20), which curl and tar do not pay and the https benchmarks do not need (the test
 * CA is given with --ca-file and --cacert).
 */
const UNSET = ['NODE_EXTRA_CA_CERTS'];
export const MEASURED_ENVIRONMENT = `${UNSET.join(', ')} unset for every measured process`;

/** The built CLI (`node esbuild.mjs`), as `npm run bench` runs it from out/bench. */
export const CLI = resolve(__dirname, '..', '..', 'dist', 'cli.js');
const GNU_TIME = '/usr/bin/time';

export interface ProcessRun {
  /** Spawn to exit. */
  ms: number;
  /** User + system, the process and the children it waited for. */
  cpuMs: number;
  /** The largest resident set of the process or of one of its children. */
  peakKb: number;
  stdout: string;
  stderr: string;
  /** The exit code (one of those the caller accepted). */
  exitCode: number;
}

export function hasGnuTime(): boolean {
  return existsSync(GNU_TIME);
}

/**
 * Runs a command to its end without blocking this process (a simulator may serve from it).
 * `converse`, when given, has the child's stdin and stdout: it writes, reads, and ends stdin
 * when done (an MCP exchange); it answers the time (ms after spawn) of the moment it measures.
 * `exitCodes`: the codes that end a run normally (`docs-admin check` exits 1 when it finds an
 * error, as on the corpus); any other fails the measurement.
 */
export function timedProcess(command: string, args: string[], env: NodeJS.ProcessEnv = process.env, cwd?: string, converse?: (child: ChildProcessWithoutNullStreams, t0: bigint) => Promise<number>, exitCodes: readonly number[] = [0]): Promise<ProcessRun & { answeredMs?: number }> {
  const gnu = hasGnuTime();
  const scratch = gnu ? mkdtempSync(join(tmpdir(), 'docs-admin-bench-time-')) : undefined;
  const report = scratch === undefined ? undefined : join(scratch, 'time');
  const argv = report === undefined ? [command, ...args] : [GNU_TIME, '-f', '%U %S %M', '-o', report, command, ...args];
  return new Promise((done, fail) => {
    const t0 = process.hrtime.bigint();
    const options = { env: Object.fromEntries(Object.entries(env).filter(([name]) => !UNSET.includes(name))), ...(cwd === undefined ? {} : { cwd }) };
    // stdin a pipe only for a conversation; otherwise none, as before.
    const talking = converse === undefined ? undefined : spawn(argv[0] ?? command, argv.slice(1), { ...options, stdio: ['pipe', 'pipe', 'pipe'] });
    const child = talking ?? spawn(argv[0] ?? command, argv.slice(1), { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let answeredMs: number | undefined;
    if (talking !== undefined) converse?.(talking, t0).then((ms) => (answeredMs = ms), fail);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', fail);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      let [user, system, peak] = [NaN, NaN, NaN];
      if (report !== undefined) {
        const line = readFileSync(report, 'utf8').trim().split('\n').at(-1) ?? '';
        [user, system, peak] = line.split(' ').map(Number) as [number, number, number];
      }
      if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
      if (code !== null && exitCodes.includes(code)) done({ ms, cpuMs: (user + system) * 1000, peakKb: peak, stdout, stderr, exitCode: code, ...(answeredMs === undefined ? {} : { answeredMs }) });
      else fail(new Error(`${command} ${args[0] ?? ''} exited with ${code}: ${stderr.trim().slice(0, 500)}`));
    });
  });
}

/** Environment for the CLI against a simulator. */
export function cliEnv(sim: { baseUrl: string; projectId: string; key: string }): NodeJS.ProcessEnv {
  return { ...process.env, DOCS_ADMIN_API_KEY: sim.key, DOCS_ADMIN_BASE_URL: sim.baseUrl, DOCS_ADMIN_PROJECT_ID: sim.projectId };
}

/**
 * Runs `steps` in rounds, `rounds` times, the order turning each round (A B C, B C A, C A B...),
 * so that no tool always runs first after a pause or right after another's writes.
 */
export async function interleaved(rounds: number, steps: readonly ((round: number) => Promise<void>)[]): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < steps.length; k++) await steps[(round + k) % steps.length]?.(round);
  }
}

/**
 * Writes out what earlier runs left dirty in the page cache (`sync`, untimed), so that a tool
 * does not pay for the write-back of the run before it: on a VM disk that made the same tar
 * take 7, 12, then 18 s in a row.
 */
export function settleDisk(): void {
  spawnSync('sync', { stdio: 'ignore' });
}
