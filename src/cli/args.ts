/** The command line: which command, its arguments and options, and the help for each. */
import { parseArgs } from 'node:util';
import { checkAdminKey, checkProjectId } from '../core/jobs/input';
import { MissingKeyError, UsageError } from './exit';

export interface CommandSpec {
  /** `export download`, say. */
  name: string;
  args: string[];
  summary: string;
  options: Record<string, { type: 'string' | 'boolean'; value?: string; help: string }>;
}

const COMMON: CommandSpec['options'] = {
  'base-url': { type: 'string', value: '<url>', help: 'admin API base URL (or DOCS_ADMIN_BASE_URL)' },
  'project-id': { type: 'string', value: '<id>', help: 'project id (or DOCS_ADMIN_PROJECT_ID)' },
  'ca-file': { type: 'string', value: '<file>', help: 'extra CA certificates to trust, a PEM file (or DOCS_ADMIN_CA_FILE)' },
  json: { type: 'boolean', help: 'print machine-readable JSON on stdout' },
  verbose: { type: 'boolean', help: 'log requests to stderr, and show the stack of an error' },
  help: { type: 'boolean', help: 'show this help' },
};

const TIMEOUT = { type: 'string' as const, value: '<seconds>', help: 'give up after this many seconds (exit 5)' };

export const COMMANDS: CommandSpec[] = [
  { name: 'agent get', args: ['jobId'], summary: 'Show an agent job.', options: {} },
  { name: 'agent wait', args: ['jobId'], summary: 'Wait until an agent job ends; exit 1 when it failed.', options: { timeout: TIMEOUT } },
  { name: 'export start', args: ['domain'], summary: 'Start a static export of a domain; prints the job id.', options: { version: { type: 'string', value: '<v>', help: 'the export version to record' } } },
  { name: 'export status', args: ['jobId'], summary: 'Show an export job: status, progress, pages.', options: {} },
  { name: 'export wait', args: ['jobId'], summary: 'Wait until an export ends (progress on stderr when it is a terminal); exit 1 when it failed.', options: { timeout: TIMEOUT } },
  { name: 'export bundle', args: ['jobId'], summary: 'Generate the bundle link of a completed export; prints the link (and its expiry on stderr).', options: {} },
  {
    name: 'export download',
    args: ['jobId'],
    summary: 'Download the bundle of a completed export, verified and resumable.',
    options: { out: { type: 'string', value: '<file>', help: 'where to save it (required)' }, force: { type: 'boolean', help: 'replace an existing file (only once the new one is complete)' } },
  },
  {
    name: 'export extract',
    args: ['archive'],
    summary: 'Extract a bundle (tar.gz or zip) into a folder, refusing anything unsafe (exit 6).',
    options: {
      dir: { type: 'string', value: '<dir>', help: 'the folder to extract into (required)' },
      force: { type: 'boolean', help: 'replace what the folder holds (only once the new files are all in place)' },
      'max-entries': { type: 'string', value: '<n>', help: 'refuse an archive with more entries (default 100000)' },
      'max-total-mb': { type: 'string', value: '<n>', help: 'refuse an archive that expands to more (default 4096)' },
    },
  },
  {
    name: 'publish',
    args: ['domain'],
    summary: 'Export, wait, generate the bundle, update the Helm values, run the rollout.',
    options: {
      values: { type: 'string', value: '<file>', help: 'the Helm values file to update (required)' },
      version: { type: 'string', value: '<v>', help: 'pin staticExport.version' },
      rollout: { type: 'string', value: '"<command>"', help: 'the rollout command, e.g. "helm upgrade --install docs ./chart -f values.yaml"' },
      timeout: TIMEOUT,
    },
  },
];

export interface Parsed {
  spec: CommandSpec;
  args: string[];
  options: Record<string, string | boolean | undefined>;
}

export function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => `${c.name} ${c.args.map((a) => `<${a}>`).join(' ')}`.length));
  const lines = COMMANDS.map((c) => `  ${`${c.name} ${c.args.map((a) => `<${a}>`).join(' ')}`.padEnd(width)}  ${c.summary}`);
  return [
    'Usage: docs-admin <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'The admin key is read from DOCS_ADMIN_API_KEY only (never a flag: it would show in the process list).',
    'Every command takes --base-url, --project-id, --ca-file, --json, --verbose and --help.',
    '',
    'Network: HTTPS_PROXY names the proxy for https (HTTP_PROXY when it is not set), HTTP_PROXY the',
    'proxy for http (lower-case forms first), as http://<user>:<password>@proxy:port; NO_PROXY lists',
    'the hosts that bypass it (example.com, .example.com, 10.0.0.0/8, host:port, or *).',
    '--ca-file <file> (or DOCS_ADMIN_CA_FILE) adds the CA certificates of a PEM file to those',
    'trusted, for a proxy that inspects TLS or a private CA; NODE_EXTRA_CA_CERTS works as well.',
    '',
    'Exit codes: 0 success, 1 the job failed, 2 usage error, 3 authentication or permission,',
    '            4 not found, 5 network, server or timeout, 6 unsafe or invalid bundle.',
    '',
  ].join('\n');
}

export function commandUsage(spec: CommandSpec): string {
  const options = { ...spec.options, ...COMMON };
  const width = Math.max(...Object.entries(options).map(([n, o]) => `--${n}${o.value ? ` ${o.value}` : ''}`.length));
  return [
    `Usage: docs-admin ${spec.name} ${spec.args.map((a) => `<${a}>`).join(' ')} [options]`,
    '',
    spec.summary,
    '',
    'Options:',
    ...Object.entries(options).map(([n, o]) => `  ${`--${n}${o.value ? ` ${o.value}` : ''}`.padEnd(width)}  ${o.help}`),
    '',
  ].join('\n');
}

/** The command and its parts; `undefined` spec means top-level help or version. */
export function parse(argv: string[]): Parsed | { help: true; spec?: CommandSpec } | { version: true } {
  // A first, lenient pass: which words are the command (an option's value is not one).
  const stringOptions: Record<string, { type: 'string' }> = {};
  for (const c of COMMANDS) for (const [n, o] of Object.entries({ ...c.options, ...COMMON })) if (o.type === 'string') stringOptions[n] = { type: 'string' };
  const words = parseArgs({ args: argv, options: stringOptions, allowPositionals: true, strict: false }).positionals;
  const spec = COMMANDS.find((c) => {
    const parts = c.name.split(' ');
    return parts.every((p, i) => words[i] === p);
  });
  if (spec === undefined) {
    if (argv.includes('--version')) return { version: true };
    if (argv.length === 0 || argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') return { help: true };
    const guess = words.slice(0, 2).join(' ');
    throw new UsageError(`unknown command "${guess}". Run "docs-admin --help" for the list.`);
  }
  const options: Record<string, { type: 'string' | 'boolean' }> = {};
  for (const [name, o] of Object.entries({ ...spec.options, ...COMMON })) options[name] = { type: o.type };
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...options, h: { type: 'boolean' } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message.replace(/^Unknown option/, 'unknown option') : String(error)}. Run "docs-admin ${spec.name} --help".`);
  }
  const values: Record<string, string | boolean | undefined> = parsed.values;
  if (values.help === true || values.h === true) return { help: true, spec };
  const positionals = parsed.positionals.slice(spec.name.split(' ').length);
  if (positionals.length !== spec.args.length) {
    throw new UsageError(`"${spec.name}" takes ${spec.args.map((a) => `<${a}>`).join(' ')}${positionals.length > spec.args.length ? `, not ${positionals.slice(spec.args.length).map((p) => `"${p}"`).join(' ')}` : ''}. Run "docs-admin ${spec.name} --help".`);
  }
  return { spec, args: positionals, options: values };
}

/**
 * The admin key (from DOCS_ADMIN_API_KEY) checked with the project id before anything is sent:
 * blanks around it are dropped; blanks or characters inside, or the two swapped, are refused
 * without repeating either (a key in a project id would travel in a request's path).
 */
export function checkCredentials(rawKey: string, projectId: string): string {
  const key = checkAdminKey(rawKey);
  if (!key.ok && key.reason === 'Paste the admin key.') throw new MissingKeyError();
  if (!key.ok) throw new UsageError(`DOCS_ADMIN_API_KEY: ${key.reason}`);
  if (projectId !== '' && projectId === key.value) {
    throw new UsageError('DOCS_ADMIN_API_KEY and the project id (--project-id or DOCS_ADMIN_PROJECT_ID) hold the same value, so one of them was pasted in the wrong place; nothing was sent. The dashboard\'s API keys page shows both: the key goes only in DOCS_ADMIN_API_KEY.');
  }
  if (projectId !== '') {
    const project = checkProjectId(projectId, [key.value]);
    if (!project.ok) throw new UsageError(`the project id (--project-id or DOCS_ADMIN_PROJECT_ID): ${project.reason}`);
  }
  return key.value;
}
