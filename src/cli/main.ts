/**
 * `docs-admin`: the headless front end over src/core, for CI. The key comes from
 * DOCS_ADMIN_API_KEY only. One clear line on stderr per error (a stack only with --verbose);
 * nothing printed to stderr ever holds the key or a presigned signature.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isMainThread } from 'node:worker_threads';
import { version } from '../../package.json';
import { adminKeyForms } from '../core/jobs/input';
import type { Logger } from '../core/log';
import { redactSecrets } from '../core/redact';
import { forTerminal } from '../core/untrusted';
import { commandUsage, parse, usage } from './args';
import { runCommand } from './commands';
import { connect, terminalSafe, type Io } from './context';
import { EXIT, exitCodeOf } from './exit';

function stderrLogger(io: Io, verbose: boolean, secrets: () => string[]): Logger {
  const write = (level: string) => (message: string) => io.err(`[${level}] ${redactSecrets(message, secrets())}\n`);
  const quiet = () => undefined;
  return { trace: quiet, debug: verbose ? write('debug') : quiet, info: verbose ? write('info') : quiet, warn: write('warn'), error: write('error') };
}

export async function run(argv: string[], given: Io): Promise<number> {
  // Every byte printed from here on is made safe for a terminal and a CI log.
  const io = terminalSafe(given);
  const verbose = argv.includes('--verbose');
  // The key sent and the value as given ("Bearer <key>" says the key too).
  const secrets = () => adminKeyForms(io.env.DOCS_ADMIN_API_KEY ?? '').secrets;
  let close: (() => Promise<void>) | undefined;
  try {
    const parsed = parse(argv);
    if ('version' in parsed) {
      io.out(`${version}\n`);
      return EXIT.ok;
    }
    if ('help' in parsed) {
      io.out(parsed.spec === undefined ? usage() : commandUsage(parsed.spec));
      return EXIT.ok;
    }
    const ctx = connect(parsed, io, stderrLogger(io, verbose, secrets));
    close = () => ctx.close();
    return await runCommand(parsed, ctx);
  } catch (error) {
    const code = await exitCodeOf(error);
    const message = error instanceof Error ? error.message : String(error);
    // An error's message may quote the server: shown as text, never as escape sequences or CI commands.
    io.err(`docs-admin: ${forTerminal(redactSecrets(message, secrets()))}\n`);
    if (verbose && error instanceof Error && error.stack !== undefined) io.err(`${redactSecrets(error.stack, secrets())}\n`);
    return code;
  } finally {
    await close?.();
  }
}

// The CLI ships as one file, so the extraction's worker thread runs this same file: there it
// loads the extraction (and only there: a command loads what it needs when it runs, so that
// `--version` or `agent get` do not pay for the extractor, the HTTP client or the YAML parser).
if (!isMainThread) void import('../core/bundle/extract/extractWorker.js');

if (require.main === module && isMainThread) {
  // The HTTP client's parser (undici's llhttp) is WebAssembly: V8 compiles it twice, a baseline
  // and then optimised code, and the second compile raised every API command's peak RSS from
  // about 64 to 96 MiB (a bare undici request here: 99 -> 64 MiB with the baseline only). API
  // replies are a few KB, and downloads do not go through undici, so the baseline is enough.
  // Set before undici loads; it applies to this process only (the CLI), never to the editor.
  setFlagsFromString('--liftoff-only');
  // A download's dead buffers (Node's http allocates one per read and copies each body chunk into
  // another; zlib one per inflated chunk) are freed when V8 collects its young generation, which
  // so few small objects rarely fill, or after 64 MB of them: tens of MB held for nothing. So the
  // download asks for a minor collection every 2 MiB (about 0.1 ms each on this small heap). V8
  // hands out its gc() only to contexts made after the flag (see BENCHMARKS.md, the download).
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options: { type: 'minor' }) => void;
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  void run(process.argv.slice(2), {
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
    collectGarbage: () => gc({ type: 'minor' }),
  }).then((code) => {
    process.exitCode = code;
  });
}
