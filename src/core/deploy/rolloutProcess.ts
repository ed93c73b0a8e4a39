/**
 * Runs a rollout command as a child process, for the CLI (the person's own command line, through
 * their shell) and the GitHub Action (argv from an input, no shell). Its output comes back a whole
 * line at a time (so a CI runner's `::command::` split across two chunks is still seen and
 * defused by the caller); a failure is a `RolloutError` with the exit code or signal. A program
 * (argv form) runs as the file PATH names for it, never one in the folder it runs in.
 */
import * as l10n from '@vscode/l10n';
import { spawn, type SpawnOptionsWithStdioTuple, type StdioNull, type StdioPipe } from 'node:child_process';
import { RolloutError } from './errors';
import { resolveProgram, systemLookup } from './programPath';

export type RolloutCommand = { shell: string } | { program: string; args: string[] };

/**
 * The environment for a rollout: `env` without the admin key, and without any variable `drop`
 * names (a prefix such as `INPUT_`), compared whatever the case: on Windows a variable's name is
 * read case-insensitively, so `docs_admin_api_key` is the key there, and a copy of the
 * environment keeps whichever spelling it came with.
 */
export function rolloutEnvironment(env: NodeJS.ProcessEnv, dropPrefixes: readonly string[] = []): NodeJS.ProcessEnv {
  const prefixes = dropPrefixes.map((p) => p.toUpperCase());
  return Object.fromEntries(
    Object.entries(env).filter(([name]) => {
      const upper = name.toUpperCase();
      return upper !== 'DOCS_ADMIN_API_KEY' && !prefixes.some((p) => upper.startsWith(p));
    }),
  );
}

export interface RolloutProcessOptions {
  env: NodeJS.ProcessEnv;
  /** Each line the command prints (stdout and stderr), without its line break. */
  line: (text: string) => void;
  signal?: AbortSignal | undefined;
  /** Where it runs (this process's folder by default). */
  cwd?: string;
  /** Told the file a program (argv form) runs as, found on PATH (programPath.ts), before it starts. */
  ran?: (path: string) => void;
}

/**
 * The file `program` runs as: from PATH only, never from `cwd` (programPath.ts); a RolloutError
 * saying why when there is none.
 */
export function rolloutProgramPath(program: string, env: NodeJS.ProcessEnv, cwd: string): string {
  const found = resolveProgram(program, systemLookup(env, cwd));
  if (!found.ok) throw new RolloutError(l10n.t('The rollout command could not run: {0}.', found.reason));
  return found.path;
}

export function runRolloutProcess(command: RolloutCommand, options: RolloutProcessOptions): Promise<void> {
  return new Promise((done, fail) => {
    const cwd = options.cwd ?? process.cwd();
    const common: SpawnOptionsWithStdioTuple<StdioNull, StdioPipe, StdioPipe> = { stdio: ['ignore', 'pipe', 'pipe'], env: options.env, cwd, ...(options.signal === undefined ? {} : { signal: options.signal }) };
    let file: string | undefined;
    if (!('shell' in command)) {
      try {
        file = rolloutProgramPath(command.program, options.env, cwd);
      } catch (error) {
        fail(error instanceof Error ? error : new RolloutError(String(error)));
        return;
      }
      options.ran?.(file);
    }
    const child = 'shell' in command ? spawn(command.shell, { ...common, shell: true }) : spawn(file ?? command.program, command.args, { ...common, shell: false });
    const flushers = [child.stdout, child.stderr].map((stream) => {
      let rest = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop() ?? '';
        for (const text of lines) options.line(text);
      });
      return () => {
        if (rest !== '') options.line(rest);
        rest = '';
      };
    });
    child.on('error', (error) => fail(new RolloutError(l10n.t('The rollout command could not run: {0}.', error.message))));
    child.on('close', (code, sig) => {
      for (const flush of flushers) flush();
      if (code === 0) return done();
      fail(new RolloutError(sig === null ? l10n.t('The rollout command failed (exit code {0}).', String(code)) : l10n.t('The rollout command failed (signal {0}).', sig), code ?? undefined));
    });
  });
}
