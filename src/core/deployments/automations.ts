/**
 * The automations a person runs, remembered per environment: the API has no list of them, so
 * the id is typed once and kept with a name of the person's choosing. Read and written through
 * the core's storage contract (VS Code's globalState in the editor); an entry that cannot be read
 * is left out of the list and kept in the store.
 */
import type { KeyValueStore } from '../keyValueStore';

export interface Automation {
  id: string;
  name: string;
  /** When it was last run from here (epoch ms): the list shows the most recent first. */
  lastRunAt?: number;
}

function readable(item: unknown): item is Automation {
  const a = item as Partial<Automation> | null;
  return typeof a === 'object' && a !== null && typeof a.id === 'string' && a.id !== '' && typeof a.name === 'string' && (a.lastRunAt === undefined || typeof a.lastRunAt === 'number');
}

export class Automations {
  constructor(
    private readonly store: KeyValueStore,
    private readonly storageKey: string,
  ) {}

  private raw(): unknown[] {
    const value = this.store.get(this.storageKey);
    return Array.isArray(value) ? value : [];
  }

  /** The remembered automations, the most recently run first. */
  list(): Automation[] {
    return this.raw()
      .filter(readable)
      .sort((a, b) => (b.lastRunAt ?? 0) - (a.lastRunAt ?? 0) || a.name.localeCompare(b.name));
  }

  get(id: string): Automation | undefined {
    return this.list().find((a) => a.id === id);
  }

  /** Remembers (or renames, or marks as run) an automation; unreadable entries stay as they were. */
  async remember(automation: Automation): Promise<void> {
    const items = this.raw();
    const at = items.findIndex((item) => readable(item) && item.id === automation.id);
    const next = at < 0 ? [...items, automation] : items.map((item, i) => (i === at ? { ...(item as object), ...automation } : item));
    await this.store.update(this.storageKey, next);
  }

  async forget(id: string): Promise<void> {
    await this.store.update(
      this.storageKey,
      this.raw().filter((item) => !(readable(item) && item.id === id)),
    );
  }
}
