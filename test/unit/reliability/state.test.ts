/**
 * Reliability matrix, state: a corrupt registry or bundle shelf in storage, two windows sharing
 * one globalState, and a values file that changes while a publish runs. Each case asserts what
 * the user sees (a log line, a message saying what to do) and what is kept (every readable job,
 * every unreadable entry, the other window's jobs, the user's edit).
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AgentJob, ExportJob } from '../../../src/core/api/apiTypes';
import { BundleShelf } from '../../../src/core/bundle/shelf/shelf';
import { publish, type PublishOptions, type ValuesStore } from '../../../src/core/helm/publishPipeline';
import { readStaticExport, ValuesFileError } from '../../../src/core/helm/values';
import { valuesFile } from '../../../src/core/helm/valuesFile';
import { systemClock } from '../../../src/core/jobs/clock';
import { JobRegistry } from '../../../src/core/jobs/registry';
import { JobsService } from '../../../src/core/jobs/service';
import type { Logger } from '../../../src/core/log';
import { Simulator } from '../../simulator';
import { MemoryStore } from '../support/memoryStore';
import { SharedStore } from '../support/sharedStore';
import { jobKey, type TrackedJob } from '../../../src/core/jobs/trackedJob';
import { MAX_SHOWN_JOBS } from '../../../src/core/jobs/storedJobs';
import type { KeyValueStore } from '../../../src/core/keyValueStore';
import { AdminApiClient } from '../../../src/core/api/client';
import { collector } from '../support/collector';
import { recordingLogger } from '../support/logger';
import { RolloutError, ValuesChangedError } from '../../../src/core/helm/publishErrors';

/** Every level goes to the suite's collector (the secrets scan); `lines` keeps info and above, as they are. */
function recorder(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const all = recordingLogger('state');
  const push = (level: 'info' | 'warn' | 'error') => (m: string) => {
    all[level](m);
    lines.push(m);
  };
  return { lines, trace: (m) => all.trace(m), debug: (m) => all.debug(m), info: push('info'), warn: push('warn'), error: push('error') };
}

const KEY = 'jobs.prod';

function agentSnapshot(id: string, status: 'active' | 'completed'): AgentJob {
  return { id, status, rawStatus: status, source: { repository: 'https://github.com/acme/docs', ref: 'main' }, model: 'docs-agent-1', prLink: null, createdAt: '2026-11-23T10:00:00Z', archivedAt: null };
}

function exportSnapshot(jobId: string, status: 'running' | 'completed', progress: number): ExportJob {
  return { jobId, status, rawStatus: status, progress };
}

async function waitFor(what: string, condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('reliability: state @state', function () {
  this.timeout(30_000);

  describe('a corrupt job registry in storage', () => {
    const good = { kind: 'agent', id: 'a1', addedAt: 1 };

    const notAList: [string, unknown][] = [
      ['an object', { jobs: ['a1'] }],
      ['a string', 'agent:a1,agent:a2'],
      ['a number', 42],
      ['a boolean', true],
    ];
    for (const [title, value] of notAList) {
      it(`not a list (${title}): starts empty with a log line, and the value survives the next save`, async () => {
        const store = new MemoryStore();
        store.data.set(KEY, value);
        const log = recorder();
        const registry = new JobRegistry(store, KEY, log);
        assert.deepEqual(registry.list(), []);
        assert.equal(registry.unreadableCount, 1);
        assert.match(log.lines.join('\n'), /are not a list .*keeping the value untouched/);
        await registry.add({ kind: 'agent', id: 'new', addedAt: 2 });
        assert.deepEqual(store.data.get(KEY), [value, { kind: 'agent', id: 'new', addedAt: 2 }]);
        assert.deepEqual(new JobRegistry(store, KEY, recorder()).list().map(jobKey), ['agent:new']);
      });
    }

    it('null: starts empty with a log line', async () => {
      const store = new MemoryStore();
      store.data.set(KEY, null);
      const log = recorder();
      const registry = new JobRegistry(store, KEY, log);
      assert.deepEqual(registry.list(), []);
      assert.match(log.lines.join('\n'), /were null; starting empty/);
      await registry.add({ kind: 'export', id: 'e', addedAt: 1 });
      assert.deepEqual(store.data.get(KEY), [{ kind: 'export', id: 'e', addedAt: 1 }]);
    });

    const badEntries: [string, unknown, RegExp][] = [
      ['no id', { kind: 'agent', addedAt: 1 }, /#1 .*id is missing/],
      ['a numeric id', { kind: 'agent', id: 7, addedAt: 1 }, /#1 .*id is not a string/],
      ['an empty id', { kind: 'export', id: '', addedAt: 1 }, /#1 .*id is empty/],
      ['a kind from a newer version', { kind: 'deploy', id: 'd1', addedAt: 1, target: 'prod' }, /#1 /],
      ['a date as text', { kind: 'agent', id: 'a9', addedAt: '2026-11-23' }, /#1 .*addedAt is not a number/],
      ['a string', 'agent:a9', /#1 /],
      ['null', null, /#1 /],
      ['a list', [1, 2], /#1 /],
    ];
    for (const [title, bad, says] of badEntries) {
      it(`an entry with ${title}: skipped with a log line, kept in place through add, update and remove`, async () => {
        const store = new MemoryStore();
        store.data.set(KEY, [good, bad, { kind: 'export', id: 'e1', addedAt: 3 }]);
        const log = recorder();
        const registry = new JobRegistry(store, KEY, log);
        assert.deepEqual(registry.list().map(jobKey), ['agent:a1', 'export:e1']);
        assert.equal(registry.unreadableCount, 1);
        assert.match(log.lines.join('\n'), says);
        assert.match(log.lines.join('\n'), /it is kept as it is/);
        await registry.add({ kind: 'agent', id: 'a2', addedAt: 4 });
        await registry.updateSnapshot('agent:a1', agentSnapshot('a1', 'active'));
        await registry.remove('export:e1');
        const saved = store.data.get(KEY) as unknown[];
        assert.deepEqual(saved[1], bad, 'the unreadable entry is still there, as it was, where it was');
        assert.equal(saved.length, 3);
      });
    }

    it('a job whose last reading cannot be read: the job shows, the reading is asked for again, nothing is lost meanwhile', async () => {
      const store = new MemoryStore();
      const broken = { kind: 'agent', id: 'a1', addedAt: 1, snapshot: { status: 42 } };
      store.data.set(KEY, [broken]);
      const log = recorder();
      const registry = new JobRegistry(store, KEY, log);
      assert.deepEqual(registry.list(), [{ kind: 'agent', id: 'a1', addedAt: 1 }]);
      assert.match(log.lines.join('\n'), /agent:a1 .*last reading cannot be read.*asked for again/);
      await registry.add({ kind: 'agent', id: 'a2', addedAt: 2 });
      assert.deepEqual((store.data.get(KEY) as unknown[])[0], broken, 'kept until a new reading replaces it');
      assert.equal(await registry.updateSnapshot('agent:a1', agentSnapshot('a1', 'completed')), true);
      assert.deepEqual((store.data.get(KEY) as { snapshot: unknown }[])[0]?.snapshot, agentSnapshot('a1', 'completed'));
    });

    it('fields a newer version added to an entry survive this version\'s update', async () => {
      const store = new MemoryStore();
      store.data.set(KEY, [{ kind: 'export', id: 'e1', addedAt: 1, domain: 'docs.acme.dev', pinned: true, label: 'launch' }]);
      const registry = new JobRegistry(store, KEY, recorder());
      await registry.updateSnapshot('export:e1', exportSnapshot('e1', 'running', 30));
      assert.deepEqual(store.data.get(KEY), [{ kind: 'export', id: 'e1', addedAt: 1, domain: 'docs.acme.dev', pinned: true, label: 'launch', snapshot: exportSnapshot('e1', 'running', 30) }]);
    });

    it('duplicate ids: shown once (the finished copy\'s reading), with a log line; Stop Tracking removes every copy, nothing else', async () => {
      const store = new MemoryStore();
      store.data.set(KEY, [
        { kind: 'agent', id: 'a1', addedAt: 1, snapshot: agentSnapshot('a1', 'active') },
        { kind: 'agent', id: 'a2', addedAt: 2 },
        { kind: 'agent', id: 'a1', addedAt: 3, snapshot: agentSnapshot('a1', 'completed') },
      ]);
      const log = recorder();
      const registry = new JobRegistry(store, KEY, log);
      assert.deepEqual(registry.list().map(jobKey), ['agent:a1', 'agent:a2']);
      assert.equal(registry.get('agent:a1')?.snapshot?.status, 'completed');
      assert.equal(registry.get('agent:a1')?.addedAt, 1);
      assert.match(log.lines.join('\n'), /agent:a1 is listed more than once .*showing it once/);
      await registry.remove('agent:a1');
      assert.deepEqual(store.data.get(KEY), [{ kind: 'agent', id: 'a2', addedAt: 2 }]);
    });

    it(`a huge list (50,000 entries): the newest ${MAX_SHOWN_JOBS} are shown and polled, with a log line; every entry survives a save`, async () => {
      const store = new MemoryStore();
      const entries = Array.from({ length: 50_000 }, (_, i) => ({ kind: 'agent', id: `a${i}`, addedAt: i }));
      store.data.set(KEY, entries);
      const log = recorder();
      const registry = new JobRegistry(store, KEY, log);
      assert.equal(registry.list().length, MAX_SHOWN_JOBS);
      assert.ok(registry.has('agent:a49999') && !registry.has('agent:a0'), 'the newest are shown');
      assert.match(log.lines.join('\n'), /tracks 50000 jobs; the newest 2000 are shown and polled, the others are kept/);
      const service = new JobsService({ client: { getAgentJob: () => new Promise(() => undefined), getExportJob: () => new Promise(() => undefined), startExport: () => new Promise(() => undefined), getDeploymentStatus: () => new Promise(() => undefined) }, registry, clock: systemClock, isFocused: () => true, log: recorder() });
      try {
        assert.equal(service.activeCount, MAX_SHOWN_JOBS, 'no more polls than rows');
      } finally {
        service.dispose();
      }
      await registry.add({ kind: 'agent', id: 'fresh', addedAt: 60_000 });
      await registry.remove('agent:a49999');
      const saved = store.data.get(KEY) as { id: string }[];
      assert.equal(saved.length, 50_000);
      assert.equal(saved[0]?.id, 'a0');
      // Tracking one that is stored but not shown shows it, without a second copy.
      await registry.add({ kind: 'agent', id: 'a5', addedAt: 70_000 });
      assert.ok(registry.has('agent:a5'));
      assert.equal((store.data.get(KEY) as unknown[]).length, 50_000);
    });

    it('says each problem once per window, not at every reload', () => {
      const store = new MemoryStore();
      store.data.set(KEY, [good, 'garbage']);
      const log = recorder();
      const registry = new JobRegistry(store, KEY, log);
      registry.reload();
      registry.reload();
      assert.equal(log.lines.length, 1);
    });
  });

  describe('a corrupt bundle shelf in storage', () => {
    const SHELF = 'docsAdmin.bundles.prod';
    const record = { archive: '/home/me/docs.tar.gz', archiveBytes: 2048 };

    for (const [title, value] of [['a string', 'garbage'], ['a list', [record]], ['a number', 7], ['null', null]] as [string, unknown][]) {
      it(`the whole value is ${title}: nothing shows, a log line; the next record sets it aside, never over it`, async () => {
        const store = new MemoryStore();
        store.data.set(SHELF, value);
        const log = recorder();
        const shelf = new BundleShelf(store, SHELF, log);
        assert.equal(shelf.get('exp_1'), undefined);
        assert.match(log.lines.join('\n'), /cannot be read \(not an object\); they are kept/);
        await shelf.update('exp_1', { folder: '/home/me/docs' });
        assert.deepEqual(shelf.get('exp_1'), { folder: '/home/me/docs' });
        assert.deepEqual(store.data.get(`${SHELF}.unreadable`), [{ from: SHELF, value }]);
        assert.match(log.lines.join('\n'), /Set the unreadable docsAdmin\.bundles\.prod aside under docsAdmin\.bundles\.prod\.unreadable/);
      });
    }

    it('an entry that is not an object: skipped with one log line; updating that job sets it aside; the others are untouched', async () => {
      const store = new MemoryStore();
      store.data.set(SHELF, { exp_bad: 'garbage', exp_ok: record });
      const log = recorder();
      const shelf = new BundleShelf(store, SHELF, log);
      assert.equal(shelf.get('exp_bad'), undefined);
      assert.equal(shelf.get('exp_bad'), undefined);
      assert.equal(log.lines.filter((l) => /unreadable bundle record for export job exp_bad/.test(l)).length, 1, 'said once, though read twice');
      await shelf.update('exp_bad', { folder: '/x' });
      assert.deepEqual(store.data.get(SHELF), { exp_bad: { folder: '/x' }, exp_ok: record });
      assert.deepEqual(store.data.get(`${SHELF}.unreadable`), [{ from: `${SHELF}[exp_bad]`, value: 'garbage' }]);
    });

    it('a field of the wrong type: the rest of the entry shows; the field stays through an update of another', async () => {
      const store = new MemoryStore();
      store.data.set(SHELF, { exp_1: { ...record, summary: { pages: 'many' }, extractedAt: 5, note: 'from a newer version' } });
      const log = recorder();
      const shelf = new BundleShelf(store, SHELF, log);
      assert.deepEqual(shelf.get('exp_1'), { ...record, extractedAt: 5 });
      assert.match(log.lines.join('\n'), /exp_1 has unreadable summary; the rest is shown/);
      await shelf.update('exp_1', { folder: '/home/me/docs' });
      assert.deepEqual(store.data.get(SHELF), { exp_1: { ...record, summary: { pages: 'many' }, extractedAt: 5, note: 'from a newer version', folder: '/home/me/docs' } });
    });

    it('two updates in one window without waiting: both kept', async () => {
      const store = new MemoryStore();
      const shelf = new BundleShelf(store, SHELF, recorder());
      await Promise.all([shelf.update('exp_1', record), shelf.update('exp_2', { folder: '/b' })]);
      assert.deepEqual(Object.keys(store.data.get(SHELF) as object).sort(), ['exp_1', 'exp_2']);
    });

    it('two windows: one window\'s record does not erase the other\'s, and focus shows it', async () => {
      const shared = new SharedStore();
      const a = new BundleShelf(shared.window(), SHELF, recorder());
      const storeB = shared.window();
      const b = new BundleShelf(storeB, SHELF, recorder());
      const seenByB: string[] = [];
      b.onDidChange((id) => seenByB.push(id));
      await a.update('exp_a', record);
      shared.propagate();
      await b.update('exp_b', { folder: '/b' });
      shared.propagate();
      assert.deepEqual(Object.keys(shared.read(SHELF) as object).sort(), ['exp_a', 'exp_b']);
      assert.deepEqual(seenByB, ['exp_b']);
      await a.update('exp_a', { folder: '/a' });
      shared.propagate();
      b.reload();
      assert.deepEqual(seenByB, ['exp_b', 'exp_a'], 'the row of the job the other window extracted is redrawn');
      assert.equal(b.get('exp_a')?.folder, '/a');
    });
  });

  describe('two windows tracking jobs over one globalState', () => {
    let shared: SharedStore;

    beforeEach(() => {
      shared = new SharedStore();
    });

    function open(store: KeyValueStore = shared.window()): JobRegistry {
      return new JobRegistry(store, KEY, recorder());
    }

    it('window A tracks X while window B tracks Y: both are kept, and each window shows both after focus', async () => {
      const a = open();
      const b = open();
      await a.add({ kind: 'agent', id: 'x', addedAt: 1 });
      shared.propagate();
      await b.add({ kind: 'agent', id: 'y', addedAt: 2 });
      shared.propagate();
      assert.deepEqual((shared.read(KEY) as TrackedJob[]).map(jobKey), ['agent:x', 'agent:y']);
      assert.deepEqual(b.list().map(jobKey).sort(), ['agent:x', 'agent:y'], 'B saw X when it wrote');
      a.reload();
      assert.deepEqual(a.list().map(jobKey).sort(), ['agent:x', 'agent:y']);
    });

    it('A and B track jobs at the same moment (their writes cross): the one the store dropped is put back at the next focus', async () => {
      const a = open();
      const b = open();
      await a.add({ kind: 'agent', id: 'x', addedAt: 1 });
      await b.add({ kind: 'agent', id: 'y', addedAt: 2 });
      shared.propagate();
      assert.deepEqual((shared.read(KEY) as TrackedJob[]).map(jobKey), ['agent:y'], 'last write wins in the store');
      a.reload();
      assert.deepEqual(a.list().map(jobKey).sort(), ['agent:x', 'agent:y'], 'A still shows X, and Y');
      shared.propagate();
      b.reload();
      assert.deepEqual(b.list().map(jobKey).sort(), ['agent:x', 'agent:y']);
      assert.deepEqual((shared.read(KEY) as TrackedJob[]).map(jobKey), ['agent:y', 'agent:x']);
    });

    it('A stops X while B records a reading of X (their writes cross): X stays stopped', async () => {
      const a = open();
      const b = open();
      await a.add({ kind: 'export', id: 'x', addedAt: 1 });
      await a.add({ kind: 'export', id: 'z', addedAt: 2 });
      shared.propagate();
      b.reload();
      await a.remove('export:x');
      await b.updateSnapshot('export:x', exportSnapshot('x', 'running', 40));
      shared.propagate();
      assert.deepEqual((shared.read(KEY) as TrackedJob[]).map(jobKey), ['export:x', 'export:z'], 'B\'s write won in the store');
      b.reload();
      a.reload();
      shared.propagate();
      assert.deepEqual((shared.read(KEY) as TrackedJob[]).map(jobKey), ['export:z']);
      assert.deepEqual([a.has('export:x'), b.has('export:x')], [false, false]);
      // Tracking it again later is a fresh start, not blocked by the stop.
      await b.add({ kind: 'export', id: 'x', addedAt: 3 });
      shared.propagate();
      a.reload();
      assert.ok(a.has('export:x'));
    });

    it('a job stopped in A does not come back from B, which was still polling it', async () => {
      const a = open();
      const b = open();
      await a.add({ kind: 'export', id: 'x', addedAt: 1 });
      shared.propagate();
      b.reload();
      assert.ok(b.has('export:x'));
      await a.remove('export:x');
      shared.propagate();
      // B's poll of X answers after the stop reached B's copy.
      const changes: string[][] = [];
      b.onDidChange((keys, elsewhere) => changes.push([...keys, `removed:${elsewhere.removed.join(',')}`]));
      await b.updateSnapshot('export:x', exportSnapshot('x', 'running', 40));
      shared.propagate();
      assert.deepEqual(shared.read(KEY), []);
      assert.equal(b.has('export:x'), false);
      assert.deepEqual(changes, [['export:x', 'removed:export:x']]);
    });

    it('both windows poll the same job: a stale reading never takes a finished job back to running', async () => {
      const a = open();
      const b = open();
      await a.add({ kind: 'export', id: 'x', addedAt: 1 });
      shared.propagate();
      b.reload();
      await a.updateSnapshot('export:x', exportSnapshot('x', 'running', 50));
      shared.propagate();
      await b.updateSnapshot('export:x', exportSnapshot('x', 'completed', 100));
      shared.propagate();
      // A's next reading was taken before the export finished.
      await a.updateSnapshot('export:x', exportSnapshot('x', 'running', 60));
      shared.propagate();
      assert.equal((shared.read(KEY) as TrackedJob[])[0]?.snapshot?.status, 'completed');
      assert.equal(a.get('export:x')?.snapshot?.status, 'completed', 'A shows what B saw');
    });

    it('this window\'s own copy shows an older state for a moment (VS Code echoes writes late): nothing this window did is undone', async () => {
      const store = shared.window();
      const registry = open(store);
      await registry.add({ kind: 'agent', id: 'x', addedAt: 1 });
      const onlyX = JSON.parse(JSON.stringify(store.get(KEY))) as unknown;
      await registry.add({ kind: 'agent', id: 'y', addedAt: 2 });
      await registry.updateSnapshot('agent:y', agentSnapshot('y', 'completed'));
      const withY = JSON.parse(JSON.stringify(store.get(KEY))) as unknown;
      const stopsBefore = JSON.parse(JSON.stringify(store.get(`${KEY}.stopped`) ?? null)) as unknown;
      // The echo of the first write arrives after the later ones: Y is gone from this window's copy.
      store.data.set(KEY, onlyX);
      registry.reload();
      assert.deepEqual(registry.list().map(jobKey).sort(), ['agent:x', 'agent:y']);
      assert.equal(registry.get('agent:y')?.snapshot?.status, 'completed');
      assert.deepEqual(store.get(KEY), withY, 'written back whole');
      // A stop, then an echo from before it: X stays stopped.
      await registry.remove('agent:x');
      store.data.set(KEY, withY);
      store.data.set(`${KEY}.stopped`, stopsBefore);
      registry.reload();
      assert.deepEqual(registry.list().map(jobKey), ['agent:y']);
      assert.deepEqual((store.get(KEY) as TrackedJob[]).map(jobKey), ['agent:y']);
    });

    it('unreadable entries survive writes from both windows', async () => {
      const first = shared.window();
      await first.update(KEY, ['from a newer version', { kind: 'agent', id: 'x', addedAt: 1 }]);
      shared.propagate();
      const a = open(first);
      const b = open();
      await a.add({ kind: 'agent', id: 'y', addedAt: 2 });
      shared.propagate();
      await b.remove('agent:x');
      shared.propagate();
      assert.deepEqual(shared.read(KEY), ['from a newer version', { kind: 'agent', id: 'y', addedAt: 2 }]);
    });

    describe('the services of two windows against the simulator', () => {
      let sim: Simulator;
      const clients: AdminApiClient[] = [];
      const services: JobsService[] = [];

      beforeEach(async () => {
        sim = await Simulator.start({ timeScale: 1_000 });
      });

      afterEach(async () => {
        for (const s of services.splice(0)) s.dispose();
        await Promise.all(clients.splice(0).map((c) => c.close()));
        await sim.stop();
      });

      function windowService(): JobsService {
        const client = new AdminApiClient({ baseUrl: sim.baseUrl, projectId: sim.projectId, getKey: () => sim.key, baseDelayMs: 1, maxDelayMs: 5, log: recordingLogger('client') });
        clients.push(client);
        const service = new JobsService({ client, registry: open(), clock: systemClock, isFocused: () => true, log: recorder(), floorMs: 20, ceilingMs: 50 });
        services.push(service);
        return service;
      }

      it('focus brings in the other window\'s jobs and polls them; a job stopped there stops being polled here', async () => {
        sim.addAgentJob({ id: 'x', durationMs: 3_600_000 });
        sim.addAgentJob({ id: 'y', durationMs: 3_600_000 });
        const a = windowService();
        const b = windowService();
        await b.trackAgentJob('y');
        shared.propagate();
        await a.trackAgentJob('x');
        shared.propagate();
        const rows: string[][] = [];
        b.onDidChangeJobs((keys) => rows.push(keys));
        b.reload();
        assert.deepEqual(b.list().map(jobKey).sort(), ['agent:x', 'agent:y']);
        assert.ok(rows.some((keys) => keys.includes('agent:x')), 'the new row is drawn');
        sim.clearRequests();
        await waitFor('B polling X', () => sim.requests.some((r) => r.path.endsWith('/job/x')));
        assert.equal(b.activeCount, 2);

        await a.untrack('agent:x');
        shared.propagate();
        b.reload();
        assert.equal(b.activeCount, 1);
        assert.equal(b.get('agent:x'), undefined);
        await new Promise((r) => setTimeout(r, 150));
        sim.clearRequests();
        await new Promise((r) => setTimeout(r, 300));
        assert.ok(!sim.requests.some((r) => r.path.endsWith('/job/x')), 'B no longer asks about X');
        assert.deepEqual((shared.read(KEY) as TrackedJob[]).map(jobKey), ['agent:y']);
      });
    });
  });

  describe('a reading being saved when the key is rejected', () => {
    it('the state stays "key rejected" (polling is paused), not "ok" from the reading that finished last', async () => {
      const sim = await Simulator.start({ timeScale: 1_000 });
      const client = new AdminApiClient({ baseUrl: sim.baseUrl, projectId: sim.projectId, getKey: () => sim.key, maxAttempts: 1, log: recordingLogger('client') });
      // globalState's writes resolve once they reach the window's storage: a moment later.
      const inner = new MemoryStore();
      let slowWrites = false;
      const slow: KeyValueStore = { get: (k) => inner.get(k), update: (k, v) => inner.update(k, v).then(() => new Promise<void>((r) => setTimeout(r, slowWrites ? 300 : 0))) };
      const service = new JobsService({ client, registry: new JobRegistry(slow, KEY, recorder()), clock: systemClock, isFocused: () => true, log: recorder(), floorMs: 20, ceilingMs: 50 });
      try {
        sim.addAgentJob({ id: 'a', durationMs: 3_600_000 });
        sim.addAgentJob({ id: 'b', durationMs: 3_600_000 });
        // The first request answers (after 100 ms, once the writes are slow); the second finds the key revoked.
        sim.injectFault({ route: 'agent.get', kind: 'delay', ms: 100 });
        sim.injectFault({ route: 'agent.get', kind: 'status', status: 401, body: { error: 'Invalid or missing API key' }, times: Infinity });
        await Promise.all([service.trackAgentJob('a'), service.trackAgentJob('b')]);
        slowWrites = true;
        await waitFor('the rejection', () => service.currentState.kind === 'unauthorized');
        await new Promise((r) => setTimeout(r, 600));
        assert.equal(service.currentState.kind, 'unauthorized', 'a is saved after b was rejected; the state still says why nothing is polled');
      } finally {
        service.dispose();
        await client.close();
        await sim.stop();
      }
    });
  });

  describe('the values file changes while a publish runs', () => {
    const VALUES = ['# docs deployment', 'image:', '  tag: "1.0"', 'staticExport:', '  enabled: false', '  bundleUrl: ""', ''].join('\n');
    let sim: Simulator;
    let client: AdminApiClient;
    let dir: string;
    let path: string;

    beforeEach(async () => {
      sim = await Simulator.start({ timeScale: 1_000, exportDefaults: { queuedMs: 2_000, durationMs: 60_000 } });
      client = new AdminApiClient({ baseUrl: sim.baseUrl, projectId: sim.projectId, getKey: () => sim.key, baseDelayMs: 1, maxDelayMs: 1, log: recordingLogger('client') });
      dir = mkdtempSync(join(tmpdir(), 'docs-admin-rel-values-'));
      path = join(dir, 'values.yaml');
      writeFileSync(path, VALUES);
    });

    afterEach(async () => {
      await client.close();
      await sim.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    function options(over: Partial<PublishOptions> = {}): PublishOptions {
      return { client, domain: 'docs.acme.dev', values: valuesFile(path), wait: { floorMs: 20, ceilingMs: 100 }, conflictDelayMs: 10, ...over };
    }

    /** Runs `edit` once, while the export is running. */
    function duringTheWait(edit: () => void): Pick<PublishOptions, 'onProgress'> {
      let done = false;
      return {
        onProgress: () => {
          if (done) return;
          done = true;
          edit();
        },
      };
    }

    const onlyValues = () => assert.deepEqual(readdirSync(dir), ['values.yaml'], 'no temporary file left');

    it('a change outside staticExport: kept, and the new link written into the changed file, with a log line', async () => {
      const log = recorder();
      const edited = VALUES.replace('tag: "1.0"', 'tag: "1.1"  # bumped by a colleague');
      const result = await publish(options({ log, ...duringTheWait(() => writeFileSync(path, edited)) }));
      const text = readFileSync(path, 'utf8');
      assert.match(text, /tag: "1\.1" {2}# bumped by a colleague/);
      assert.equal(readStaticExport(text)?.bundleUrl?.value, result.bundle.bundleUrl);
      assert.match(log.lines.join('\n'), /was changed while the publish ran \(not in staticExport\); the new link goes into the file as it is now/);
      onlyValues();
    });

    it('a change to staticExport: stopped, never written over, saying what to do', async () => {
      const edited = VALUES.replace('bundleUrl: ""', 'bundleUrl: "https://cdn.example.com/pinned.tar.gz"');
      const rollouts: number[] = [];
      const error = await publish(options({ rollout: () => Promise.resolve(void rollouts.push(1)), ...duringTheWait(() => writeFileSync(path, edited)) })).then(
        () => assert.fail('expected a refusal'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof ValuesChangedError, String(error));
      assert.match(error.message, /was changed while the publish ran, in staticExport too, so the new bundle link was not written and your change was kept\. The export \S+ completed: publish again, or point the file at it with Update Helm Values/);
      assert.equal(readFileSync(path, 'utf8'), edited);
      assert.deepEqual(rollouts, [], 'no rollout');
      onlyValues();
    });

    it('a change between the read and the write: read again, kept, the link written into it', async () => {
      const inner = valuesFile(path);
      let reads = 0;
      const racing: ValuesStore = {
        name: inner.name,
        write: (text, expected) => inner.write(text, expected),
        async read() {
          const text = await inner.read();
          // The second read is the values step's: a colleague saves right after it.
          if (++reads === 2) writeFileSync(path, `${text}# saved meanwhile\n`);
          return text;
        },
      };
      const result = await publish(options({ values: racing }));
      const text = readFileSync(path, 'utf8');
      assert.match(text, /# saved meanwhile/);
      assert.equal(readStaticExport(text)?.bundleUrl?.value, result.bundle.bundleUrl);
      assert.equal(reads, 3, 'read again after the refused write');
      onlyValues();
    });

    it('the file store refuses to write over text it was not given, leaving no temporary file', async () => {
      await assert.rejects(valuesFile(path).write('staticExport: {}\n', 'something else'), (e: unknown) => e instanceof ValuesChangedError && /changed on disk while it was being updated, so it was not written over/.test(e.message));
      assert.equal(readFileSync(path, 'utf8'), VALUES);
      onlyValues();
    });

    it('deleted while the publish ran: stopped, said so, nothing created', async () => {
      const error = await publish(options(duringTheWait(() => rmSync(path)))).then(
        () => assert.fail('expected a refusal'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof ValuesFileError, String(error));
      assert.match(error.message, /does not exist/);
      assert.deepEqual(readdirSync(dir), []);
    });

    it('an invalid values file is refused before an export is started', async () => {
      writeFileSync(path, 'staticExport:\n  enabled: [true\n');
      await assert.rejects(publish(options()), /not valid YAML at line/);
      assert.equal(sim.requests.filter((r) => r.route === 'export.start').length, 0, 'no export was wasted');
      writeFileSync(path, 'staticExport: {enabled: true}\n');
      await assert.rejects(publish(options()), /not a block mapping/);
      assert.equal(sim.requests.filter((r) => r.route === 'export.start').length, 0);
    });

    it('the rollout fails and the file was changed during it: not put back, and the message says so', async () => {
      const error = await publish(
        options({
          rollout: () => {
            writeFileSync(path, `${readFileSync(path, 'utf8')}resources: {}\n`);
            return Promise.reject(new RolloutError('The rollout command failed (exit code 1).', 1));
          },
        }),
      ).then(
        () => assert.fail('expected the rollout to fail'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof RolloutError, String(error));
      assert.match(error.message, /^The rollout command failed \(exit code 1\)\. .*values\.yaml was changed during the rollout, so it was not put back: it still points at the new bundle, with that change\. Check it before rolling out again\.$/);
      assert.match(readFileSync(path, 'utf8'), /resources: \{\}/);
      onlyValues();
    });

    it('the rollout fails, nothing else changed: put back as it was, and said so', async () => {
      const error = await publish(options({ rollout: () => Promise.reject(new RolloutError('The rollout command failed (exit code 1).', 1)) })).then(
        () => assert.fail('expected the rollout to fail'),
        (e: unknown) => e,
      );
      assert.match((error as Error).message, /values\.yaml was put back as it was\.$/);
      assert.equal(readFileSync(path, 'utf8'), VALUES);
    });

    it('a values file that is a symbolic link stays a link; the file it points at is updated', async () => {
      mkdirSync(join(dir, 'shared'));
      const real = join(dir, 'shared', 'values.yaml');
      writeFileSync(real, VALUES);
      rmSync(path);
      symlinkSync(join('shared', 'values.yaml'), path);
      const result = await publish(options());
      assert.equal(readlinkSync(path), join('shared', 'values.yaml'));
      assert.equal(readStaticExport(readFileSync(real, 'utf8'))?.bundleUrl?.value, result.bundle.bundleUrl);
      assert.deepEqual(readdirSync(join(dir, 'shared')), ['values.yaml']);
    });

    it('CLI: publish while someone edits staticExport exits 2 with one line, keeping the edit', async () => {
      const CLI = resolve(__dirname, '../../../../dist/cli.js');
      sim.setExportDefaults({ queuedMs: 0, durationMs: 2_000_000 });
      const edited = VALUES.replace('enabled: false', 'enabled: true');
      const run = new Promise<{ code: number; stderr: string }>((done) => {
        execFile(process.execPath, [CLI, 'publish', 'docs.acme.dev', '--values', path], { env: { PATH: process.env.PATH ?? '', DOCS_ADMIN_API_KEY: sim.key, DOCS_ADMIN_BASE_URL: sim.baseUrl } }, (error, stdout, stderr) => {
          collector.record('cli: docs-admin publish (stdout)', stdout, { mayHoldLink: true });
          collector.record('cli: docs-admin publish (stderr)', stderr);
          done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stderr });
        });
      });
      await waitFor('the export to start', () => sim.requests.some((r) => r.route === 'export.status'), 10_000);
      writeFileSync(path, edited);
      const { code, stderr } = await run;
      assert.equal(code, 2, stderr);
      assert.match(stderr.trim().split('\n').at(-1) ?? '', /^docs-admin: .*values\.yaml was changed while the publish ran, in staticExport too/);
      assert.equal(readFileSync(path, 'utf8'), edited);
      onlyValues();
    });
  });
});
