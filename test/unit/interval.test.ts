import * as assert from 'node:assert/strict';
import { emptyHistory, nextDelayMs, predictRemainingMs, recordProgress } from '../../src/core/jobs/interval';

const settings = { floorMs: 2_000, ceilingMs: 60_000 };

describe('poll interval policy', () => {
  it('predicts the remaining time from the progress rate', () => {
    const samples = [
      { at: 0, progress: 10 },
      { at: 60_000, progress: 20 },
    ];
    assert.equal(predictRemainingMs(samples), 480_000);
    assert.equal(predictRemainingMs([{ at: 0, progress: 10 }]), undefined, 'one reading gives no rate');
    assert.equal(predictRemainingMs([{ at: 0, progress: 10 }, { at: 5, progress: 10 }]), undefined, 'no movement, no rate');
  });

  it('starts over when progress goes backwards', () => {
    let history = recordProgress(emptyHistory(), { at: 0, progress: 50 });
    history = recordProgress(history, { at: 1, progress: 60 });
    history = recordProgress(history, { at: 2, progress: 5 });
    assert.deepEqual(history.samples, [{ at: 2, progress: 5 }]);
  });

  it('waits half the predicted remaining time, within floor and ceiling', () => {
    const history = { lastDelayMs: 10_000, samples: [{ at: 0, progress: 0 }, { at: 60_000, progress: 50 }] };
    assert.equal(nextDelayMs(history, { kind: 'changed', progress: 50 }, settings), 30_000);
    const nearEnd = { lastDelayMs: 10_000, samples: [{ at: 0, progress: 0 }, { at: 60_000, progress: 99 }] };
    assert.equal(nextDelayMs(nearEnd, { kind: 'changed', progress: 99 }, settings), 2_000);
  });

  it('backs off by half on no change and doubles on errors, capped', () => {
    assert.equal(nextDelayMs(emptyHistory(), { kind: 'unchanged' }, settings), 3_000);
    assert.equal(nextDelayMs({ lastDelayMs: 50_000, samples: [] }, { kind: 'unchanged' }, settings), 60_000);
    assert.equal(nextDelayMs({ lastDelayMs: 8_000, samples: [] }, { kind: 'error' }, settings), 16_000);
    assert.equal(nextDelayMs({ lastDelayMs: 45_000, samples: [] }, { kind: 'changed' }, settings), 2_000);
  });

  /** A history built from readings, as the scheduler builds it. */
  const readings = (...points: [number, number][]) => points.reduce((h, [at, progress]) => recordProgress(h, { at, progress }), emptyHistory());

  it('keeps the reading before the first movement, and when 100 % was first read; a restart forgets both', () => {
    const history = readings([0, 0], [10_000, 0], [20_000, 30], [30_000, 100]);
    assert.deepEqual(history.origin, { at: 10_000, progress: 0 });
    assert.equal(history.fullSince, 30_000);
    const restarted = recordProgress(history, { at: 40_000, progress: 5 });
    assert.equal(restarted.origin, undefined);
    assert.equal(restarted.fullSince, undefined);
  });

  it('after the progress stood still, predicts from the whole running phase, not from the last jump', () => {
    // 0 % to 10 % in the first minute, still for two minutes (read every 20 s), then a jump to 40 %.
    const history = readings([0, 0], [60_000, 10], [80_000, 10], [100_000, 10], [120_000, 10], [140_000, 10], [160_000, 10], [180_000, 10], [190_000, 40]);
    // The readings kept (the last 6) say 30 % in 90 s, 180 s left; the running phase says 40 % in 190 s.
    assert.equal(Math.round(predictRemainingMs(history.samples, history.origin) ?? 0), 285_000);
    assert.equal(nextDelayMs({ ...history, lastDelayMs: 20_000 }, { kind: 'changed', progress: 40 }, { floorMs: 2_000, ceilingMs: 600_000 }), 142_500);
    // Moving at every reading, the recent rate stands.
    const steady = readings([0, 0], [60_000, 10], [120_000, 20]);
    assert.equal(predictRemainingMs(steady.samples, steady.origin), 480_000);
  });

  it('polls an export finishing at 100 % from the floor, up to 8 s, then as any export that stands still', () => {
    // Took 400 s to reach 100 %: the finishing window is 120 s (30 % of it; at least 60 s).
    let history = readings([0, 0], [400_000, 100]);
    const at = (ms: number) => {
      history = recordProgress(history, { at: 400_000 + ms, progress: 100 });
      return nextDelayMs({ ...history, lastDelayMs: 8_000 }, { kind: 'unchanged', progress: 100 }, settings);
    };
    assert.equal(nextDelayMs(history, { kind: 'changed', progress: 100 }, settings), 2_000);
    assert.equal(at(2_000), 4_000);
    assert.equal(at(6_000), 8_000);
    assert.equal(at(100_000), 8_000);
    assert.equal(at(121_000), 12_000, 'past the window: back off by half from the last wait');
    const slow = readings([0, 0], [400_000, 100], [402_000, 100]);
    assert.equal(nextDelayMs(slow, { kind: 'unchanged', progress: 100 }, { floorMs: 15_000, ceilingMs: 60_000 }), 15_000, 'never below a floor set above 8 s');
  });

  it('doubles the wait of a queued export (no progress yet); an agent job (no progress) backs off by half', () => {
    assert.equal(nextDelayMs({ ...readings([0, 0]), lastDelayMs: 4_000 }, { kind: 'unchanged', progress: 0 }, settings), 8_000);
    assert.equal(nextDelayMs({ lastDelayMs: 4_000, samples: [] }, { kind: 'unchanged' }, settings), 6_000);
  });
});
