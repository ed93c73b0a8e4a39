/**
 * `docs-admin`: the headless front end over src/core, for CI; its entry. The key comes from
 * DOCS_ADMIN_API_KEY only. The command line itself is run.ts, loaded here when a command runs
 * (`--version` alone loads nothing else); on a worker thread this file is the archive worker.
 */
import { isMainThread, workerData } from 'node:worker_threads';
import { version } from '../../package.json';
import type { Io } from './context';

// The CLI ships as one file, so the extraction's worker thread runs this same file: there it
// loads the extraction (and only there: a command loads what it needs when it runs, so that
// `--version` or `agent get` do not pay for the extractor, the HTTP client or the YAML parser).
// The site check's parse workers run it too (workerData says which).
if (!isMainThread) {
  void import('../core/site/workerData.js').then(({ isSiteWorker }) => (isSiteWorker(workerData) ? import('../core/site/worker.js') : import('../core/bundle/extract/extractWorker.js')));
}

if (require.main === module && isMainThread) {
  const argv = process.argv.slice(2);
  // `docs-admin --version` alone needs nothing else: no other part is loaded (BENCHMARKS.md, startup).
  if (argv.length === 1 && argv[0] === '--version') process.stdout.write(`${version}\n`);
  else void start(argv);
}

/** Runs the command line on `argv` in this process (exported: this file stays an ES module, so `module` above is the file's own). */
export async function start(argv: string[]): Promise<void> {
  const [{ run }, { baselineWasmUntilFirstAnswer, exposeMinorGc }] = await Promise.all([import('./run.js'), import('../core/v8Flags.js')]);
  // A download's dead buffers (Node's http allocates one per read and copies each body chunk into
  // another; zlib one per inflated chunk) are freed when V8 collects its young generation, which
  // so few small objects rarely fill, or after 64 MB of them: tens of MB held for nothing. So the
  // download asks for a minor collection every 2 MiB (about 0.1 ms each on this small heap), and
  // its archive check on its own thread (bench/HISTORY.md, the download).
  const gc = exposeMinorGc();
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.exitCode = await run(argv, {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    isTTY: process.stderr.isTTY,
    env: process.env,
    signal: controller.signal,
    stdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
      return Buffer.concat(chunks).toString('utf8');
    },
    extractWorker: __filename,
    siteWorker: __filename,
    collectGarbage: gc,
    beforeApi: baselineWasmUntilFirstAnswer(),
  });
}

/** The command line for a caller in this process (the reliability tests load the shipped bundle): run.ts, loaded when called. */
export async function run(argv: string[], io: Io): Promise<number> {
  return (await import('./run.js')).run(argv, io);
}
