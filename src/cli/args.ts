/** The command line: which command, its arguments and options, and the help for each. */
import * as l10n from '@vscode/l10n';
import { parseArgs } from 'node:util';
import { checkAdminKey, checkProjectId } from '../core/jobs/input';
import { EXTRACT_DEFAULTS } from '../core/bundle/extract/limits';
import { MissingKeyError, UsageError } from './exit';

export interface CommandSpec {
  /** `export download`, say. */
  name: string;
  args: string[];
  summary: string;
  options: Record<string, { type: 'string' | 'boolean'; value?: string; help: string }>;
}

/** The options every command takes (their help in the display language: built when asked). */
function commonOptions(): CommandSpec['options'] {
  return {
    'base-url': { type: 'string', value: '<url>', help: l10n.t('admin API base URL (or DOCS_ADMIN_BASE_URL)') },
    'project-id': { type: 'string', value: '<id>', help: l10n.t('project id (or DOCS_ADMIN_PROJECT_ID)') },
    'ca-file': { type: 'string', value: '<file>', help: l10n.t('extra CA certificates to trust, a PEM file (or DOCS_ADMIN_CA_FILE)') },
    json: { type: 'boolean', help: l10n.t('print machine-readable JSON on stdout') },
    verbose: { type: 'boolean', help: l10n.t('log requests to stderr, and show the stack of an error') },
    help: { type: 'boolean', help: l10n.t('show this help') },
  };
}

function timeoutOption(): CommandSpec['options'][string] {
  return { type: 'string', value: '<seconds>', help: l10n.t('give up after this many seconds (exit 5)') };
}

/** The options of the commands that send a prompt to the agent. */
function promptOptions(): CommandSpec['options'] {
  return {
    prompt: { type: 'string', value: '<text>', help: l10n.t('the prompt, sent unchanged') },
    'prompt-file': { type: 'string', value: '<file>', help: l10n.t('read the prompt from a file ("-": standard input), sent unchanged') },
    wait: { type: 'boolean', help: l10n.t('follow the job to its end and show its pull request; exit 1 when it failed') },
    timeout: timeoutOption(),
  };
}

/** The options of the analytics commands. */
function analyticsOptions(extra: CommandSpec['options'] = {}): CommandSpec['options'] {
  return {
    from: { type: 'string', value: '<date>', help: l10n.t('the first day, YYYY-MM-DD (or ISO 8601 with a time and zone); required') },
    to: { type: 'string', value: '<date>', help: l10n.t('the day after the last, exclusive, as the API takes it; required') },
    limit: { type: 'string', value: '<n>', help: l10n.t('at most this many rows (pages are read only as far as needed)') },
    format: { type: 'string', value: '<table|json|csv>', help: l10n.t('how to print the rows (default table; csv neutralises cells a spreadsheet would run as formulas)') },
    ...extra,
  };
}

function analyticsCommands(): CommandSpec[] {
  const feedbackFilters: CommandSpec['options'] = {
    source: { type: 'string', value: '<source>', help: l10n.t('only this source: contextual, code_snippet, agent or thumbs_only') },
    status: { type: 'string', value: '<a,b>', help: l10n.t('only these review statuses: pending, in_progress, resolved, dismissed') },
  };
  return [
    { name: 'analytics pages', args: [], summary: l10n.t('Feedback counts per page: thumbs down and up, code-block feedback, total (at most 100 pages).'), options: analyticsOptions(feedbackFilters) },
    {
      name: 'analytics feedback',
      args: [],
      summary: l10n.t("Readers' feedback: comments with their status and source, code-block feedback with the block."),
      options: analyticsOptions({ ...feedbackFilters, 'include-contact': { type: 'boolean', help: l10n.t('also print the contact address a reader left (personal data; left out otherwise)') } }),
    },
    { name: 'analytics questions', args: [], summary: l10n.t('Questions the docs assistant could not answer, with the page where they were asked.'), options: analyticsOptions({ all: { type: 'boolean', help: l10n.t('every conversation, answered ones too') } }) },
    { name: 'analytics searches', args: [], summary: l10n.t('Searches on the docs site, most frequent first, with their click-through rate and top clicked page.'), options: analyticsOptions() },
    { name: 'analytics views', args: [], summary: l10n.t('Page views per page, humans and AI agents apart.'), options: analyticsOptions() },
    { name: 'analytics visitors', args: [], summary: l10n.t('Distinct visitors per page, humans and AI agents apart.'), options: analyticsOptions() },
  ];
}

/** Every command, with its help. */
export function commands(): CommandSpec[] {
  return [
    { name: 'agent get', args: ['jobId'], summary: l10n.t('Show an agent job.'), options: {} },
    { name: 'agent wait', args: ['jobId'], summary: l10n.t('Wait until an agent job ends; exit 1 when it failed.'), options: { timeout: timeoutOption() } },
    {
      name: 'agent create',
      args: [],
      summary: l10n.t('Ask the agent for a change: create a job from a prompt; prints its id (--json: the job).'),
      options: promptOptions(),
    },
    {
      name: 'agent message',
      args: ['jobId'],
      summary: l10n.t('Send a follow-up instruction to an agent job (it becomes active again).'),
      options: promptOptions(),
    },
    {
      name: 'export start',
      args: ['domain'],
      summary: l10n.t('Start a static export of a domain; prints the job id.'),
      options: { version: { type: 'string', value: '<v>', help: l10n.t('the export version to record') } },
    },
    { name: 'export status', args: ['jobId'], summary: l10n.t('Show an export job: status, progress, pages.'), options: {} },
    {
      name: 'export wait',
      args: ['jobId'],
      summary: l10n.t('Wait until an export ends (progress on stderr when it is a terminal); exit 1 when it failed.'),
      options: { timeout: timeoutOption() },
    },
    { name: 'export bundle', args: ['jobId'], summary: l10n.t('Generate the bundle link of a completed export; prints the link (and its expiry on stderr).'), options: {} },
    {
      name: 'export download',
      args: ['jobId'],
      summary: l10n.t('Download the bundle of a completed export, verified and resumable.'),
      options: {
        out: { type: 'string', value: '<file>', help: l10n.t('where to save it (required)') },
        force: { type: 'boolean', help: l10n.t('replace an existing file (only once the new one is complete)') },
        connections: { type: 'string', value: '<n>', help: l10n.t('byte ranges fetched at once for a bundle of 64 MiB or more (default 4; 1: one connection)') },
      },
    },
    {
      name: 'export extract',
      args: ['archive'],
      summary: l10n.t('Extract a bundle (tar.gz or zip) into a folder, refusing anything unsafe (exit 6).'),
      options: {
        dir: { type: 'string', value: '<dir>', help: l10n.t('the folder to extract into (required)') },
        force: { type: 'boolean', help: l10n.t('replace what the folder holds (only once the new files are all in place)') },
        'max-entries': { type: 'string', value: '<n>', help: l10n.t('refuse an archive with more entries (default {0})', EXTRACT_DEFAULTS.maxEntries) },
        'max-total-mb': { type: 'string', value: '<n>', help: l10n.t('refuse an archive that expands to more megabytes (default {0})', EXTRACT_DEFAULTS.maxTotalMegabytes) },
        'max-compression-ratio': { type: 'string', value: '<n>', help: l10n.t('refuse an archive, or a file in it, that expands more than this many times over (default {0})', EXTRACT_DEFAULTS.maxCompressionRatio) },
        'ratio-check-after-mb': { type: 'string', value: '<n>', help: l10n.t('the megabytes that may come out before the ratio counts (default {0})', EXTRACT_DEFAULTS.ratioCheckAfterMegabytes) },
      },
    },
    {
      name: 'deploy status',
      args: ['statusId'],
      summary: l10n.t('Show a deployment or preview by its status id (--wait: follow it to its end; exit 1 when it failed).'),
      options: { wait: { type: 'boolean', help: l10n.t('follow it to its end; on a failure, its last log lines on stderr and exit 1') }, timeout: timeoutOption() },
    },
    {
      name: 'deploy',
      args: [],
      summary: l10n.t("Deploy the docs: the project's deployment branch to production; prints the status id."),
      options: { wait: { type: 'boolean', help: l10n.t('follow it to its end; on a failure, its last log lines on stderr and exit 1') }, timeout: timeoutOption() },
    },
    {
      name: 'preview',
      args: ['branch'],
      summary: l10n.t('Preview a branch (a new preview, or its redeploy at the same URL); prints the preview URL.'),
      options: { wait: { type: 'boolean', help: l10n.t('follow it until the preview is ready; on a failure, its last log lines on stderr and exit 1') }, timeout: timeoutOption() },
    },
    { name: 'automation run', args: ['automationId'], summary: l10n.t("Run a scheduled automation now (its id is in the automation's settings on the dashboard); prints the run's id."), options: {} },
    {
      name: 'publish',
      args: ['domain'],
      summary: l10n.t('Export, wait, generate the bundle, update the Helm values, run the rollout.'),
      options: {
        values: { type: 'string', value: '<file>', help: l10n.t('the Helm values file to update (required)') },
        version: { type: 'string', value: '<v>', help: l10n.t('pin staticExport.version') },
        rollout: { type: 'string', value: '"<command>"', help: l10n.t('the rollout command, e.g. "helm upgrade --install docs ./chart -f values.yaml"') },
        timeout: timeoutOption(),
        'allow-http-bundle': { type: 'boolean', help: l10n.t('write a plain http: bundle link to a remote host into the values (refused by default: it travels unencrypted)') },
      },
    },
    ...analyticsCommands(),
    {
      name: 'check',
      args: [],
      summary: l10n.t('Check the docs site in a folder: broken links and anchors, missing snippets, navigation entries and redirects. Exit 1 when an error is found. Needs no key.'),
      options: {
        root: { type: 'string', value: '<folder>', help: l10n.t('the docs root, the folder that holds docs.json (default: the current folder)') },
        format: { type: 'string', value: '<text|json|sarif|github>', help: l10n.t('how to print the problems (default text; github: annotations on the lines, for a workflow)') },
        'min-severity': { type: 'string', value: '<error|warning|info|hint>', help: l10n.t('print problems of this severity and above (default warning)') },
        cache: { type: 'string', value: '<file>', help: l10n.t('keep what was parsed in this file (default: a file in the user cache folder)') },
        'no-cache': { type: 'boolean', help: l10n.t('parse every file again, and keep nothing') },
      },
    },
    {
      name: 'mcp',
      args: [],
      summary: l10n.t('Serve the Docs Admin tools to an AI assistant (an MCP server on stdio): job, export and deployment status, reader signals, unanswered questions; ask the agent, follow up, preview, deploy.'),
      options: {},
    },
  ];
}

export interface Parsed {
  spec: CommandSpec;
  args: string[];
  options: Record<string, string | boolean | undefined>;
}

export function usage(): string {
  const all = commands();
  const width = Math.max(...all.map((c) => `${c.name} ${c.args.map((a) => `<${a}>`).join(' ')}`.length));
  const lines = all.map((c) => `  ${`${c.name} ${c.args.map((a) => `<${a}>`).join(' ')}`.padEnd(width)}  ${c.summary}`);
  return [
    l10n.t('Usage: docs-admin <command> [options]'),
    '',
    l10n.t('Commands:'),
    ...lines,
    '',
    l10n.t('The admin key is read from DOCS_ADMIN_API_KEY only (never a flag: it would show in the process list).'),
    l10n.t('Every command takes --base-url, --project-id, --ca-file, --json, --verbose and --help.'),
    '',
    // One paragraph per string, its lines as they are printed (a translation breaks its own).
    l10n.t(
      'Network: HTTPS_PROXY names the proxy for https (HTTP_PROXY when it is not set), HTTP_PROXY the\nproxy for http (lower-case forms first), as http://<user>:<password>@proxy:port; NO_PROXY lists\nthe hosts that bypass it (example.com, .example.com, 10.0.0.0/8, host:port, or *).\n--ca-file <file> (or DOCS_ADMIN_CA_FILE) adds the CA certificates of a PEM file to those\ntrusted, for a proxy that inspects TLS or a private CA; NODE_EXTRA_CA_CERTS works as well.',
    ),
    '',
    l10n.t('Exit codes: 0 success, 1 the job failed, 2 usage error, 3 authentication or permission,\n            4 not found, 5 network, server, timeout or rate limit, 6 unsafe or invalid bundle,\n            7 the server refused the request (a 400, say).'),
    '',
  ].join('\n');
}

export function commandUsage(spec: CommandSpec): string {
  const options = { ...spec.options, ...commonOptions() };
  const width = Math.max(...Object.entries(options).map(([n, o]) => `--${n}${o.value ? ` ${o.value}` : ''}`.length));
  return [
    l10n.t('Usage: docs-admin {0} {1} [options]', spec.name, spec.args.map((a) => `<${a}>`).join(' ')),
    '',
    spec.summary,
    '',
    l10n.t('Options:'),
    ...Object.entries(options).map(([n, o]) => `  ${`--${n}${o.value ? ` ${o.value}` : ''}`.padEnd(width)}  ${o.help}`),
    '',
  ].join('\n');
}

/** The command and its parts; `undefined` spec means top-level help or version. */
export function parse(argv: string[]): Parsed | { help: true; spec?: CommandSpec } | { version: true } {
  // A first, lenient pass: which words are the command (an option's value is not one).
  const all = commands();
  const common = commonOptions();
  const stringOptions: Record<string, { type: 'string' }> = {};
  for (const c of all) for (const [n, o] of Object.entries({ ...c.options, ...common })) if (o.type === 'string') stringOptions[n] = { type: 'string' };
  const words = parseArgs({ args: argv, options: stringOptions, allowPositionals: true, strict: false }).positionals;
  const spec = all.find((c) => {
    const parts = c.name.split(' ');
    return parts.every((p, i) => words[i] === p);
  });
  if (spec === undefined) {
    if (argv.includes('--version')) return { version: true };
    if (argv.length === 0 || argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') return { help: true };
    const guess = words.slice(0, 2).join(' ');
    throw new UsageError(l10n.t('unknown command "{0}". Run "docs-admin --help" for the list.', guess));
  }
  const options: Record<string, { type: 'string' | 'boolean' }> = {};
  for (const [name, o] of Object.entries({ ...spec.options, ...common })) options[name] = { type: o.type };
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...options, h: { type: 'boolean' } }, allowPositionals: true, strict: true });
  } catch (error) {
    // Node's own words (English), quoted.
    const why = error instanceof Error ? error.message.replace(/^Unknown option/, 'unknown option') : String(error);
    throw new UsageError(l10n.t('{0}. Run "docs-admin {1} --help".', why, spec.name));
  }
  const values: Record<string, string | boolean | undefined> = parsed.values;
  if (values.help === true || values.h === true) return { help: true, spec };
  const positionals = parsed.positionals.slice(spec.name.split(' ').length);
  if (positionals.length !== spec.args.length) {
    const takes = spec.args.map((a) => `<${a}>`).join(' ');
    throw new UsageError(
      positionals.length > spec.args.length
        ? l10n.t('"{0}" takes {1}, not {2}. Run "docs-admin {0} --help".', spec.name, takes, positionals.slice(spec.args.length).map((p) => `"${p}"`).join(' '))
        : l10n.t('"{0}" takes {1}. Run "docs-admin {0} --help".', spec.name, takes),
    );
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
  if (!key.ok && key.empty) throw new MissingKeyError();
  if (!key.ok) throw new UsageError(l10n.t('DOCS_ADMIN_API_KEY: {0}', key.reason));
  if (projectId !== '' && projectId === key.value) {
    throw new UsageError(
      l10n.t("DOCS_ADMIN_API_KEY and the project id (--project-id or DOCS_ADMIN_PROJECT_ID) hold the same value, so one of them was pasted in the wrong place; nothing was sent. The dashboard's API keys page shows both: the key goes only in DOCS_ADMIN_API_KEY."),
    );
  }
  if (projectId !== '') {
    const project = checkProjectId(projectId, [key.value]);
    if (!project.ok) throw new UsageError(l10n.t('the project id (--project-id or DOCS_ADMIN_PROJECT_ID): {0}', project.reason));
  }
  return key.value;
}
