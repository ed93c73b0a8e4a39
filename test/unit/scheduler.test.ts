import * as assert from 'node:assert/strict';
import { PollScheduler, type PollOutcome, type PollTarget, type SchedulerOptions } from '../../src/core/jobs/scheduler';
import { ManualClock, settle } from './support/manualClock';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

interface Harness {
  clock: ManualClock;
  scheduler: PollScheduler;
  /** Poll times (clock ms) per job key. */
  polls: Map<string, number[]>;
  focused: { value: boolean };
}

function harness(
  answer: (target: PollTarget, now: number, count: number) => PollOutcome | Promise<PollOutcome>,
  options: Partial<SchedulerOptions> = {},
): Harness {
  const clock = new ManualClock();
  const polls = new Map<string, number[]>();
  const focused = { value: true };
  const scheduler = new PollScheduler({
    clock,
    isFocused: () => focused.value,
    floorMs: 2 * SECOND,
    ceilingMs: 60 * SECOND,
    unfocusedMs: 60 * SECOND,
    poll: (target) => {
      const times = polls.get(target.key) ?? [];
      times.push(clock.now());
      polls.set(target.key, times);
      return Promise.resolve(answer(target, clock.now(), times.length));
    },
    ...options,
  });
  return { clock, scheduler, polls, focused };
}

const unchanged: PollOutcome = { kind: 'ok', terminal: false, changed: false };
const gaps = (times: number[]) => times.slice(1).map((t, i) => t - (times[i] ?? 0));

describe('PollScheduler', () => {
  it('polls a new job at once and never again once it is terminal', async () => {
    const h = harness((_t, _now, count) => (count === 3 ? { kind: 'ok', terminal: true, changed: true } : unchanged));
    h.scheduler.track({ key: 'a', kind: 'agent' });
    await h.clock.advance(0);
    assert.equal(h.polls.get('a')?.length, 1, 'first poll is immediate');
    await h.clock.advance(30 * MINUTE);
    assert.equal(h.polls.get('a')?.length, 3);
    assert.equal(h.scheduler.size, 0);
    assert.equal(h.clock.pending, 0, 'no timer is left when nothing is active');
    assert.equal(h.scheduler.hasTimer, false);
  });

  it('a job that had ended and became active again (a follow-up) is polled again, and a reading under way from before counts no more', async () => {
    let ended = false;
    let release: (() => void) | undefined;
    const h = harness((_t, _now, count) => {
      if (count === 2) return new Promise<PollOutcome>((resolve) => (release = () => resolve({ kind: 'ok', terminal: true, changed: true })));
      return ended ? { kind: 'ok', terminal: true, changed: true } : unchanged;
    });
    h.scheduler.track({ key: 'a', kind: 'agent' });
    await h.clock.advance(0);
    ended = true;
    await h.clock.advance(MINUTE);
    assert.equal(h.scheduler.size, 1, 'the second poll is under way');
    // The follow-up is sent while that poll (which will say "ended") is still out.
    h.scheduler.restart({ key: 'a', kind: 'agent' });
    ended = false;
    release?.();
    await settle();
    assert.equal(h.scheduler.size, 1, 'the old reading did not drop the reopened job');
    await h.clock.advance(0);
    const before = h.polls.get('a')?.length ?? 0;
    await h.clock.advance(MINUTE);
    assert.ok((h.polls.get('a')?.length ?? 0) > before, 'polled again');
    ended = true;
    await h.clock.advance(MINUTE);
    assert.equal(h.scheduler.size, 0, 'dropped again once it ends');
    // Restarting a job that was no longer tracked at all polls it at once.
    h.scheduler.restart({ key: 'a', kind: 'agent' });
    ended = false;
    const count = h.polls.get('a')?.length ?? 0;
    await h.clock.advance(0);
    assert.equal(h.polls.get('a')?.length, count + 1);
    assert.equal(h.scheduler.size, 1);
    h.scheduler.dispose();
  });

  it('backs off while nothing changes, up to the ceiling', async () => {
    const h = harness(() => unchanged);
    h.scheduler.track({ key: 'a', kind: 'export' });
    await h.clock.advance(10 * MINUTE);
    const intervals = gaps(h.polls.get('a') ?? []);
    assert.deepEqual(intervals.slice(0, 4), [3000, 4500, 6750, 10125]);
    for (let i = 1; i < intervals.length; i++) assert.ok((intervals[i] ?? 0) >= (intervals[i - 1] ?? 0));
    assert.equal(Math.max(...intervals), 60 * SECOND);
    // A fixed 10 s poller would have sent 60 requests in these ten minutes.
    assert.ok(intervals.length + 1 < 25, `sent ${intervals.length + 1} requests`);
  });

  it('tightens to the floor when something changes', async () => {
    const h = harness((_t, _now, count) => (count === 6 ? { kind: 'ok', terminal: false, changed: true } : unchanged));
    h.scheduler.track({ key: 'a', kind: 'agent' });
    await h.clock.advance(3 * MINUTE);
    const intervals = gaps(h.polls.get('a') ?? []);
    assert.ok((intervals[4] ?? 0) > 2 * SECOND, 'backed off before the change');
    assert.equal(intervals[5], 2 * SECOND, 'the poll after a change comes at the floor');
  });

  it('aims export polls at the predicted finish: fewer requests than a 10 s poller, seen sooner', async () => {
    const duration = 10 * MINUTE;
    let start = 0;
    const h = harness((_t, now) => {
      const progress = Math.min(100, ((now - start) / duration) * 100);
      return progress >= 100
        ? { kind: 'ok', terminal: true, changed: true, progress: 100 }
        : { kind: 'ok', terminal: false, changed: true, progress };
    });
    start = h.clock.now();
    h.scheduler.track({ key: 'x', kind: 'export' });
    await h.clock.advance(30 * MINUTE);
    const times = h.polls.get('x') ?? [];
    const latency = (times[times.length - 1] ?? 0) - (start + duration);
    assert.ok(times.length <= 30, `sent ${times.length} requests; a 10 s poller sends 60`);
    assert.ok(latency >= 0 && latency <= 5 * SECOND, `saw the end ${latency} ms late`);
  });

  it('a running export whose view is visible is read at least every 5 s, however far its predicted end: the row moves (issue 35: 0.6 s, 2.7 s, then 50.5 s)', async () => {
    // As the playground's export (25 simulated minutes at time scale 10: 150 s), twice as long so it outlasts the test; the view opened at 10 %.
    const duration = 300 * SECOND;
    let start = 0;
    const watched = { value: true };
    const h = harness(
      (_t, now) => {
        const progress = Math.min(100, ((now - start) / duration) * 100);
        return progress >= 100 ? { kind: 'ok', terminal: true, changed: true, progress: 100 } : { kind: 'ok', terminal: false, changed: true, progress };
      },
      { isWatched: () => watched.value },
    );
    start = h.clock.now() - 30 * SECOND;
    h.scheduler.track({ key: 'x', kind: 'export' });
    const opened = h.clock.now();
    await h.clock.advance(60 * SECOND);
    const seen = h.polls.get('x') ?? [];
    // Before: the wait aimed at the predicted end (half the time left, up to the 60 s ceiling): 2 s, then about a minute with the row at 10 %.
    const read = [...seen, opened + 60 * SECOND];
    assert.ok(Math.max(...gaps(read)) <= 5 * SECOND, `gaps while the view shows it (the last up to now): ${gaps(read).map((g) => g / SECOND).join(', ')} s`);
    // No one looking: back to aiming at the predicted end (few requests).
    watched.value = false;
    const hidden = seen.length;
    await h.clock.advance(60 * SECOND);
    const after = [...(h.polls.get('x') ?? []).slice(hidden - 1), h.clock.now()];
    assert.ok(Math.max(...gaps(after)) > 15 * SECOND, `with the view hidden, it aims at the end again: ${gaps(after).map((g) => g / SECOND).join(', ')} s (the last up to now)`);
    // Shown again: caught up at once (the floor after the last reading), then every 5 s at most.
    watched.value = true;
    const shown = h.clock.now();
    h.scheduler.setWatched(true);
    await h.clock.advance(10 * SECOND);
    const back = (h.polls.get('x') ?? []).filter((t) => t >= shown);
    assert.ok(back.length >= 2 && back[0] === shown && Math.max(...gaps(back)) <= 5 * SECOND, `read at once when shown, then every 5 s: ${back.map((t) => (t - shown) / SECOND).join(', ')} s after`);
  });

  it('polls at most once a minute while the window is not focused, and catches up on focus', async () => {
    const h = harness(() => ({ kind: 'ok', terminal: false, changed: true }));
    h.focused.value = false;
    h.scheduler.track({ key: 'a', kind: 'agent' });
    h.scheduler.track({ key: 'b', kind: 'agent' });
    await h.clock.advance(10 * MINUTE);
    for (const key of ['a', 'b']) {
      const times = h.polls.get(key) ?? [];
      assert.ok(times.length <= 11, `${key}: ${times.length} polls in 10 minutes`);
      for (const gap of gaps(times)) assert.ok(gap >= MINUTE);
    }
    const before = h.polls.get('a')?.length ?? 0;
    await h.clock.advance(10 * SECOND);
    h.focused.value = true;
    h.scheduler.setFocused(true);
    await h.clock.advance(0);
    assert.equal(h.polls.get('a')?.length, before + 1, 'focus brings a poll at once');
  });

  it('honours Retry-After for every job of the origin', async () => {
    const h = harness((target, _now, count) =>
      target.key === 'a' && count === 1 ? { kind: 'rateLimited', retryAfterMs: 45 * SECOND } : unchanged,
    );
    h.scheduler.track({ key: 'a', kind: 'agent' });
    await h.clock.advance(0);
    const limitedAt = h.clock.now();
    h.scheduler.track({ key: 'b', kind: 'agent' });
    h.scheduler.refreshNow();
    await h.clock.advance(44 * SECOND);
    assert.equal(h.polls.get('a')?.length, 1);
    assert.equal(h.polls.get('b'), undefined, 'a new job waits out the origin\'s limit too');
    await h.clock.advance(2 * SECOND);
    assert.ok((h.polls.get('b')?.[0] ?? 0) >= limitedAt + 45 * SECOND);
    assert.equal(h.polls.get('a')?.length, 2);
  });

  it('bounds the number of polls in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const h = harness(
      () =>
        new Promise<PollOutcome>((resolve) => {
          inFlight++;
          peak = Math.max(peak, inFlight);
          releases.push(() => {
            inFlight--;
            resolve({ kind: 'ok', terminal: true, changed: true });
          });
        }),
      { maxConcurrent: 3 },
    );
    for (let i = 0; i < 10; i++) h.scheduler.track({ key: `j${i}`, kind: 'agent' });
    await h.clock.advance(0);
    assert.equal(inFlight, 3);
    while (releases.length > 0) {
      releases.shift()?.();
      await settle();
      await h.clock.advance(0);
    }
    assert.equal(peak, 3);
    assert.equal(h.polls.size, 10, 'every job was polled in the end');
    assert.equal(h.scheduler.size, 0);
  });

  it('pauses while the key is rejected, and resumes when told', async () => {
    let rejected = true;
    let told = 0;
    const h = harness(() => (rejected ? { kind: 'unauthorized' } : unchanged), { onUnauthorized: () => told++ });
    h.scheduler.track({ key: 'a', kind: 'agent' });
    h.scheduler.track({ key: 'b', kind: 'agent' });
    await h.clock.advance(0);
    const afterFirst = [...h.polls.values()].reduce((n, times) => n + times.length, 0);
    await h.clock.advance(30 * MINUTE);
    assert.equal([...h.polls.values()].reduce((n, times) => n + times.length, 0), afterFirst, 'no poll while paused');
    assert.ok(h.scheduler.isPaused);
    assert.equal(h.clock.pending, 0);
    assert.ok(told >= 1);
    rejected = false;
    h.scheduler.resume();
    await h.clock.advance(0);
    assert.equal(h.polls.get('a')?.length, 2);
    assert.equal(h.polls.get('b')?.length, 2);
  });

  it('polls now on refresh, whatever the back-off', async () => {
    const h = harness(() => unchanged);
    h.scheduler.track({ key: 'a', kind: 'agent' });
    await h.clock.advance(20 * MINUTE);
    const count = h.polls.get('a')?.length ?? 0;
    h.scheduler.refreshNow();
    await h.clock.advance(0);
    assert.equal(h.polls.get('a')?.length, count + 1);
  });

  it('polls a young agent job at the warm-up pace, then at least every agent ceiling while focused', async () => {
    // The job was created 20 s before it was tracked.
    let trackedAt = 0;
    const h = harness((_t, now) => ({ kind: 'ok', terminal: false, changed: false, ageMs: 20 * SECOND + (now - trackedAt) }), {
      agentWarmUpMs: MINUTE,
      agentWarmUpIntervalMs: 9 * SECOND,
      agentCeilingMs: 10 * SECOND,
    });
    trackedAt = h.clock.now();
    h.scheduler.track({ key: 'a', kind: 'agent' });
    await h.clock.advance(5 * MINUTE);
    const times = h.polls.get('a') ?? [];
    const young = times.filter((t) => t - trackedAt < 40 * SECOND);
    // A 10-60 s job is seen within the warm-up interval: no quiet first minute.
    assert.deepEqual(gaps(young), young.slice(1).map(() => 9 * SECOND), 'every 9 s while the job is under a minute old');
    const later = gaps(times.filter((t) => t - trackedAt >= 40 * SECOND));
    assert.ok(later.length > 20 && later.every((g) => g <= 10 * SECOND), later.join(','));
    // Unfocused, the once-a-minute rule wins.
    h.focused.value = false;
    const before = times.length;
    await h.clock.advance(5 * MINUTE);
    assert.ok((h.polls.get('a')?.length ?? 0) - before <= 6);
  });

  it('polls a running export that stalls at least every running ceiling; a queued one backs off to the ceiling', async () => {
    // 'run' moves to 40 % on its second reading, then stands still; 'queued' never moves.
    const h = harness((target, _now, count) =>
      target.key === 'run' ? { kind: 'ok', terminal: false, changed: count === 2, progress: count >= 2 ? 40 : 0 } : { kind: 'ok', terminal: false, changed: false },
    { runningCeilingMs: 15 * SECOND });
    h.scheduler.track({ key: 'run', kind: 'export' });
    h.scheduler.track({ key: 'queued', kind: 'export' });
    await h.clock.advance(10 * MINUTE);
    const stalled = gaps(h.polls.get('run') ?? []);
    assert.ok(stalled.length > 30 && stalled.every((g) => g <= 15 * SECOND), stalled.join(','));
    assert.equal(Math.max(...gaps(h.polls.get('queued') ?? [])), MINUTE, 'a queued export backs off to the general ceiling');
  });

  it('backs off faster after errors, and a throwing poll does not stop the scheduler', async () => {
    const h = harness((_t, _now, count) => {
      if (count <= 3) throw new Error('boom');
      return { kind: 'ok', terminal: true, changed: true };
    });
    h.scheduler.track({ key: 'a', kind: 'agent' });
    await h.clock.advance(5 * MINUTE);
    assert.deepEqual(gaps(h.polls.get('a') ?? []), [4000, 8000, 16000]);
    assert.equal(h.scheduler.size, 0);
  });

  it('forgets an untracked job and stops when nothing is left', async () => {
    const h = harness(() => unchanged);
    h.scheduler.track({ key: 'a', kind: 'agent' });
    await h.clock.advance(10 * SECOND);
    h.scheduler.untrack('a');
    const count = h.polls.get('a')?.length ?? 0;
    await h.clock.advance(10 * MINUTE);
    assert.equal(h.polls.get('a')?.length, count);
    assert.equal(h.clock.pending, 0);
  });

  it('dispose leaves no timer and aborts the polls in flight', async () => {
    let seen: AbortSignal | undefined;
    const clock = new ManualClock();
    const scheduler = new PollScheduler({
      clock,
      isFocused: () => true,
      poll: (_target, signal) => {
        seen = signal;
        return new Promise<PollOutcome>(() => undefined);
      },
    });
    scheduler.track({ key: 'a', kind: 'export' });
    scheduler.track({ key: 'b', kind: 'export' });
    await clock.advance(0);
    scheduler.dispose();
    assert.equal(clock.pending, 0);
    assert.equal(seen?.aborted, true);
    scheduler.track({ key: 'c', kind: 'agent' });
    assert.equal(clock.pending, 0, 'a disposed scheduler takes no new work');
  });
});
