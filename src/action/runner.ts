/**
 * The GitHub Actions runner's side of an action, without a library: inputs from `INPUT_<NAME>`
 * variables, outputs appended to the `$GITHUB_OUTPUT` file (the delimited form, so no value can
 * add another output), the job summary appended to `$GITHUB_STEP_SUMMARY`, and workflow commands
 * on stdout (`::add-mask::`, `::error::`, …) with their data escaped as the runner expects.
 * Follows @actions/core's rules (getInput, setOutput, setSecret, issueCommand).
 */
import * as l10n from '@vscode/l10n';
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { EOL } from 'node:os';
import { INPUTS, type InputName, type OutputName } from './spec';

export interface RunnerIo {
  env: NodeJS.ProcessEnv;
  /** Writes to stdout, which the runner reads for workflow commands and shows as the log. */
  write(text: string): void;
  appendFile(path: string, text: string): void;
}

export function processIo(): RunnerIo {
  return { env: process.env, write: (text) => process.stdout.write(text), appendFile: (path, text) => appendFileSync(path, text, 'utf8') };
}

/** `%`, CR and LF, in a workflow command's message. */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** And `:` and `,`, in a property's value. */
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** The variable the runner sets for an input: `INPUT_` and its name upper-cased, spaces as `_` (hyphens kept). */
export function inputVariable(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;
}

export class Runner {
  constructor(private readonly io: RunnerIo) {}

  get env(): NodeJS.ProcessEnv {
    return this.io.env;
  }

  /** The input, trimmed; its default when the runner gave none (a run outside a workflow). */
  input(name: InputName): string {
    const value = (this.io.env[inputVariable(name)] ?? '').trim();
    const spec = INPUTS[name];
    return value === '' && 'default' in spec ? spec.default : value;
  }

  command(name: string, message: string, properties: Record<string, string> = {}): void {
    const props = Object.entries(properties)
      .map(([key, value]) => `${key}=${escapeProperty(value)}`)
      .join(',');
    this.io.write(`::${name}${props === '' ? '' : ` ${props}`}::${escapeData(message)}${EOL}`);
  }

  /** From now on the runner shows `secret` as `***` wherever it appears in the log. */
  mask(secret: string): void {
    if (secret !== '') this.command('add-mask', secret);
  }

  /** A line of the log (the caller has made it safe: see `forTerminal`). */
  log(text: string): void {
    this.io.write(`${text}${EOL}`);
  }

  error(message: string, title: string): void {
    this.command('error', message, { title });
  }

  warning(message: string): void {
    this.command('warning', message);
  }

  debug(message: string): void {
    this.command('debug', message);
  }

  output(name: OutputName, value: string): void {
    const file = this.io.env.GITHUB_OUTPUT;
    if (file === undefined || file === '') {
      // An old runner, or a run by hand: the deprecated command still works there.
      this.io.write(`${EOL}::set-output name=${name}::${escapeData(value)}${EOL}`);
      return;
    }
    const delimiter = `ghadelimiter_${randomUUID()}`;
    // A value holding the delimiter could end it early and add outputs of its own.
    if (value.includes(delimiter)) throw new Error(l10n.t('The value of the output {0} holds its delimiter.', name));
    this.io.appendFile(file, `${name}<<${delimiter}${EOL}${value}${EOL}${delimiter}${EOL}`);
  }

  /** Appends Markdown to the job summary (nothing when the runner offers none). */
  summary(markdown: string): void {
    const file = this.io.env.GITHUB_STEP_SUMMARY;
    if (file !== undefined && file !== '') this.io.appendFile(file, markdown);
  }
}
