/**
 * `docs-admin analytics …` as a child process against the simulator: dates, limits and formats
 * checked before anything is sent; pages followed only as far as --limit needs; table, JSON and
 * CSV (a cell a spreadsheet would run as a formula is neutralised); a reader's contact printed
 * only with --include-contact; a plan without analytics told as such (exit 3).
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { periodRange } from '../../src/core/analytics/period';
import { bulkAnalytics, emptyAnalytics, PLAYGROUND_CONTACTS, Simulator } from '../simulator';
import { collector } from './support/collector';

const CLI = resolve(__dirname, '../../../dist/cli.js');

describe('the docs-admin CLI: analytics', function () {
  this.timeout(30_000);
  let sim: Simulator;
  // The last 60 days: every record the playground's data holds, whenever the test runs.
  const days = periodRange(60, Date.now());
  const range = ['--from', days.from, '--to', days.to];

  before(async () => {
    assert.ok(existsSync(CLI), `${CLI} is built by "node esbuild.mjs"`);
    sim = await Simulator.start();
  });
  after(() => sim.stop());
  beforeEach(() => {
    sim.seedPlaygroundAnalytics();
    sim.clearRequests();
  });

  function cli(args: string[], options: { mayHoldContact?: boolean } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
    const env = { PATH: process.env.PATH ?? '', DOCS_ADMIN_API_KEY: sim.key, DOCS_ADMIN_BASE_URL: sim.baseUrl, DOCS_ADMIN_PROJECT_ID: sim.projectId };
    return new Promise((done) => {
      execFile(process.execPath, [CLI, ...args], { env }, (error, stdout, stderr) => {
        collector.record(`cli: docs-admin ${args.join(' ')} (stdout)`, stdout, options);
        collector.record(`cli: docs-admin ${args.join(' ')} (stderr)`, stderr);
        done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
      });
    });
  }
  const analytics = () => sim.requests.filter((r) => r.route.startsWith('analytics.'));

  it('checks the dates, the limit and the format before anything is sent (exit 2, one clear line)', async () => {
    const cases: [string[], RegExp][] = [
      [['analytics', 'feedback'], /--from <date> and --to <date> are required/],
      [['analytics', 'feedback', '--from', '2026-02-30', '--to', '2026-03-02'], /--from: "2026-02-30" is not a real date/],
      [['analytics', 'views', '--from', '01/11/2026', '--to', '2026-12-01'], /--from takes a date as YYYY-MM-DD/],
      [['analytics', 'views', '--from', '2026-12-01', '--to', '2026-12-01'], /--from \(2026-12-01\) must come before --to \(2026-12-01\), which is exclusive/],
      [['analytics', 'searches', ...range, '--limit', '0'], /--limit takes a whole number/],
      [['analytics', 'searches', ...range, '--format', 'xlsx'], /--format takes table, json or csv/],
      [['analytics', 'searches', ...range, '--format', 'csv', '--json'], /two formats/],
      [['analytics', 'views', ...range, '--include-contact'], /unknown option '--include-contact'/],
      [['analytics', 'feedback', ...range, '--status', 'open'], /--status takes a comma-separated list/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    }
    assert.equal(analytics().length, 0, 'nothing was sent');
  });

  it('follows pages only as far as --limit needs: 150 of 250 entries in two requests (100, then 50)', async () => {
    sim.setAnalytics(bulkAnalytics(Date.now(), { seed: 9, pages: ['/a', '/b', '/c'], feedback: 250, conversations: 0, searches: 0, days: 30 }));
    const r = await cli(['analytics', 'feedback', ...range, '--limit', '150', '--format', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const body = JSON.parse(r.stdout) as { feedback: unknown[]; truncated: boolean; from: string; to: string };
    assert.equal(body.feedback.length, 150);
    assert.equal(body.truncated, true);
    assert.deepEqual(analytics().map((q) => new URLSearchParams(q.query).get('limit')), ['100', '50']);
    assert.deepEqual([new URLSearchParams(analytics()[0]!.query).get('dateFrom'), new URLSearchParams(analytics()[0]!.query).get('dateTo')], [days.from, days.to]);
  });

  it('CSV neutralises cells a spreadsheet would run (= + - @, tab), and keeps quotes and line breaks inside their cell', async () => {
    const data = emptyAnalytics();
    const at = Date.now() - 86_400_000;
    const comments = ['=HYPERLINK("http://evil.example","x")', '+cmd|\' /C calc\'!A0', '-2+3', '@SUM(A1:A2)', '\tinvisible', '＝fullwidth', 'line one\nline "two"'];
    comments.forEach((comment, i) => data.feedback.push({ id: `f${i}`, path: '/p', comment, createdAt: at - i * 1000, source: 'agent', status: 'pending' }));
    data.searches.push({ query: '=1+1', at, hits: 3, clicks: {} });
    sim.setAnalytics(data);
    const r = await cli(['analytics', 'feedback', ...range, '--format', 'csv']);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split('\n');
    assert.equal(lines[0], 'createdAt,path,source,status,helpful,comment,filename,lang,code,id');
    for (const needle of ['\'=HYPERLINK(""http://evil.example"",""x"")', '\'+cmd|', '\'-2+3', '\'@SUM(A1:A2)', '\'\tinvisible', '\'＝fullwidth']) assert.ok(r.stdout.includes(needle), `${needle} in\n${r.stdout}`);
    assert.ok(r.stdout.includes('"line one\nline ""two"""'), 'a line break stays inside its quoted cell');
    const searches = await cli(['analytics', 'searches', ...range, '--format', 'csv']);
    assert.match(searches.stdout, /^'=1\+1,3,0,,/m);
  });

  it('a reader\'s contact: never in the table, JSON or CSV (JSON says one was left); printed with --include-contact', async () => {
    for (const format of ['table', 'json', 'csv']) {
      const r = await cli(['analytics', 'feedback', ...range, '--format', format]);
      assert.equal(r.code, 0, r.stderr);
      for (const contact of PLAYGROUND_CONTACTS) assert.ok(!r.stdout.includes(contact) && !r.stderr.includes(contact), `${format} holds a contact`);
      if (format === 'json') assert.equal((JSON.parse(r.stdout) as { feedback: { hasContact?: boolean }[] }).feedback.filter((f) => f.hasContact === true).length, 2);
    }
    const asked = await cli(['analytics', 'feedback', ...range, '--include-contact', '--format', 'json'], { mayHoldContact: true });
    const contacts = (JSON.parse(asked.stdout) as { feedback: { contact?: string | null }[] }).feedback.map((f) => f.contact).filter((c): c is string => typeof c === 'string');
    assert.deepEqual(contacts.sort(), [...PLAYGROUND_CONTACTS].sort());
  });

  it('the other lists: per-page counts, unanswered questions (--all: every one), searches, views and visitors with their totals', async () => {
    const pages = await cli(['analytics', 'pages', ...range]);
    assert.match(pages.stdout, /^path +thumbsDown +thumbsUp +code +total\n\/quickstart +6 +10 +0 +16\n/);
    const questions = JSON.parse((await cli(['analytics', 'questions', ...range, '--json'])).stdout) as { conversations: { resolutionStatus: string; pageUrl: string | null }[] };
    assert.equal(questions.conversations.length, 6);
    assert.ok(questions.conversations.every((c) => c.resolutionStatus === 'unanswered'));
    const every = JSON.parse((await cli(['analytics', 'questions', ...range, '--all', '--json'])).stdout) as { conversations: unknown[] };
    assert.equal(every.conversations.length, 8);
    const views = await cli(['analytics', 'views', ...range]);
    assert.match(views.stdout, /\/quickstart +744 +456 +1200/);
    assert.match(views.stderr, /In all: 2905 \(humans 1886, AI agents 1019\)\./);
    const visitors = JSON.parse((await cli(['analytics', 'visitors', ...range, '--limit', '2', '--format', 'json'])).stdout) as { visitors: unknown[]; truncated: boolean; totals: { total: number } };
    assert.deepEqual([visitors.visitors.length, visitors.truncated, visitors.totals.total], [2, true, 895]);
    const searches = await cli(['analytics', 'searches', ...range]);
    assert.match(searches.stdout, /windows install +14 +0 +\S+/);
  });

  it('a plan without analytics exits 3 and says what to do; a server failure exits 5 with the server\'s words', async () => {
    sim.setAnalyticsEnabled(false);
    try {
      const r = await cli(['analytics', 'views', ...range]);
      assert.equal(r.code, 3);
      assert.match(r.stderr, /plan does not include reader analytics.*paid plan/);
    } finally {
      sim.setAnalyticsEnabled(true);
    }
    sim.injectFault({ route: 'analytics.views', kind: 'status', status: 500, body: { error: 'boom' }, times: 3 });
    const failed = await cli(['analytics', 'views', ...range]);
    assert.equal(failed.code, 5);
    assert.match(failed.stderr, /The server failed \(500 Internal Server Error: boom\)/);
  });
});
