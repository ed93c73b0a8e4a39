/**
 * `docs-admin`, once its entry (main.ts) has started it: the arguments parsed, the command run,
 * and every error turned into one clear line on stderr (a stack only with --verbose) and an exit
 * code; nothing printed to stderr ever holds the key or a presigned signature.
 */
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
