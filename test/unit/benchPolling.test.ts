/**
 * The polling benchmark explains its figures by what the run saw the scheduler do, not by a
 * description that can fall behind the code (issue 28: it printed a back-off for agent jobs,
 * "x1.5 from the 2 s floor to the 60 s ceiling", that the scheduler no longer had). The smoke
 * sizes, as `npm test` runs them: real JobsService, simulator over loopback, virtual time.
 */
import * as assert from 'node:assert/strict';
import { polling } from '../../bench/polling';
import { fullStretchMs } from '../../bench/pollingTrace';
import type { BenchResult } from '../../bench/types';

describe('the polling benchmark explains what it saw', function () {
  this.timeout(60_000);
  let result: BenchResult;

  before(async () => {
    result = await polling({ quick: true, runs: 1, log: () => undefined });
  });

  it('says agent jobs were read every 10 s while focused (what the scheduler does), and nowhere that they back off', () => {
    const agent = result.notes.filter((note) => /agent job/i.test(note));
    assert.ok(
      agent.some((note) => /Ours read a running agent job every 10 s \(the waits between its reads, focused\), the 10 s poller's own pace/.test(note)),
      agent.join('\n'),
    );
    const sentences = result.notes.flatMap((note) => note.split(/(?<=\.) /)).filter((sentence) => /agent/i.test(sentence));
    for (const sentence of sentences) assert.doesNotMatch(sentence, /back(s|ed)? off|x1\.5|ceiling/, sentence);
  });

  it("says a queued export's waits doubled, as the run saw them", () => {
    assert.ok(result.notes.some((note) => /A queued export has no progress to aim at: ours waited .* between its reads while it was queued, each wait 2\.0 times the one before/.test(note)), result.notes.join('\n'));
  });

  it("counts each export workload's reads by phase, adding up to its requests", () => {
    const workloads = ['steady', 'long queue', 'stalls', 'bursts', 'uneven'];
    for (const name of workloads) {
      const note = result.notes.find((n) => n.startsWith(`${name}: of our `));
      assert.ok(note !== undefined, `no phase note for ${name}`);
      const m = /of our (\d+) export requests .*?, (\d+) found the job queued, (\d+) running below 100 %, (\d+) at 100 % and still running, (\d+) ended/.exec(note);
      assert.ok(m !== null, note);
      const [requests, ...phases] = m.slice(1).map(Number);
      assert.equal(phases.reduce((a, b) => a + b, 0), requests, note);
      const metric = name === 'steady' ? 'requests, 3 export jobs' : `${name}: requests, 3 export jobs`;
      const measure = result.measures.find((x) => x.metric === metric && x.baselineName === 'fixed 10 s poller');
      assert.equal(measure?.ours, requests, `${metric} in the table`);
    }
  });

  it('says, from the plan, how long the bursts exports stand at 100 % before their end', () => {
    const note = result.notes.find((n) => n.startsWith('bursts: '));
    assert.match(note ?? '', /by the plan, \d+ of 3 exports reach 100 % before their end and run on there for [\d.]+ s/);
  });

  it('measures the stretch at 100 % from where the curve reads as 100 % (the simulator rounds to 0.1 %), to the end', () => {
    const minutes10 = 600_000;
    assert.equal(fullStretchMs({ kind: 'export', id: 'x', createdMs: 0, queuedMs: 0, durationMs: minutes10, failed: false }), 300, 'linear: the last 0.05 %');
    // A last jump summed in floating point can stop a hair short of 1: it still reads as 100 %.
    const jump = { kind: 'export' as const, id: 'y', createdMs: 0, queuedMs: 0, durationMs: minutes10, failed: false, curve: [[0, 0], [0.5, 0.3], [0.5, 0.9999999], [1, 1]] as [number, number][] };
    assert.equal(fullStretchMs(jump), 300_000);
    const slope = { ...jump, curve: [[0, 0], [0.4, 0.5], [0.8, 1], [1, 1]] as [number, number][] };
    assert.equal(fullStretchMs(slope), 120_240);
  });
});
