/**
 * The action's rollout command: an input, so never handed to a shell. It is split into words as
 * a POSIX shell would (blanks between words; '…' literal; "…" with \", \\, \$ and \` escapes; a
 * backslash outside quotes escapes the next character) and run as a program with its arguments.
 * What only a shell does (pipes, `&&`, `;`, redirection, `$VAR`, subshells) is refused
 * when unquoted, with a clear message, rather than passed to the program as an odd argument.
 */
import * as l10n from '@vscode/l10n';
import { rolloutEnvironment, runRolloutProcess } from '../core/helm/rolloutProcess';
import { UsageError } from '../cli/exit';

export function splitCommand(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
      continue;
    }
    word ??= '';
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new UsageError(l10n.t('rollout-command: a quote (\') is not closed.'));
      word += text.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < text.length && text[j] !== '"'; j++) {
        const d = text[j] ?? '';
        if (d === '\\' && /["\\$`]/.test(text[j + 1] ?? '')) word += text[++j] ?? '';
        else if (d === '$' || d === '`') throw new UsageError(l10n.t('rollout-command runs without a shell, so "{0}" would not be expanded: write the value itself, or run a script.', d));
        else word += d;
      }
      if (j >= text.length) throw new UsageError(l10n.t('rollout-command: a quote (") is not closed.'));
      i = j;
    } else if (c === '\\') {
      if (i + 1 >= text.length) throw new UsageError(l10n.t('rollout-command ends with a backslash.'));
      word += text[++i] ?? '';
    } else if (/[|&;<>()$`]/.test(c)) {
      throw new UsageError(l10n.t('rollout-command runs without a shell, so "{0}" would not mean what it does in one: quote it, or run a script that does it.', c));
    } else {
      word += c;
    }
  }
  if (word !== undefined) words.push(word);
  if (words.length === 0) throw new UsageError(l10n.t('rollout-command is empty.'));
  return words;
}

/**
 * Runs the command (split by `splitCommand`) without a shell, with `env` minus the admin key and
 * the action's inputs (whatever the case of their names); each line it prints goes to `line`.
 */
export function rolloutRunner(command: string, env: NodeJS.ProcessEnv, line: (text: string) => void): (signal?: AbortSignal) => Promise<void> {
  const [program = '', ...args] = splitCommand(command);
  const childEnv = rolloutEnvironment(env, ['INPUT_']);
  // Which file runs (found on PATH, never in the workspace) is said before it starts.
  return (signal) => runRolloutProcess({ program, args }, { env: childEnv, line, signal, ran: (path) => line(l10n.t('The rollout runs {0}.', path)) });
}
