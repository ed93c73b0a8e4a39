/**
 * Deployments as a kind of tracked job: the one scheduler's pace for them, the service following
 * them to their end against the simulator (notified once, logs kept in memory and out of the
 * stored list, a reload keeping what each deploys), and the pure mappings (row, status bar,
 * notice, an agent row's preview, stored entries).
 */
import * as assert from 'node:assert/strict';
import { AdminApiClient } from '../../src/core/api/client';
import { agentPreviewNote, previewOfBranch, previewState, withPreviewToken } from '../../src/core/deployments/agentPreview';
import { failureDocumentLine, failureLineIndex, logDocument } from '../../src/core/deployments/logs';
import { deploymentNotice, presentDeployment, shortBranch } from '../../src/core/deployments/deploymentLabels';
import type { DeploymentSnapshot } from '../../src/core/deployments/deploymentTypes';
import { systemClock } from '../../src/core/jobs/clock';
import { noticeFor } from '../../src/core/jobs/notices';
import { JobRegistry } from '../../src/core/jobs/registry';
import { PollScheduler, type PollOutcome } from '../../src/core/jobs/scheduler';
import { JobsService, type Transition } from '../../src/core/jobs/service';
import { parseStored } from '../../src/core/jobs/storedJobs';
import { statusText } from '../../src/core/jobs/statusBarText';
import type { TrackedJob } from '../../src/core/jobs/trackedJob';
import { Simulator } from '../simulator';
import { recordingLogger } from './support/logger';
import { ManualClock } from './support/manualClock';
import { MemoryStore } from './support/memoryStore';

const SECOND = 1_000;

async function waitFor(what: string, condition: () => boolean, timeoutMs = 8_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the scheduler with deployments (one scheduler for every kind)', () => {
  function run(answer: (count: number) => PollOutcome) {
    const clock = new ManualClock();
    const polls: number[] = [];
    const focused = { value: true };
    const scheduler = new PollScheduler({
      clock,
      isFocused: () => focused.value,
      floorMs: 2 * SECOND,
      ceilingMs: 60 * SECOND,
      unfocusedMs: 60 * SECOND,
      poll: () => {
        polls.push(clock.now());
        return Promise.resolve(answer(polls.length));
      },
    });
    return { clock, scheduler, polls, focused };
  }
  const gaps = (times: number[]) => times.slice(1).map((t, i) => t - (times[i] ?? 0));

  it('reads a running deployment at least every 5 s while nothing changes, at the floor while its logs grow, and never once it ended', async () => {
    const r = run((n) => (n >= 12 ? { kind: 'ok', terminal: true, changed: true } : { kind: 'ok', terminal: false, changed: n >= 6 && n < 9 }));
    r.scheduler.track({ key: 'deployment:d1', kind: 'deployment' });
    await r.clock.advance(5 * 60 * SECOND);
    const g = gaps(r.polls);
    assert.equal(r.polls.length, 12);
    assert.ok(g.every((ms) => ms >= 2 * SECOND && ms <= 5 * SECOND), `between the floor and 5 s: ${g.join(',')}`);
    assert.equal(g[6], 2 * SECOND, 'a new line tightens to the floor');
    assert.equal(r.scheduler.size, 0);
    assert.equal(r.clock.pending, 0, 'no timer left');
  });

  it('an agent job with a deployment, in the background: both slow to once a minute; errors back off past 5 s', async () => {
    const r = run(() => ({ kind: 'error' }));
    r.scheduler.track({ key: 'deployment:d2', kind: 'deployment' });
    await r.clock.advance(10 * 60 * SECOND);
    assert.ok(gaps(r.polls).slice(-2).every((ms) => ms > 5 * SECOND), `errors back off: ${gaps(r.polls).join(',')}`);
    const quiet = run(() => ({ kind: 'ok', terminal: false, changed: false }));
    quiet.focused.value = false;
    quiet.scheduler.track({ key: 'deployment:d3', kind: 'deployment' });
    await quiet.clock.advance(5 * 60 * SECOND);
    assert.ok(gaps(quiet.polls).every((ms) => ms >= 60 * SECOND), `unfocused: ${gaps(quiet.polls).join(',')}`);
    r.scheduler.dispose();
    quiet.scheduler.dispose();
  });
});

describe('JobsService with deployments (against the simulator)', () => {
  let sim: Simulator;
  let store: MemoryStore;
  const disposables: { dispose(): void }[] = [];
  const clients: AdminApiClient[] = [];

  function service(): JobsService {
    const log = recordingLogger('deployments');
    const client = new AdminApiClient({ baseUrl: sim.baseUrl, projectId: sim.projectId, getKey: () => sim.key, log, baseDelayMs: 1, maxDelayMs: 5 });
    clients.push(client);
    const s = new JobsService({ client, registry: new JobRegistry(store, 'deployments.test', log), clock: systemClock, isFocused: () => true, log, floorMs: 20, ceilingMs: 50 });
    disposables.push(s);
    return s;
  }

  beforeEach(async () => {
    sim = await Simulator.start({ timeScale: 200 });
    store = new MemoryStore();
  });
  afterEach(async () => {
    for (const d of disposables.splice(0)) d.dispose();
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await sim.stop();
  });

  it('follows a preview to its end: logs grow in memory (not in the stored list), one transition, and a reload keeps what it deploys', async () => {
    const seeded = sim.addDeployment({ kind: 'preview', branch: 'docs-agent/x', queuedMs: 0, durationMs: 200_000 });
    const id = String(seeded._id);
    const s = service();
    const transitions: Transition[] = [];
    s.onDidTransition((t) => transitions.push(t));
    const counts: number[] = [];
    s.onDidChangeJobs(() => counts.push(s.logsOf(`deployment:${id}`)?.length ?? 0));
    await s.trackDeployment(id, { kind: 'preview', branch: 'docs-agent/x', previewUrl: sim.previewUrl('docs-agent/x') });
    await waitFor('the end', () => transitions.length > 0);
    assert.deepEqual(transitions.map((t) => [t.key, t.to]), [[`deployment:${id}`, 'success']]);
    assert.ok(new Set(counts).size >= 3, `the lines came over several readings: ${counts.join(',')}`);
    assert.equal(s.logsOf(`deployment:${id}`)?.at(-1), 'Deployment complete');
    const stored = JSON.stringify(store.data.get('deployments.test'));
    assert.doesNotMatch(stored, /Deployment complete|Cloning the repository/, 'no log line in storage');
    assert.match(stored, /"logLines":10/);
    const count = sim.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(sim.requests.length, count, 'an ended deployment is not polled again');
    // A new window on the same storage: the row at once, without its logs until read.
    const again = service();
    const job = again.get(`deployment:${id}`);
    assert.ok(job?.kind === 'deployment');
    assert.deepEqual(job.target, { kind: 'preview', branch: 'docs-agent/x', previewUrl: sim.previewUrl('docs-agent/x') });
    assert.equal(job.snapshot?.status, 'success');
    assert.equal(again.logsOf(`deployment:${id}`), undefined);
    await again.readNow(`deployment:${id}`);
    assert.equal(again.logsOf(`deployment:${id}`)?.length, 10);
  });

  it('a deployment tracked by its id after it ended does not notify; an unknown status id shows its 404 on the row', async () => {
    const ended = sim.addDeployment({ createdAt: sim.now() - 3_600_000, queuedMs: 0, durationMs: 1_000 });
    const s = service();
    const transitions: Transition[] = [];
    s.onDidTransition((t) => transitions.push(t));
    await s.trackDeployment(String(ended._id));
    await waitFor('the reading', () => s.get(`deployment:${String(ended._id)}`)?.snapshot !== undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(transitions, []);
    await s.trackDeployment('0000000000000000000000aa');
    await waitFor('the error', () => s.errorOf('deployment:0000000000000000000000aa') !== undefined);
    assert.match(s.errorOf('deployment:0000000000000000000000aa') ?? '', /was not found \(404: Update status not found\)/);
  });
});

describe('deployments, presented', () => {
  const now = Date.parse('2026-05-01T12:00:00Z');
  const snapshot = (over: Partial<DeploymentSnapshot> = {}): DeploymentSnapshot => ({
    id: 's1',
    status: 'success',
    rawStatus: 'success',
    createdAt: '2026-05-01T11:58:00Z',
    endedAt: '2026-05-01T11:59:30Z',
    summary: 'Deployed 3 pages',
    author: { name: 'Ada' },
    source: 'github',
    commit: { sha: '3f2a9c1d00', ref: 'main', message: 'Update the quickstart\n\nLonger text' },
    logLines: 12,
    ...over,
  });
  const runningSnapshot = (): DeploymentSnapshot => {
    const { endedAt, ...rest } = snapshot({ status: 'in_progress', rawStatus: 'in_progress' });
    void endedAt;
    return rest;
  };
  const unread = (): Extract<TrackedJob, { kind: 'deployment' }> => ({ kind: 'deployment', id: 's1', addedAt: now - 200_000, target: { kind: 'production' } });
  const job = (over: Partial<Extract<TrackedJob, { kind: 'deployment' }>> = {}): Extract<TrackedJob, { kind: 'deployment' }> => ({ kind: 'deployment', id: 's1', addedAt: now - 200_000, target: { kind: 'production' }, snapshot: snapshot(), ...over });

  it('a row: what was deployed, status, commit, author, source, age and duration; its icon and context value by status and target', () => {
    const p = presentDeployment(job(), now, () => '2m ago');
    assert.equal(p.label, 'Production');
    assert.equal(p.description, 'deployed · 3f2a9c1 Update the quickstart · Ada · github · 2m ago · 1m 30s');
    assert.equal(p.icon, 'rocket');
    assert.equal(p.contextValue, 'deployment.success.production');
    const running = presentDeployment(job({ target: { kind: 'preview', branch: 'feature/a' }, snapshot: runningSnapshot() }), now, () => '');
    assert.equal(running.label, 'Preview of feature/a');
    assert.equal(running.icon, 'sync~spin');
    assert.equal(running.contextValue, 'deployment.running.preview');
    assert.match(running.description, /^deploying · .* · 2m$/, 'the duration so far');
    const unknownTarget = presentDeployment({ id: 's1', snapshot: snapshot() }, now, () => '');
    assert.equal(unknownTarget.label, 'Deployment of main');
    assert.equal(unknownTarget.contextValue, 'deployment.success.unknown');
    assert.equal(presentDeployment(unread(), now, () => '').contextValue, 'deployment.loading.production');
    assert.equal(presentDeployment(job({ snapshot: snapshot({ status: 'unknown', rawStatus: 'cancelled' }) }), now, () => '').icon, 'question');
  });

  it('the status bar: "Deploying · Preview docs-agent/…" for one, a count for several; notices offer Open Site, Open Preview or Show Logs', () => {
    const running = job({ target: { kind: 'preview', branch: 'docs-agent/quickstart-tips' }, snapshot: snapshot({ status: 'queued', rawStatus: 'queued' }) });
    assert.equal(statusText([running])?.text, 'Deploying · Preview docs-agent/…');
    assert.deepEqual(statusText([running])?.lines, ['Preview of docs-agent/quickstart-tips: queued']);
    assert.equal(statusText([running, { ...running, id: 's2' }])?.text, '2 deployments');
    assert.equal(statusText([job()]), undefined, 'an ended one is not running');
    assert.equal(shortBranch('main'), 'main');
    assert.equal(shortBranch('averyveryverylongbranchname'), 'averyveryverylo…');
    const ok = deploymentNotice(job(), 'all');
    assert.deepEqual(ok, { severity: 'info', message: 'Production is deployed (3f2a9c1 Update the quickstart).', actions: [{ title: 'Open Site', command: 'docsAdmin.site.open' }] });
    assert.deepEqual(deploymentNotice(job({ target: { kind: 'preview', branch: 'b' } }), 'all')?.actions, [{ title: 'Open Preview', command: 'docsAdmin.deployment.openPreview' }]);
    const failed = noticeFor({ key: 'deployment:s1', job: job({ snapshot: snapshot({ status: 'failure', rawStatus: 'failure', summary: 'Build failed' }) }), from: 'in_progress', to: 'failure' }, 'failures');
    assert.deepEqual(failed, { severity: 'error', message: 'Production failed to deploy: Build failed', actions: [{ title: 'Show Logs', command: 'docsAdmin.deployment.showLogs' }] });
    assert.equal(deploymentNotice(job(), 'failures'), undefined);
    assert.equal(deploymentNotice(job(), 'none'), undefined);
  });

  it('an agent row\'s preview: the newest of its branch (its own first), and what the row says', () => {
    const agent: TrackedJob = { kind: 'agent', id: 'a1', addedAt: 0 };
    const mine = job({ id: 'p1', addedAt: 10, target: { kind: 'preview', branch: 'agent/x', agentJobId: 'a1' }, snapshot: snapshot({ status: 'success', rawStatus: 'success' }) });
    const newerOther = job({ id: 'p2', addedAt: 20, target: { kind: 'preview', branch: 'agent/x' }, snapshot: snapshot({ status: 'failure', rawStatus: 'failure' }) });
    assert.equal(previewOfBranch([agent, mine, newerOther], 'agent/x', 'a1')?.id, 'p1');
    assert.equal(previewOfBranch([agent, newerOther], 'agent/x', 'a1')?.id, 'p2');
    assert.equal(previewOfBranch([agent, mine], null, 'a1'), undefined);
    assert.deepEqual(agentPreviewNote(previewState(mine)), { note: 'preview ready', token: 'previewReady' });
    assert.deepEqual(agentPreviewNote(previewState(newerOther)), { note: 'preview failed' });
    assert.deepEqual(agentPreviewNote(previewState({ ...unread(), target: { kind: 'preview', branch: 'agent/x' } })), { note: 'preview deploying' });
    assert.equal(withPreviewToken('agentJob.completed.hasPr', 'previewReady'), 'agentJob.completed.previewReady.hasPr');
  });

  it('the logs document: header, lines with control characters shown as escapes, and whether more will come', () => {
    const text = logDocument(job({ snapshot: runningSnapshot() }), ['one', '\u001b[31mred\u001b[0m', 'tab\there'], now);
    assert.match(text, /^Production · deploying\nStatus id: s1\nCommit: 3f2a9c1d00 \(main\) Update the quickstart\nAda · github · 2026-05-01T11:58:00Z · 2m\nSummary: Deployed 3 pages\n─+\none\n\\u001b\[31mred\\u001b\[0m\ntab\there\n\(deploying: more lines as they come\)\n$/);
    assert.match(logDocument(job(), undefined, now), /\(reading the logs…\)\n$/);
  });

  it('a failed run\'s logs open on the line that says why: the last error, not the summing-up after it', () => {
    assert.equal(failureLineIndex(['Building', 'Error: guides/install.mdx:12:3: Unknown component', 'Build failed: 1 error in 1 page']), 1);
    assert.equal(failureLineIndex(['a', 'error TS2304: x', 'b', 'fatal: not a git repository', 'done']), 3);
    assert.equal(failureLineIndex(['step', 'npm ERR! code E404', 'bye']), 1);
    assert.equal(failureLineIndex(['step', 'it broke', '', '  ']), 1, 'else the last line that is not blank');
    assert.equal(failureLineIndex([]), undefined);
    const failed = job({ snapshot: { ...runningSnapshot(), status: 'failure', rawStatus: 'failure', endedAt: '2026-05-01T12:01:00Z' } });
    const lines = ['one', 'Error: boom', 'Build failed'];
    const at = failureDocumentLine(failed, lines, now);
    assert.equal(logDocument(failed, lines, now).split('\n')[at ?? -1], 'Error: boom');
    assert.equal(failureDocumentLine(job({ snapshot: runningSnapshot() }), lines, now), undefined, 'a run that did not fail opens at its end');
  });

  it('stored entries: deployments read back with their target; an unreadable one is skipped and kept', () => {
    const parsed = parseStored(
      [
        { kind: 'deployment', id: 's1', addedAt: 1, target: { kind: 'preview', branch: 'b', previewUrl: 'https://p.example' }, snapshot: { id: 's1', status: 'success', rawStatus: 'success', logLines: 3, author: null } },
        { kind: 'deployment', id: 's2', addedAt: 2, target: { kind: 'staging' } },
        { kind: 'deployment', id: 's3', addedAt: 3, snapshot: { status: 'success' } },
      ],
      'k',
    );
    assert.deepEqual([...parsed.jobs.keys()], ['deployment:s1', 'deployment:s3']);
    assert.equal(parsed.unreadable, 1);
    const s3 = parsed.jobs.get('deployment:s3');
    assert.equal(s3?.snapshot, undefined, 'a reading that cannot be read is asked for again');
  });
});
