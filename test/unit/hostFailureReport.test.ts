import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { failureReport } from '../host/failureReport';
import { Simulator } from '../simulator';

/**
 * What the UI check prints when a step fails (issue 34: a failure seen once under load must say
 * why): the simulator's last requests and the end of the extension's log, with no key and no
 * escape sequence or CI command of the log's text reaching the CI log.
 */
describe('the UI check\'s failure report', () => {
  let sim: Simulator;
  let dir: string;
  before(async () => {
    sim = await Simulator.start();
  });
  after(() => sim.stop());
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'docs-admin-failure-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('names the last requests and the log\'s last lines, the key redacted and control text neutralised', async () => {
    await fetch(new URL('/health', sim.baseUrl)).catch(() => undefined);
    const logs = join(dir, 'logs', '20261129T000000', 'window1', 'exthost', 'docs-admin.docs-admin');
    mkdirSync(logs, { recursive: true });
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i}`);
    lines.push(`docsAdmin.agentJob.previewBranch failed: Bearer ${sim.key} \u001b[2J`, '::set-output name=x::y');
    writeFileSync(join(logs, '1-Docs Admin.log'), `${lines.join('\n')}\n`);
    const report = failureReport(sim, dir, 40);
    assert.match(report, /the simulator's last \d+ requests/);
    assert.ok(sim.requests.length === 0 || report.includes(sim.requests.at(-1)?.route ?? '?'), report);
    assert.ok(!report.includes(sim.key), 'the key is redacted');
    assert.ok(!report.includes('\u001b'), 'no escape sequence');
    assert.ok(!/^\s*::set-output/m.test(report), 'no CI command at a line start');
    assert.ok(report.includes('line 49') && !report.includes('line 10\n'), 'the last 40 lines only');
    assert.match(report, /previewBranch failed/);
  });

  it('says when the extension wrote no log', () => {
    assert.match(failureReport(sim, dir), /no "Docs Admin" log file under the user data folder/);
    assert.match(failureReport(sim, undefined), /no "Docs Admin" log file/);
  });
});
