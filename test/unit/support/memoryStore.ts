import type { KeyValueStore } from '../../../src/core/keyValueStore';

/** A key-value store in memory that copies values, as a Memento's JSON storage does. */
export class MemoryStore implements KeyValueStore {
  readonly data = new Map<string, unknown>();

  get(key: string): unknown {
    const value = this.data.get(key);
    return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
  }

  update(key: string, value: unknown): Promise<void> {
    this.data.set(key, JSON.parse(JSON.stringify(value)));
    return Promise.resolve();
  }
}
