/**
 * The route of the core's and the CLI's text through @vscode/l10n: configured with a bundle (as
 * activation does with VS Code's), the core speaks it, arguments in place and in the order the
 * translation puts them; the log stays English; the extraction's worker thread speaks it too when
 * handed the bundle; unconfigured (the CLI, every other test) it is English.
 *
 * @vscode/l10n keeps its bundle in module state, shared by every test in this process: each test
 * here puts English back (`configureL10n(undefined)`) when it ends, pass or fail.
 */
import * as l10n from '@vscode/l10n';
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { AuthError, ForbiddenError, NotFoundError, formatWait } from '../../src/core/api/apiErrors';
import { downloadBundle } from '../../src/core/bundle/download/download';
import { ExpiredLinkError } from '../../src/core/bundle/download/downloadErrors';
import { extractBundle } from '../../src/core/bundle/extract/extract';
import { shelfRows } from '../../src/core/bundle/shelf/shelfRows';
import { availabilityNote, DEPLOYMENT_NAMES, FEATURES } from '../../src/core/helm/availability';
import { STEP_TITLES, stepTitle } from '../../src/core/helm/publishPipeline';
import { checkAdminKey, parseExportDomain } from '../../src/core/jobs/jobInput';
import { presentAgentJob, presentExportJob } from '../../src/core/jobs/jobLabels';
import { statusText } from '../../src/core/jobs/statusBarText';
import { configureL10n, english, type L10nBundle } from '../../src/core/l10n';
import { checkBaseUrl } from '../../src/core/links';
import { failureMessage } from '../../src/core/net/failure';
import { parseProxy } from '../../src/core/net/network';
import { collector } from './support/collector';
import { rawTar } from './support/archives';
import { recordingLogger } from './support/logger';
import { UnsafeArchiveError } from '../../src/core/bundle/extract/archivePaths';

const ROOT = resolve(__dirname, '../../..');
const now = Date.parse('2026-11-22T12:00:00Z');

/** Every string of the code, from the exported bundle, "translated" as «English» (placeholders kept). */
function pseudoBundle(): L10nBundle {
  const exported = JSON.parse(readFileSync(join(ROOT, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, string | { message: string }>;
  return Object.fromEntries(Object.entries(exported).map(([key, value]) => [key, `«${typeof value === 'string' ? value : value.message}»`]));
}

describe('localisation of the core and the CLI', () => {
  afterEach(() => configureL10n(undefined));

  it('a configured bundle is what the core says, its arguments filled in, in the order the translation puts them', () => {
    configureL10n({
      "The admin key was rejected (401: {0}). It may be wrong, expired or revoked: create a new one on the dashboard's API keys page and set it again.":
        'Der Admin-Schlüssel wurde abgelehnt (401: {0}). Legen Sie auf der Seite „API keys“ einen neuen an.',
      'Agent job "{0}" in project "{1}" was not found ({2}). Check the id and the project id.': 'Im Projekt „{1}“ gibt es keinen Agent-Auftrag „{0}“ ({2}).',
      'Job: {0}': 'Auftrag: {0}',
      'failed/The status of a job, as its row in a list shows it.': 'fehlgeschlagen',
      '{0} ago/How long ago a job was created; {0} is a short duration such as 3m.': 'vor {0}',
    });
    assert.equal(new AuthError('rejected', 'key revoked').message, 'Der Admin-Schlüssel wurde abgelehnt (401: key revoked). Legen Sie auf der Seite „API keys“ einen neuen an.');
    assert.equal(new NotFoundError({ kind: 'agentJob', id: 'job_7', projectId: 'proj_1' }).message, 'Im Projekt „proj_1“ gibt es keinen Agent-Auftrag „job_7“ (404).');
    const row = presentAgentJob(
      { id: 'job_7', status: 'failed', rawStatus: 'failed', source: { repository: 'https://github.com/acme/docs', ref: null }, model: 'm', prLink: null, createdAt: '2026-11-22T11:55:00Z', archivedAt: null },
      now,
    );
    assert.equal(row.description, 'fehlgeschlagen · vor 5m');
    assert.ok(row.details.includes('Auftrag: job_7'), row.details.join('\n'));
    // What the bundle does not hold stays English (a partial translation is allowed).
    assert.ok(row.details.includes('Model: m'), row.details.join('\n'));
    assert.equal(new AuthError('missing').message, "No admin key is set. Create one on the dashboard's API keys page (organization settings) and set it.");
  });

  it('configureL10n(undefined) puts English back, as the CLI and every other test see it', () => {
    configureL10n(pseudoBundle());
    assert.match(new AuthError('rejected').message, /^«The admin key was rejected \(401\)\./);
    configureL10n(undefined);
    assert.equal(
      new AuthError('rejected').message,
      "The admin key was rejected (401). It may be wrong, expired or revoked: create a new one on the dashboard's API keys page and set it again.",
    );
  });

  it('every text of a message comes from the bundle: whole sentences, joined by a translatable frame', () => {
    configureL10n(pseudoBundle());
    // Two possible causes of a 403: a frame for the denial, one for the list, one per cause, and the separator.
    assert.equal(
      new ForbiddenError(['scope', 'ipAllowList'], 'nope').message,
      "««Access denied (403: nope).» «Possible causes: «the key is read-only or lacks the scope for this call (to fix it, create a read-write admin key on the dashboard's API keys page and set it)»«; or »«the key's IP allow-list does not include this machine's address (to fix it, add this address to the key's allow-list on the dashboard's API keys page, or use a key without one)».»»",
    );
    const proxy = parseProxy('https://proxy.corp:3128', 'http.proxy', undefined);
    const hints = { proxy: 'http.proxy', noProxy: 'http.noProxy', proxyCredentials: 'http.proxyAuthorization', ca: 'docsAdmin.network.extraCaCertificates', strictSSL: 'http.proxyStrictSSL' };
    const untrusted = failureMessage({ kind: 'untrustedCertificate', code: 'SELF_SIGNED_CERT_IN_CHAIN', selfSigned: true }, { host: 'api.acme.dev', proxy, hints, noProxyHint: 'http.noProxy' });
    assert.match(untrusted, /^«««The certificate of api\.acme\.dev \(or of the proxy https:\/\/proxy\.corp:3128 \(from http\.proxy\)\) is not trusted: it is self-signed \(SELF_SIGNED_CERT_IN_CHAIN\)\.» «If your company's proxy .* to docsAdmin\.network\.extraCaCertificates\.»» «Only if you understand the risk .* turn off http\.proxyStrictSSL\.»»$/);

    const outputs = [
      checkAdminKey('').ok ? '' : (checkAdminKey('') as { reason: string }).reason,
      (checkBaseUrl('http://api.acme.dev') as { reason: string }).reason,
      (parseExportDomain('https://docs.acme.dev/guide') as { note: string }).note,
      presentExportJob({ jobId: 'e1', status: 'running', rawStatus: 'running', progress: 40, pageCount: 12, domain: 'docs.acme.dev' }, now).details.join('\n'),
      availabilityNote('airGapped'),
      formatWait(30_000, l10n),
      ...shelfRows({ archive: '/tmp/b.tar.gz', archiveBytes: 2048, folder: '/tmp/b', summary: { pages: 9, files: 12, bytes: 14_540, types: { '.html': 9 } } }).map((r) => r.label),
      statusText([{ kind: 'agent', id: 'a1', addedAt: now }])?.text ?? '',
    ];
    for (const text of outputs) for (const line of text.split('\n')) assert.match(line, /^«.*»$/, `not from the bundle: ${JSON.stringify(line)}`);
  });

  it('tables the editor reads (step titles, feature and deployment names) are looked up when read, not when their module loaded', () => {
    configureL10n({ 'Waiting for the export': 'Warten auf den Export', Cloud: 'Cloud (gehostet)', 'Documentation search': 'Dokumentationssuche' });
    assert.equal(STEP_TITLES.wait, 'Warten auf den Export');
    assert.equal(DEPLOYMENT_NAMES.cloud, 'Cloud (gehostet)');
    assert.equal(FEATURES.find((f) => f.id === 'search')?.name, 'Dokumentationssuche');
    assert.deepEqual(Object.keys(DEPLOYMENT_NAMES), ['cloud', 'clientHosted', 'airGapped']);
    // The same title for the log: English whatever the bundle says.
    assert.equal(stepTitle('wait', english), 'Waiting for the export');
  });

  it('each deployment type has a whole sentence of its own, and it says just what the feature table says', () => {
    for (const type of ['cloud', 'clientHosted', 'airGapped'] as const) {
      const named = (availability: string) => FEATURES.filter((f) => f.availability[type] === availability).map((f) => f.name.toLowerCase());
      const parts = [
        ...(named('unavailable').length > 0 ? [`unavailable: ${named('unavailable').join(', ')}`] : []),
        ...(named('configurable').length > 0 ? [`depends on your set-up: ${named('configurable').join(', ')}`] : []),
        ...(type === 'airGapped' ? ['the admin API cannot be reached, so bundles are carried in as files (Import Bundle File…)'] : []),
      ];
      const expected = `${DEPLOYMENT_NAMES[type]} deployment${parts.length === 0 ? ': every feature is available' : ` — ${parts.join('; ')}`}.`;
      assert.equal(availabilityNote(type), expected);
    }
  });

  it('english formats as @vscode/l10n does (placeholders reordered and repeated), and never looks at the bundle', () => {
    configureL10n({ '{0} ms': '{0} Millisekunden' });
    assert.equal(formatWait(300, english), '300 ms');
    assert.equal(english.t('{1} before {0}, {1} again; {2} has no value', 'a', 'b'), 'b before a, b again; {2} has no value');
  });

  it('a text that goes to both the log and a message: English in the log, the bundle in the message', async () => {
    configureL10n(pseudoBundle());
    const dir = await mkdtemp(join(tmpdir(), 'docs-admin-l10n-'));
    try {
      const link = { bundle: { bundleUrl: 'https://storage.example/b.tar.gz' }, receivedAt: now };
      // No regeneration allowed: the expired link's reason ends in the message.
      await assert.rejects(
        downloadBundle({ target: join(dir, 'b.tar.gz'), link: () => Promise.resolve(link), regenerate: () => Promise.reject(new Error('not asked')), timeLeft: () => 0, maxRegenerations: 0 }),
        (error: unknown) => {
          assert.ok(error instanceof ExpiredLinkError, String(error));
          assert.match(error.message, /^«The bundle link keeps being refused as expired \(«the link had expired before the download began»\), even after/);
          return true;
        },
      );
      // One regeneration: the same reason goes to the log, in English.
      const log = recordingLogger();
      await assert.rejects(
        downloadBundle({ target: join(dir, 'b.tar.gz'), link: () => Promise.resolve(link), regenerate: () => Promise.reject(new Error('stop here')), timeLeft: () => 0, maxRegenerations: 1, log }),
        /stop here/,
      );
      assert.ok(log.lines.includes('[info] Generating a new bundle link: the link had expired before the download began.'), log.lines.join('\n'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  describe('the extraction worker thread (its own @vscode/l10n)', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'docs-admin-l10n-'));
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    /** A tar.gz whose second entry is a symbolic link: the worker refuses it, with a message it builds itself. */
    async function linkArchive(): Promise<string> {
      const path = join(dir, 'bundle.tar.gz');
      await writeFile(path, gzipSync(rawTar([{ name: 'index.html', data: '<p>hi</p>' }, { name: 'docs/escape', type: '2', linkname: '../../etc/passwd' }])));
      return path;
    }

    it('speaks the bundle it is handed (ExtractOptions.l10n), and nothing is extracted', async () => {
      const bundle = pseudoBundle();
      configureL10n(bundle);
      await assert.rejects(extractBundle(await linkArchive(), join(dir, 'site'), { l10n: bundle }), (error: unknown) => {
        assert.ok(error instanceof UnsafeArchiveError, String(error));
        assert.equal(error.reason, 'link');
        assert.equal(
          error.message,
          "««The bundle holds a link (docs/escape -> ../../etc/passwd); links are never extracted, as they can point outside the folder.» «Nothing was extracted. Regenerate the bundle, or ask the platform's support if it happens again.»»",
        );
        return true;
      });
      assert.deepEqual(await readdir(dir), ['bundle.tar.gz']);
    });

    it('without the option it speaks English, whatever this thread was configured with (why the option exists)', async () => {
      configureL10n(pseudoBundle());
      await assert.rejects(extractBundle(await linkArchive(), join(dir, 'site')), (error: unknown) => {
        assert.ok(error instanceof UnsafeArchiveError, String(error));
        assert.match(error.message, /^The bundle holds a link \(docs\/escape -> \.\.\/\.\.\/etc\/passwd\); links are never extracted/);
        return true;
      });
    });
  });

  it('the CLI, never configured, prints English: its help and its errors', async () => {
    const cli = (args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
        execFile(process.execPath, [join(ROOT, 'dist', 'cli.js'), ...args], { env: { PATH: process.env.PATH ?? '' } }, (error, stdout, stderr) => {
          collector.record(`cli: docs-admin ${args.join(' ')} (stdout)`, stdout);
          collector.record(`cli: docs-admin ${args.join(' ')} (stderr)`, stderr);
          done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
        });
      });
    const help = await cli(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: docs-admin <command> \[options\]\n\nCommands:\n {2}agent get <jobId> +Show an agent job\.\n/);
    assert.match(help.stdout, /\nExit codes: 0 success, 1 the job failed, 2 usage error, 3 authentication or permission,\n {12}4 not found/);
    // Every code the CLI exits with, 7 too (issue 35: a refused request).
    assert.match(help.stdout, /, 6 unsafe or invalid bundle,\n {12}7 the server refused the request \(a 400, say\)\.\n/);
    const usage = await cli(['export', 'extract', 'bundle.tar.gz']);
    assert.equal(usage.code, 2);
    assert.equal(usage.stderr, 'docs-admin: --dir <dir> is required: the folder to extract into.\n');
    const noKey = await cli(['agent', 'get', 'job_1', '--base-url', 'https://api.example.com', '--project-id', 'p1']);
    assert.equal(noKey.code, 3);
    assert.match(noKey.stderr, /^docs-admin: DOCS_ADMIN_API_KEY is not set\. Put the admin key/);
  });
});
