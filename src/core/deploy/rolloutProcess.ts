/**
 * Runs a rollout command as a child process, for the CLI (the person's own command line, through
 * their shell) and the GitHub Action (argv from an input, no shell). Its output comes back a whole
 * line at a time (so a CI runner's `::command::` split across two chunks is still seen and
 * defused by the caller); a failure is a `RolloutError` with the exit code or signal.
 */
import * as l10n from '@vscode/l10n';
import { spawn, type SpawnOptionsWithStdioTuple, type StdioNull, type StdioPipe } from 'node:child_process';
import { RolloutError } from './errors';

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
}

export function runRolloutProcess(command: RolloutCommand, options: RolloutProcessOptions): Promise<void> {
  return new Promise((done, fail) => {
    const common: SpawnOptionsWithStdioTuple<StdioNull, StdioPipe, StdioPipe> = { stdio: ['ignore', 'pipe', 'pipe'], env: options.env, ...(options.signal === undefined ? {} : { signal: options.signal }) };
    const child = 'shell' in command ? spawn(command.shell, { ...common, shell: true }) : spawn(command.program, command.args, { ...common, shell: false });
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
