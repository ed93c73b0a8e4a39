/**
 * `npm run test:stress`: the host suites on a busy machine. A CPU hog keeps every core busy (one
 * `node -e 'for(;;){}'` per core) while the integration suite, the pseudo-locale suite and the
 * UI check run, three times in a row (`--runs N`); the hog is stopped after, whatever happened.
 * Each suite's exit code and time and the load averages while it ran go to a results file
 * (`--out`, default test/host/stress-results.json) with the commit measured; `--note` adds what
 * else the machine was doing. Exits non-zero unless every run passed.
 *
 * What it proves: the host tests wait for events, not for time, so a loaded machine makes them
 * slower but not red. See docs/testing.md.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';

const REPO = resolve(__dirname, '..', '..', '..');

interface Load {
  one: number;
  five: number;
  fifteen: number;
}

export interface SuiteResult {
  suite: string;
  exitCode: number;
  seconds: number;
  loadAtStart: Load;
  loadAtEnd: Load;
  /** The 1-minute load average, sampled every 10 s while the suite ran. */
  loadSampled: { min: number; mean: number; max: number };
}

export interface StressResults {
  what: string;
  commit: string;
  /** Uncommitted changes in the measured tree, if any (`git status --short`). */
  uncommitted: string[];
  date: string;
  machine: { cpus: number; model: string; memoryGiB: number };
  hog: { processes: number; command: string };
  /** The load averages before the hog started: what the rest of the machine was doing. */
  loadBeforeHog: Load;
  note: string;
  runs: { run: number; passed: boolean; seconds: number; suites: SuiteResult[] }[];
  passed: boolean;
}

const SUITES: { suite: string; args: string[] }[] = [
  { suite: 'integration', args: [join(REPO, 'out', 'test', 'host', 'run.js'), 'integration'] },
  { suite: 'pseudo-locale', args: [join(REPO, 'out', 'test', 'host', 'run.js'), 'pseudo-locale'] },
  { suite: 'UI check', args: [join(REPO, 'out', 'test', 'host', 'ui.js')] },
];

const HOG = 'for(;;){}';

function load(): Load {
  const [one = 0, five = 0, fifteen = 0] = loadavg();
  const round = (n: number) => Math.round(n * 100) / 100;
  return { one: round(one), five: round(five), fifteen: round(fifteen) };
}

function git(...args: string[]): string {
  return spawnSync('git', args, { cwd: REPO, encoding: 'utf8' }).stdout.trim();
}

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
}

/** Runs one suite to its end, its output passed through; resolves with what it took. */
function runSuite(suite: string, args: string[]): Promise<SuiteResult> {
  return new Promise((done, fail) => {
    const started = Date.now();
    const loadAtStart = load();
    const samples: number[] = [loadAtStart.one];
    const sampler = setInterval(() => samples.push(load().one), 10_000);
    const child = spawn(process.execPath, args, { cwd: REPO, stdio: 'inherit' });
    child.once('error', (error) => {
      clearInterval(sampler);
      fail(error);
    });
    child.once('exit', (code, signal) => {
      clearInterval(sampler);
      samples.push(load().one);
      const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
      done({
        suite,
        exitCode: code ?? (signal === null ? 1 : 128),
        seconds: Math.round((Date.now() - started) / 100) / 10,
        loadAtStart,
        loadAtEnd: load(),
        loadSampled: { min: Math.min(...samples), mean: Math.round(mean * 100) / 100, max: Math.max(...samples) },
      });
    });
  });
}

async function main(): Promise<number> {
  const runs = Number(argument('--runs') ?? 3);
  const out = resolve(argument('--out') ?? join(REPO, 'test', 'host', 'stress-results.json'));
  const results: StressResults = {
    what: `the host suites (${SUITES.map((s) => s.suite).join(', ')}) ${runs} times in a row, with a CPU hog on every core`,
    commit: git('rev-parse', 'HEAD'),
    uncommitted: git('status', '--short').split('\n').filter((line) => line !== ''),
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', memoryGiB: Math.round(totalmem() / 2 ** 30) },
    hog: { processes: cpus().length, command: `node -e '${HOG}'` },
    loadBeforeHog: load(),
    note: argument('--note') ?? '',
    runs: [],
    passed: false,
  };
  const hogs: ChildProcess[] = [];
  const stopHogs = () => {
    for (const hog of hogs) if (hog.exitCode === null && hog.signalCode === null) hog.kill('SIGKILL');
  };
  const interrupted = () => {
    stopHogs();
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    for (let i = 0; i < results.hog.processes; i++) hogs.push(spawn(process.execPath, ['-e', HOG], { stdio: 'ignore' }));
    console.log(`stress: ${hogs.length} hog processes (${hogs.map((h) => h.pid).join(', ')}) keep the ${hogs.length} cores busy; load before them ${JSON.stringify(results.loadBeforeHog)}`);
    for (let run = 1; run <= runs; run++) {
      const started = Date.now();
      const suites: SuiteResult[] = [];
      for (const { suite, args } of SUITES) {
        console.log(`\n=== stress run ${run} of ${runs}: ${suite} (load ${JSON.stringify(load())})`);
        const result = await runSuite(suite, args);
        suites.push(result);
        console.log(`=== stress run ${run} of ${runs}: ${suite} exit ${result.exitCode} after ${result.seconds} s (load sampled ${JSON.stringify(result.loadSampled)})`);
      }
      results.runs.push({ run, passed: suites.every((s) => s.exitCode === 0), seconds: Math.round((Date.now() - started) / 100) / 10, suites });
      writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
    }
  } finally {
    stopHogs();
  }
  results.passed = results.runs.length === runs && results.runs.every((r) => r.passed);
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nstress: ${results.runs.filter((r) => r.passed).length} of ${runs} runs passed (${results.runs.map((r) => `${r.seconds} s`).join(', ')}); the hog is stopped; results in ${out}`);
  return results.passed ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  },
);
