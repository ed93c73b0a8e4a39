import type { KeyValueStore } from '../../../src/core/keyValueStore';

/**
 * globalState as several windows of VS Code see it. One value per key is kept centrally, last
 * write wins. Each window has its own copy: its own write shows in it at once (the value
 * itself, as ExtHostMemento keeps it) and goes to the centre; the centre's values reach every
 * window's copy, as JSON, only when `propagate()` runs (in VS Code, a moment later, and without
 * any event). Writes from two windows before a `propagate()` cross each other.
 */
export class SharedStore {
  private readonly windows: WindowStore[] = [];
  private readonly central = new Map<string, string>();
  private pending: { key: string; json: string }[] = [];

  window(): WindowStore {
    const view = new WindowStore((key, value) => this.pending.push({ key, json: JSON.stringify(value) }));
    for (const [key, json] of this.central) view.data.set(key, JSON.parse(json) as unknown);
    this.windows.push(view);
    return view;
  }

  /** The writes so far reach the centre in order, then every window's copy holds the centre's values. */
  propagate(): void {
    const touched = new Set<string>();
    for (const { key, json } of this.pending) {
      this.central.set(key, json);
      touched.add(key);
    }
    this.pending = [];
    for (const key of touched) {
      const json = this.central.get(key) ?? 'null';
      for (const view of this.windows) view.data.set(key, JSON.parse(json) as unknown);
    }
  }

  /** What a fresh window would read, after every write so far. */
  read(key: string): unknown {
    this.propagate();
    const json = this.central.get(key);
    return json === undefined ? undefined : (JSON.parse(json) as unknown);
  }
}

export class WindowStore implements KeyValueStore {
  readonly data = new Map<string, unknown>();

  constructor(private readonly sent: (key: string, value: unknown) => void) {}

  get(key: string): unknown {
    return this.data.get(key);
  }

  update(key: string, value: unknown): Promise<void> {
    this.data.set(key, value);
    this.sent(key, value);
    return Promise.resolve();
  }
}
