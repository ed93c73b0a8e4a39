/**
 * What the jobs service tells its listeners: its state (ok, no key, unauthorized, offline), the
 * rows that changed, and each followed job's end, once. Listeners are plain callbacks; each
 * `on...` returns its own disposable.
 */
import type { Transition } from './followed';
import type { ServiceState } from './reading';
import type { JobKey } from './trackedJob';

export type Listener<T> = (value: T) => void;

export class JobEvents {
  private state: ServiceState = { kind: 'ok' };
  private readonly stateListeners = new Set<Listener<ServiceState>>();
  private readonly transitionListeners = new Set<Listener<Transition>>();
  private readonly changeListeners = new Set<Listener<JobKey[]>>();

  get currentState(): ServiceState {
    return this.state;
  }

  /** Tells the state's listeners, only when it is another state. */
  setState(state: ServiceState): void {
    if (JSON.stringify(state) === JSON.stringify(this.state)) return;
    this.state = state;
    for (const listener of this.stateListeners) listener(state);
  }

  /** Rows that changed (snapshot, error, tracked or not). */
  changed(keys: JobKey[]): void {
    for (const listener of this.changeListeners) listener(keys);
  }

  /** Followed jobs seen ended for the first time. */
  ended(transitions: Iterable<Transition>): void {
    for (const transition of transitions) for (const listener of this.transitionListeners) listener(transition);
  }

  onDidChangeState(listener: Listener<ServiceState>): { dispose(): void } {
    return subscribe(this.stateListeners, listener);
  }

  onDidTransition(listener: Listener<Transition>): { dispose(): void } {
    return subscribe(this.transitionListeners, listener);
  }

  onDidChangeJobs(listener: Listener<JobKey[]>): { dispose(): void } {
    return subscribe(this.changeListeners, listener);
  }

  dispose(): void {
    for (const listeners of [this.stateListeners, this.transitionListeners, this.changeListeners]) listeners.clear();
  }
}

function subscribe<T>(listeners: Set<Listener<T>>, listener: Listener<T>): { dispose(): void } {
  listeners.add(listener);
  return { dispose: () => listeners.delete(listener) };
}
