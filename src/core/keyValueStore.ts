/**
 * The core's storage contract: what it remembers between runs (tracked jobs, the bundle
 * shelf) goes through this. VS Code's globalState is one; the tests use a plain object.
 */
export interface KeyValueStore {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}
