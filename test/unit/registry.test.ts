import * as assert from 'node:assert/strict';
import { JobRegistry } from '../../src/core/jobs/registry';
import { MemoryStore } from './support/memoryStore';
import { recordingLogger } from './support/logger';
import { jobKey } from '../../src/core/jobs/trackedJob';

const recorder = () => recordingLogger('registry');

describe('JobRegistry', () => {
  it('persists tracked jobs and reads them back in a new instance (a reload)', async () => {
    const store = new MemoryStore();
    const first = new JobRegistry(store, 'jobs.prod', recorder());
    await first.add({ kind: 'agent', id: 'a1', addedAt: 1 });
    await first.add({ kind: 'export', id: 'e1', addedAt: 2, domain: 'docs.acme.dev' });
    await first.add({ kind: 'agent', id: 'a1', addedAt: 3 });
    const second = new JobRegistry(store, 'jobs.prod', recorder());
    assert.deepEqual(second.list().map(jobKey), ['agent:a1', 'export:e1']);
    assert.equal(new JobRegistry(store, 'jobs.staging', recorder()).list().length, 0, 'environments are separate');
  });

  it('skips a corrupt entry with a log line, keeps it, and never wipes the list', async () => {
    const store = new MemoryStore();
    store.data.set('jobs', [{ kind: 'agent', id: 'ok', addedAt: 1 }, { kind: 'agent', id: 42 }, 'garbage', { kind: 'export', id: 'e', addedAt: 2 }]);
    const log = recorder();
    const registry = new JobRegistry(store, 'jobs', log);
    assert.deepEqual(registry.list().map(jobKey), ['agent:ok', 'export:e']);
    assert.equal(log.lines.filter((l) => l.includes('Skipped tracked job')).length, 2);
    await registry.remove('agent:ok');
    const saved = store.data.get('jobs') as unknown[];
    assert.equal(saved.length, 3, 'the unreadable entries are still stored');
    assert.ok(saved.includes('garbage'));
  });

  it('keeps a store value that is not a list untouched', () => {
    const store = new MemoryStore();
    store.data.set('jobs', { not: 'a list' });
    const registry = new JobRegistry(store, 'jobs', recorder());
    assert.equal(registry.list().length, 0);
    assert.deepEqual(store.data.get('jobs'), { not: 'a list' });
  });

  it('tells listeners which job changed, and only when the snapshot changed', async () => {
    const registry = new JobRegistry(new MemoryStore(), 'jobs', recorder());
    await registry.add({ kind: 'export', id: 'e', addedAt: 1 });
    const seen: string[][] = [];
    registry.onDidChange((keys) => seen.push(keys));
    const snapshot = { jobId: 'e', status: 'running' as const, rawStatus: 'running', progress: 10 };
    assert.equal(await registry.updateSnapshot('export:e', snapshot), true);
    assert.equal(await registry.updateSnapshot('export:e', { ...snapshot }), false);
    assert.equal(await registry.updateSnapshot('export:missing', snapshot), false);
    assert.deepEqual(seen, [['export:e']]);
  });
});
