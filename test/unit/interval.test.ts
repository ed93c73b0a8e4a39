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
});
